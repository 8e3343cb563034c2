/**
 * Markdown → sanitized HTML, on the server (docs/interface.md#profiles). micromark (CommonMark
 * + GFM) escapes every raw HTML tag by default, so no markup from the author survives;
 * this module then keeps only http(s), mailto, relative and in-page links, and marks every
 * link `rel="nofollow ugc noopener"`; last, `#hashtags` in text become links to their tag
 * feed ({@linkcode linkHashtags}). The result is the only HTML a page injects.
 *
 * Markdown is rendered once per distinct text: results live in a bounded LRU (lib/cache.ts)
 * keyed by the source and the id prefix (at most {@link MARKDOWN_CACHE_ENTRIES} entries and
 * {@link MARKDOWN_CACHE_BYTES} bytes of source + HTML, both kept flat), so a question page with
 * 30 answers parses nothing on its second load; an edit is a new text, hence a new key. The
 * micromark extensions are built once at module load, not per call.
 *
 * @module
 */
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { flatString, LruCache } from "./cache.ts";
import { tagKey } from "./community/questions/model.ts";
import { TAG_MAX_LENGTH } from "./input_limits.ts";

/** rel of every link in user content. */
export const LINK_REL = "nofollow ugc noopener";
/**
 * rel of the links in a new account's posts (docs/interface.md#new-accounts): marked as
 * user content no search engine should follow, whatever the site decides for others'.
 */
export const NEW_ACCOUNT_LINK_REL = "ugc nofollow";

/** Options of {@link renderMarkdown}. */
export interface RenderOptions {
  /** A new account wrote the text: its links carry {@link NEW_ACCOUNT_LINK_REL}. */
  newAccount?: boolean;
}

/** True for an href user content may link to. */
export function isSafeHref(href: string): boolean {
  const decoded = href.replace(/&amp;/g, "&").trim();
  if (decoded === "") return false;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(decoded)?.[1]?.toLowerCase();
  if (scheme === undefined) return !decoded.startsWith("\\");
  return scheme === "http" || scheme === "https" || scheme === "mailto";
}

/**
 * Render Markdown to sanitized HTML. `idPrefix` keeps footnote ids of several rendered
 * texts on one page apart; a new account's text gets its links' own rel.
 *
 * @example
 * ```ts
 * renderMarkdown("**hi** <script>x</script> [a](javascript:alert(1))");
 * // '<p><strong>hi</strong> &lt;script&gt;x&lt;/script&gt; <a rel="nofollow ugc noopener">a</a></p>'
 * renderMarkdown("[a](https://a.example)", "q-", { newAccount: true });
 * // '<p><a href="https://a.example" rel="ugc nofollow">a</a></p>'
 * ```
 */
export function renderMarkdown(
  text: string,
  idPrefix = "user-content-",
  opts: RenderOptions = {},
): string {
  const rel = opts.newAccount ? NEW_ACCOUNT_LINK_REL : LINK_REL;
  const key = `${idPrefix}\u0000${rel}\u0000${text}`;
  return cache.get(key) ??
    cache.set(flatString(key), flatString(renderUncached(text, idPrefix, rel)));
}

/** Most rendered texts kept. */
export const MARKDOWN_CACHE_ENTRIES = 5000;
/**
 * Most bytes kept (docs/decisions.md#memory): two a UTF-16 code unit of key (the source)
 * and HTML, plus 128 an entry — an upper bound, since both are stored flat (one byte a
 * character unless the text has one over U+00FF). 6 MiB holds ~1,400 answers of 1 KB:
 * the answers of the pages served lately (a page's parts are also kept whole in
 * lib/fresh/html_cache.ts, so this cache mostly saves work on pages with a changed part).
 */
export const MARKDOWN_CACHE_BYTES = 6 * 1024 * 1024;

const cache = new LruCache<string, string>({
  maxEntries: MARKDOWN_CACHE_ENTRIES,
  maxSize: MARKDOWN_CACHE_BYTES,
  sizeOf: (key, html) => 2 * (key.length + html.length) + 128,
  // One huge text may not flush the rest.
  maxEntrySize: MARKDOWN_CACHE_BYTES / 100,
});

/**
 * How many rendered texts the cache holds and their size, and how many times the GFM
 * extensions were built (syntax once per process; HTML once per id prefix) — for tests
 * and the bench.
 */
export function markdownCacheStats(): {
  entries: number;
  size: number;
  syntaxBuilds: number;
  htmlBuilds: number;
} {
  return { entries: cache.size, size: cache.totalSize, syntaxBuilds, htmlBuilds };
}

let syntaxBuilds = 0;
let htmlBuilds = 0;
const GFM = (syntaxBuilds++, gfm());
// Prefixes are per post id: keep the table bounded (an extension is ~1 KB of closures, and
// only a cache miss needs one).
const htmlExtensions = new LruCache<string, ReturnType<typeof gfmHtml>>({ maxEntries: 200 });

