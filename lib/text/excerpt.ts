/**
 * A plain-text excerpt of Markdown, by pattern rather than by parsing: the home feed and
 * meta descriptions need it on every page, without the Markdown parser (lib/markdown.ts
 * re-exports it).
 *
 * @module
 */
import { flatString, LruCache } from "../cache.ts";

/** Texts shorter than this are reduced again on every call: the patterns cost little there. */
const MEMO_MIN_CHARS = 256;
/**
 * Most bytes of reduced texts kept (docs/decisions.md#memory; two a UTF-16 code unit of
 * source and result, plus 128 an entry). A feed reduces each of its up to 50 posts on
 * every read the page cache misses, and pages reduce their descriptions on every render.
 */
export const EXCERPT_CACHE_BYTES = 1024 * 1024;

const plainTexts = new LruCache<string, string>({
  maxEntries: 2000,
  maxSize: EXCERPT_CACHE_BYTES,
  sizeOf: (text, plain) => 2 * (text.length + plain.length) + 128,
  maxEntrySize: EXCERPT_CACHE_BYTES / 50,
});

/**
 * Plain-text excerpt of Markdown for feeds and meta descriptions (no HTML, no Markdown
 * syntax): code blocks (fenced, even unclosed, and indented), tables (header, separator and
 * rows), raw HTML tags, images, links (inline, reference, autolinks), reference definitions,
 * headings, quotes, list markers and emphasis all go; their words stay.
 *
 * @example
 * ```ts
 * import { excerpt } from "./excerpt.ts";
 *
 * excerpt("# Title\n\nSome **bold** text", 20); // "Title Some bold text"
 * excerpt("| Option | Latency |\n| --- | --- |\n| a | 1 |\n\nPick one"); // "Pick one"
 * ```
 */
export function excerpt(text: string, max = 200): string {
  let plain = text.length >= MEMO_MIN_CHARS ? plainTexts.get(text) : undefined;
  if (plain === undefined) {
    plain = plainText(text);
    if (text.length >= MEMO_MIN_CHARS) plainTexts.set(flatString(text), flatString(plain));
  }
  return plain.length > max ? plain.slice(0, max - 1).trimEnd() + "…" : plain;
}

/** `text` without Markdown syntax and with its white space collapsed (see {@link excerpt}). */
function plainText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/^\s{0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(^\s{0,3}\1[^\n]*$|(?![\s\S]))/gm, " ")
    .replace(/^(?: {4}|\t)[^\n]*$/gm, " ")
    // A table: any line that starts or ends with a pipe, or a separator row.
    .replace(/^\s{0,3}\|[^\n]*$/gm, " ")
    .replace(/^[^\n]*\|\s*$/gm, " ")
    .replace(/^\s{0,3}:?-{2,}:?(\s*\|\s*:?-{2,}:?)+\s*$/gm, " ")
    .replace(/^[^\n|]*\|[^\n]*\n(?=\s{0,3}\|?\s*:?-{2,})/gm, " ")
    .replace(/^[^\n|]*(\|[^\n|]*)+$/gm, (line) => (/(^|\s)\|(\s|$)/.test(line) ? " " : line))
    .replace(/^\s{0,3}\[[^\]]+\]:\s*\S+[^\n]*$/gm, " ")
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<(https?:\/\/[^>\s]+|mailto:[^>\s]+)>/g, "$1")
    .replace(/<\/?[a-zA-Z][^>]*>/g, " ")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/!?\[([^\]]*)\]\[[^\]]*\]/g, "$1")
    // Markup only where it is markup: hyphens and underscores inside words ("per-voter",
    // "snake_case") are text and stay.
    .replace(/^\s{0,3}([-*+]|\d+\.)\s+(\[[ xX]\]\s+)?/gm, "")
    .replace(/^\s{0,3}(#{1,6}|>+)\s*/gm, "")
    .replace(/^\s{0,3}([-*_=]\s*){3,}$/gm, " ")
    .replace(/\*\*|__|~~|[*`|]/g, "")
    .replace(/(^|\s)_+|_+(?=\s|$)/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}
