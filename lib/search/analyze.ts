/**
 * Text analysis for search. Words come from the platform's Unicode word segmenter
 * (`Intl.Segmenter`, which also splits scripts written without spaces), English stop words
 * from `@orama/stopwords` and stems from `@orama/stemmers` (the Snowball English stemmer):
 * "counters", "countered" and "counter" all index as "counter". Typo tolerance works on the
 * words as written (their surface form), because a misspelt word often stems oddly.
 *
 * @module
 */
import { stemmer } from "@orama/stemmers/english";
import { stopwords } from "@orama/stopwords/english";

/** Longer words are cut to this length (index keys stay small). */
export const MAX_WORD_LENGTH = 32;

const STOP_WORDS: ReadonlySet<string> = new Set(stopwords);
const segmenter = new Intl.Segmenter("en", { granularity: "word" });
/** Words the English stemmer understands; others (numbers, other scripts) index as written. */
const LATIN_WORD = /^[a-z]+$/;
/** One-letter words carry meaning only outside Latin scripts (e.g. a Han character). */
const MEANINGFUL_SINGLE = /^[^\p{Script=Latin}\p{N}]$/u;

/** One analyzed word: as written (normalized) and its stem. */
export interface Token {
  surface: string;
  stem: string;
}

/**
 * The words of a text, normalized (NFKC, lower case, possessive `'s` and other apostrophes
 * dropped), in order, stop words included.
 *
 * @example
 * ```ts
 * surfaceWords("Deno KV's atomic ops"); // ["deno", "kv", "atomic", "ops"]
 * ```
 */
export function surfaceWords(text: string): string[] {
  const out: string[] = [];
  for (const s of segmenter.segment(text.normalize("NFKC").toLowerCase())) {
    if (!s.isWordLike) continue;
    const w = s.segment.replace(/['’]s$/u, "").replace(/['’]/gu, "").slice(0, MAX_WORD_LENGTH);
    if (w.length >= 2 || MEANINGFUL_SINGLE.test(w)) out.push(w);
  }
  return out;
}

/** True for a word search ignores ("the", "how", "to"). */
export function isStopWord(surface: string): boolean {
  return STOP_WORDS.has(surface);
}

/**
 * The stem a word indexes under.
 *
 * @example
 * ```ts
 * stemOf("counters"); // "counter"
 * ```
 */
export function stemOf(surface: string): string {
  return LATIN_WORD.test(surface) ? stemmer(surface) : surface;
}

/**
 * The searchable words of a text: stop words dropped, each with its stem.
 *
 * @example
 * ```ts
 * analyze("How to count the counters"); // [{surface: "count", stem: "count"}, {surface: "counters", stem: "counter"}]
 * ```
 */
export function analyze(text: string): Token[] {
  const out: Token[] = [];
  for (const surface of surfaceWords(text)) {
    if (!isStopWord(surface)) out.push({ surface, stem: stemOf(surface) });
  }
  return out;
}

/**
 * Typos tolerated in a word of this length: none below 5 letters, one up to 8, two from 9
 * (a long word has room for two slips and is still unambiguous).
 *
 * @example
 * ```ts
 * typoBudget("count"); // 1
 * ```
 */
export function typoBudget(word: string): 0 | 1 | 2 {
  const n = [...word].length;
  return n < 5 ? 0 : n < 9 ? 1 : 2;
}

/**
 * Every string made by deleting exactly one character (the "symmetric delete" neighbours of
 * a word: two words within one edit share one of these, or one is a neighbour of the other).
 *
 * @example
 * ```ts
 * deletions("abc"); // ["bc", "ac", "ab"]
 * ```
 */
export function deletions(word: string): string[] {
  const chars = [...word];
  const out = new Set<string>();
  for (let i = 0; i < chars.length; i++) {
    out.add(chars.slice(0, i).join("") + chars.slice(i + 1).join(""));
  }
  return [...out];
}
