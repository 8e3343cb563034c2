/**
 * Word diff for the revisions page: which words of one text were kept, removed
 * or added in the next. A longest-common-subsequence over word tokens (whitespace kept with
 * the word before it), bounded so a huge edit cannot stall a page: past
 * {@link MAX_DIFF_CELLS} the texts are shown as one removal and one insertion.
 *
 * @module
 */

/** One run of the diff: text kept as is, removed from the old text, or added. */
export interface DiffPart {
  kind: "same" | "del" | "ins";
  text: string;
}

/** Largest old × new token table computed; larger inputs diff as whole replacements. */
export const MAX_DIFF_CELLS = 4_000_000;

/** Words with the whitespace after them, so joining the tokens gives the text back. */
export function tokenize(text: string): string[] {
  return text.match(/\s+|[^\s]+\s*/g) ?? [];
}

function push(out: DiffPart[], kind: DiffPart["kind"], text: string) {
  if (!text) return;
  const last = out[out.length - 1];
  if (last && last.kind === kind) last.text += text;
  else out.push({ kind, text });
}

/**
 * The word diff from `before` to `after`: runs in reading order, adjacent runs of one
 * kind merged. Joining the `same` and `del` runs gives `before`; `same` and `ins`, `after`.
 *
 * @example
 * ```ts
 * wordDiff("the quick fox", "the slow fox");
 * // [{kind: "same", text: "the "}, {kind: "del", text: "quick "},
 * //  {kind: "ins", text: "slow "}, {kind: "same", text: "fox"}]
 * ```
 */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = tokenize(before);
  const b = tokenize(after);
  // Common head and tail first: most edits touch a small middle.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) tail++;
  const out: DiffPart[] = [];
  push(out, "same", a.slice(0, head).join(""));
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  if (am.length * bm.length > MAX_DIFF_CELLS) {
    push(out, "del", am.join(""));
    push(out, "ins", bm.join(""));
  } else {
    // lcs[i][j]: length of the common subsequence of am[i..] and bm[j..].
    const n = am.length, m = bm.length;
    const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i][j] = am[i] === bm[j]
          ? lcs[i + 1][j + 1] + 1
          : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    let i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && am[i] === bm[j]) {
        push(out, "same", am[i++]);
        j++;
      } else if (j < m && (i === n || lcs[i][j + 1] >= lcs[i + 1][j])) {
        // Deletions before insertions within one change reads better: prefer del first.
        if (i < n && lcs[i + 1][j] === lcs[i][j]) push(out, "del", am[i++]);
        else push(out, "ins", bm[j++]);
      } else {
        push(out, "del", am[i++]);
      }
    }
  }
  push(out, "same", a.slice(a.length - tail).join(""));
  return out;
}

/** True when the diff changes nothing. */
export function unchanged(parts: DiffPart[]): boolean {
  return parts.every((p) => p.kind === "same");
}
