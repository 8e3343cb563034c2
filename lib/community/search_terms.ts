/**
 * Search terms for the question index: words are lower-cased, NFKC-normalized runs of
 * letters and digits. Title and tag words are also indexed by their prefixes (≥3
 * characters), so typing the start of a title word finds it; description words are
 * indexed whole. The number of terms per question is bounded so one question never
 * writes more than a few hundred index keys.
 *
 * @module
 */

/** Words shorter than this are not indexed (and ignored in queries). */
export const MIN_TERM_LENGTH = 2;
/** Longer words are cut to this length (keys stay small). */
export const MAX_TERM_LENGTH = 32;
/** Prefixes of title/tag words start at this length. */
export const MIN_PREFIX_LENGTH = 3;
/** At most this many distinct terms are indexed per question. */
export const MAX_TERMS_PER_QUESTION = 300;
/** Only this much of a description is indexed. */
const DESCRIPTION_INDEX_CHARS = 4000;

/**
 * The words of a text, lower-cased and normalized, in order of appearance (with repeats).
 *
 * @example
 * ```ts
 * words("Deno KV: atomic ops!"); // ["deno", "kv", "atomic", "ops"]
 * ```
 */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const m of text.normalize("NFKC").toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0];
    if (w.length >= MIN_TERM_LENGTH) out.push(w.slice(0, MAX_TERM_LENGTH));
  }
  return out;
}

/**
 * The index terms of a question.
 *
 * @example
 * ```ts
 * questionTerms({ title: "Hydration", description: "", tags: [] });
 * // ["hyd", "hydr", …, "hydration"]
 * ```
 */
export function questionTerms(
  q: { title: string; description: string; tags: string[] },
): string[] {
  const terms = new Set<string>();
  const add = (t: string) => {
    if (terms.size < MAX_TERMS_PER_QUESTION) terms.add(t);
  };
  for (const w of words([q.title, ...q.tags].join(" "))) {
    add(w);
    for (let n = MIN_PREFIX_LENGTH; n < w.length; n++) add(w.slice(0, n));
  }
  for (const w of words(q.description.slice(0, DESCRIPTION_INDEX_CHARS))) add(w);
  return [...terms];
}

/**
 * The terms of a search query (distinct, at most 5), longest first: the longest term is
 * usually the rarest, so its postings are the cheapest to scan.
 *
 * @example
 * ```ts
 * queryTerms("how to use kv"); // ["how", "use", "to", "kv"]
 * ```
 */
export function queryTerms(q: string): string[] {
  return [...new Set(words(q))].sort((a, b) => b.length - a.length).slice(0, 5);
}

/**
 * True when every query term occurs in the question's text (as the start of a word in the
 * title or tags, or as a word in the description) — the filter applied to candidates.
 */
export function matchesAll(terms: string[], questionTermSet: Set<string>): boolean {
  return terms.every((t) => questionTermSet.has(t));
}
