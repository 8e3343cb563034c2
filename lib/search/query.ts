/**
 * The search query language: words (stop words dropped, stemmed, the last one also a
 * prefix while it is being typed), `"quoted phrases"` (their words must stand together),
 * `tag:name` and `is:unanswered`.
 *
 * @module
 */
import { isStopWord, stemOf, surfaceWords } from "./analyze.ts";

/** One searched word. */
export interface QueryWord {
  surface: string;
  stem: string;
  /** The query's last word, still being typed: words that start with it match too. */
  prefix: boolean;
}

/** A parsed query. */
export interface ParsedQuery {
  words: QueryWord[];
  /** Each phrase as its normalized words, stop words included (order matters). */
  phrases: string[][];
  tag?: string;
  unanswered: boolean;
}

/** At most this many words are searched (the rest are ignored). */
export const MAX_QUERY_WORDS = 8;

/**
 * Parse a query.
 *
 * @example
 * ```ts
 * const p = parseQuery('"atomic op" tag:deno is:unanswered counte');
 * p.phrases; // [["atomic", "op"]]
 * p.tag; // "deno"
 * p.words.at(-1); // {surface: "counte", stem: "count", prefix: true}
 * ```
 */
export function parseQuery(text: string): ParsedQuery {
  const phrases: string[][] = [];
  let tag: string | undefined;
  let unanswered = false;
  const rest = text.replace(/"([^"]*)"?/g, (_, inner: string) => {
    const words = surfaceWords(inner);
    if (words.length > 0) phrases.push(words);
    return ` ${inner} `;
  }).replace(/(^|\s)(tag|is):(\S*)/gi, (_, lead: string, field: string, value: string) => {
    if (field.toLowerCase() === "tag" && value) tag = value.toLowerCase();
    else if (value.toLowerCase() === "unanswered") unanswered = true;
    return lead;
  });
  // Still typing the last word: nothing after it (no space, no closing quote).
  const typing = /[\p{L}\p{N}]$/u.test(text);
  const seen = new Set<string>();
  const words: QueryWord[] = [];
  const all = surfaceWords(rest);
  all.forEach((surface, i) => {
    const last = i === all.length - 1 && typing;
    if ((isStopWord(surface) && !last) || seen.has(surface)) return;
    seen.add(surface);
    words.push({ surface, stem: stemOf(surface), prefix: last });
  });
  // Keep the typed prefix even past the word cap: it is what the person is looking at.
  const kept = words.length > MAX_QUERY_WORDS
    ? [...words.slice(0, MAX_QUERY_WORDS - 1), words.at(-1)!]
    : words;
  return { words: kept, phrases, tag, unanswered };
}

/**
 * True when the query asks for anything beyond the plain feed.
 *
 * @example
 * ```ts
 * isSearch(parseQuery("  ")); // false
 * ```
 */
export function isSearch(p: ParsedQuery): boolean {
  return p.words.length > 0 || p.phrases.length > 0;
}
