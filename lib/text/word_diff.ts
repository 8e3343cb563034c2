/**
 * Word diff for the revisions page: which words of one text were kept, removed
 * or added in the next. A longest-common-subsequence over word tokens (whitespace kept with
 * the word before it), bounded so a huge edit cannot stall a page: past
 * {@link MAX_DIFF_CELLS} the texts are shown as one removal and one insertion.
 *
 * Tokens are matched by their word, not their whitespace: a word that only gained or lost
 * a line break (or spaces) stays `same`, and the whitespace change alone is a removal and
 * an insertion of whitespace ({@link isWhitespaceChange}), which the page shows as a line
 * break change rather than as a changed word.
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

/** The word of a token, without the whitespace after it (what tokens are matched by). */
function wordOf(token: string): string {
  return token.trimEnd();
}

/** A kept word whose trailing whitespace may have changed. */
function pushKept(out: DiffPart[], before: string, after: string) {
  const word = wordOf(after);
  push(out, "same", word);
  const was = before.slice(word.length);
  const now = after.slice(word.length);
  if (was === now) {
    push(out, "same", now);
    return;
  }
  push(out, "del", was);
  push(out, "ins", now);
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
  const ak = a.map(wordOf);
  const bk = b.map(wordOf);
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
    const akm = ak.slice(head, a.length - tail);
    const bkm = bk.slice(head, b.length - tail);
    const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i][j] = akm[i] === bkm[j]
          ? lcs[i + 1][j + 1] + 1
          : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    let i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && akm[i] === bkm[j]) {
        pushKept(out, am[i++], bm[j++]);
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

/**
 * True when a removed or inserted run is whitespace only (a line break or spaces that
 * changed around kept words): the page shows it as such, not as a changed word.
 *
 * @example
 * ```ts
 * const parts = wordDiff("one two", "one\ntwo");
 * parts.filter((p) => p.kind !== "same").every(isWhitespaceChange); // true
 * ```
 */
export function isWhitespaceChange(part: DiffPart): boolean {
  return part.kind !== "same" && part.text.trim() === "";
}

/** True when the diff changes nothing. */
export function unchanged(parts: DiffPart[]): boolean {
  return parts.every((p) => p.kind === "same");
}
