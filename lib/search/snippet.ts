/**
 * Highlighted snippets for search results: the part of a text around its first match, cut
 * at word boundaries, as plain segments (the page renders marked ones in `<mark>`; nothing
 * here is HTML, so nothing needs escaping twice).
 *
 * @module
 */
import { stemOf, typoBudget } from "./analyze.ts";
import { editDistance } from "../text/edit_distance.ts";
import type { ParsedQuery } from "./query.ts";

/** A piece of a snippet; `mark` when it matched the query. */
export interface Segment {
  text: string;
  mark: boolean;
}

const segmenter = new Intl.Segmenter("en", { granularity: "word" });

/** True when a word of the text is what the query looked for (as the ranking would). */
function matches(word: string, query: ParsedQuery): boolean {
  const w = word.normalize("NFKC").toLowerCase().replace(/['’]s$/u, "").replace(/['’]/gu, "");
  const stem = stemOf(w);
  return query.words.some((q) => {
    const typos = typoBudget(q.surface);
    return q.stem === stem || (q.prefix && q.surface.length >= 2 && w.startsWith(q.surface)) ||
      (typos > 0 &&
        (editDistance(q.surface, w, typos) <= typos ||
          editDistance(q.stem, stem, typos) <= typos));
  }) || query.phrases.some((p) => p.includes(w));
}

/**
 * Up to `max` characters of `text` around its first match, matches marked; the start of
 * the text when nothing matches. `…` marks a cut.
 *
 * @example
 * ```ts
 * import { parseQuery } from "@/lib/search/query.ts";
 * highlight("Atomic counters in KV", parseQuery("counter"), 80);
 * // [{text: "Atomic ", mark: false}, {text: "counters", mark: true}, {text: " in KV", mark: false}]
 * ```
 */
export function highlight(text: string, query: ParsedQuery, max = 180): Segment[] {
  const flat = text.replace(/\s+/g, " ").trim();
  const parts = [...segmenter.segment(flat)].map((s) => ({
    text: s.segment,
    index: s.index,
    mark: s.isWordLike === true && matches(s.segment, query),
  }));
  const first = parts.find((p) => p.mark);
  // Start a little before the first match, at a word boundary.
  let start = 0;
  if (first && first.index + first.text.length > max - 20) {
    const from = Math.max(0, first.index - 40);
    start = parts.find((p) => p.index >= from && p.text.trim() !== "")?.index ?? first.index;
  }
  const out: Segment[] = start > 0 ? [{ text: "…", mark: false }] : [];
  let used = 0;
  for (const p of parts) {
    if (p.index < start) continue;
    if (used + p.text.length > max) {
      out.push({ text: "…", mark: false });
      break;
    }
    used += p.text.length;
    const last = out.at(-1);
    if (last && last.mark === p.mark && !p.mark) last.text += p.text;
    else out.push({ text: p.text, mark: p.mark });
  }
  return out;
}