function gfmHtmlFor(idPrefix: string): ReturnType<typeof gfmHtml> {
  let ext = htmlExtensions.get(idPrefix);
  if (!ext) {
    ext = htmlExtensions.set(idPrefix, gfmHtml({ clobberPrefix: idPrefix }));
    htmlBuilds++;
  }
  return ext;
}

function renderUncached(text: string, idPrefix: string, rel: string): string {
  const html = micromark(text, {
    extensions: [GFM],
    htmlExtensions: [gfmHtmlFor(idPrefix)],
    allowDangerousHtml: false,
    allowDangerousProtocol: false,
  });
  // micromark writes attribute values with `"` escaped, so these patterns only ever see
  // attributes it generated itself; author text arrives here as `&lt;a …`.
  return linkHashtags(
    html
      .replace(
        /<a href="([^"]*)"/g,
        (_m, href: string) =>
          isSafeHref(href) ? `<a href="${href}" rel="${rel}"` : `<a rel="${rel}"`,
      )
      // Code blocks and tables scroll sideways on a phone: focusable, so keyboards can too.
      .replace(/<pre>/g, '<pre tabindex="0">')
      .replace(/<table>/g, '<table tabindex="0">')
      .replace(/<img src="([^"]*)"/g, (_m, src: string) => {
        const ok = /^https?:/i.test(src.trim());
        return `<img ${ok ? `src="${src}" ` : ""}loading="lazy" referrerpolicy="no-referrer"`;
      }),
  );
}

/**
 * A `#word` in text: letters, digits, `-` and `_`, starting and ending with a letter or
 * digit and holding at least one letter (so "issue #42" stays text). It must open the text
 * or follow whitespace, `(`, `[` or a quote (`&quot;`), so an entity (`&#123;`), a URL
 * fragment (`page#part`) or `a#b` never matches.
 */
const HASHTAG =
  /(^|[\s(\[]|&quot;)#((?=[\p{L}\p{N}_-]*\p{L})[\p{L}\p{N}](?:[\p{L}\p{N}_-]*[\p{L}\p{N}])?)(?![\p{L}\p{N}_-])/gu;

/** Elements whose text is never scanned for hashtags. */
const NO_HASHTAGS = /^<(\/?)(a|code|pre)\b/;

/**
 * Turns each `#word` of sanitized HTML's text (outside `<a>`, `<code>` and `<pre>`) into a
 * link to its tag feed, `<a href="/?tag=word" class="hashtag">#word</a>`, the tag in its
 * canonical form ({@linkcode tagKey}). Runs on micromark's output, where every `<` and `>`
 * of the author's text is escaped, so splitting at `<…>` finds only generated elements.
 *
 * @example
 * ```ts
 * linkHashtags("<p>Try #Deno, not <code>#x</code></p>");
 * // '<p>Try <a href="/?tag=deno" class="hashtag">#Deno</a>, not <code>#x</code></p>'
 * ```
 */
export function linkHashtags(html: string): string {
  if (!html.includes("#")) return html;
  let depth = 0;
  return html.split(/(<[^>]*>)/).map((part, i) => {
    if (i % 2 === 1) {
      const m = NO_HASHTAGS.exec(part);
      if (m && !part.endsWith("/>")) depth = Math.max(0, depth + (m[1] ? -1 : 1));
      return part;
    }
    if (depth > 0 || !part.includes("#")) return part;
    return part.replace(HASHTAG, (whole, before: string, word: string) => {
      const tag = tagKey(word);
      if (tag.length > TAG_MAX_LENGTH) return whole;
      return `${before}<a href="/?tag=${encodeURIComponent(tag)}" class="hashtag">#${word}</a>`;
    });
  }).join("");
}

/** Block constructs (and images) an inline-only text such as a bio does not render. */
const BLOCK_CONSTRUCTS = [
  "headingAtx",
  "list",
  "blockQuote",
  "codeIndented",
  "codeFenced",
  "thematicBreak",
  "htmlFlow",
  "htmlText",
  "definition",
  "labelStartImage",
  "setextUnderline",
];

/**
 * Render inline Markdown only (emphasis, strong, code spans, links; paragraphs kept) to
 * sanitized HTML, with the same escaping and link filter as {@linkcode renderMarkdown}:
 * headings, lists, quotes, code blocks and images stay literal text. For short texts that
 * sit inside a layout, such as a bio.
 *
 * @example
 * ```ts
 * renderInlineMarkdown("Likes **engines**\n# not a heading");
 * // '<p>Likes <strong>engines</strong>\n# not a heading</p>'
 * ```
 */
export function renderInlineMarkdown(text: string): string {
  const html = micromark(text, {
    extensions: [{ disable: { null: BLOCK_CONSTRUCTS } }],
    allowDangerousHtml: false,
    allowDangerousProtocol: false,
  });
  return html.replace(
    /<a href="([^"]*)"/g,
    (_m, href: string) =>
      isSafeHref(href) ? `<a href="${href}" rel="${LINK_REL}"` : `<a rel="${LINK_REL}"`,
  );
}

// The excerpt needs no parser: it lives apart, so pages that only list questions (the
// home feed) do not load micromark.
export { excerpt } from "./text/excerpt.ts";
