/**
 * A {@link FeedDoc} as an Atom document (RFC 4287). Written here, not by a feed library:
 * the one tried pretty-printed any text holding `<`, `&` or `"` as CDATA on lines of its
 * own, so readers got titles with newlines and indentation around them. Every text goes
 * through `xmlText` (lib/text/xml.ts), which escapes it and drops what XML 1.0 forbids, so
 * a parser reads back exactly the text of the post.
 *
 * @module
 */
import { xmlText } from "../text/xml.ts";
import type { FeedDoc, FeedEntry } from "./feeds.ts";

const iso = (ms: number) => new Date(ms).toISOString();

/** `<name attrs>text</name>`, every attribute value and the text escaped. */
function element(name: string, text: string, attrs: Record<string, string> = {}): string {
  const attributes = Object.entries(attrs).map(([k, v]) => ` ${k}="${xmlText(v)}"`).join("");
  return `<${name}${attributes}>${xmlText(text)}</${name}>`;
}

/** An empty `<link>`. */
function link(href: string, rel: string, type: string): string {
  return `<link href="${xmlText(href)}" rel="${rel}" type="${type}"/>`;
}

function entryXml(e: FeedEntry, abs: (path: string) => string): string {
  const lines = [
    element("id", abs(e.idPath ?? e.path)),
    element("title", e.title, { type: "text" }),
    link(abs(e.path), "alternate", "text/html"),
    `<author>${element("name", e.author)}</author>`,
    element("published", iso(e.published)),
    element("updated", iso(e.updated)),
    element("summary", e.summary, { type: "text" }),
    element("content", e.html, { type: "html" }),
  ];
  return `  <entry>\n${lines.map((l) => `    ${l}\n`).join("")}  </entry>\n`;
}

/**
 * The Atom XML of `doc`, its links made absolute on `origin`. An empty feed's `updated` is
 * `now`, otherwise its newest entry's.
 *
 * @example
 * ```ts
 * const xml = atomXml(
 *   { title: "T", subtitle: "S", pagePath: "/", selfPath: "/feeds/questions", entries: [] },
 *   "http://localhost:8080",
 *   Date.now(),
 * );
 * ```
 */
export function atomXml(doc: FeedDoc, origin: string, now: number): string {
  const abs = (path: string) => `${origin}${path}`;
  const newest = doc.entries.reduce((t, e) => Math.max(t, e.updated), 0);
  const head = [
    element("id", abs(doc.selfPath)),
    element("title", doc.title, { type: "text" }),
    element("subtitle", doc.subtitle, { type: "text" }),
    element("updated", iso(newest || now)),
    link(abs(doc.pagePath), "alternate", "text/html"),
    link(abs(doc.selfPath), "self", "application/atom+xml"),
    element("generator", "Parley", { uri: origin }),
  ];
  return `<?xml version="1.0" encoding="utf-8"?>\n` +
    `<feed xmlns="http://www.w3.org/2005/Atom">\n` +
    head.map((l) => `  ${l}\n`).join("") +
    doc.entries.map((e) => entryXml(e, abs)).join("") +
    `</feed>\n`;
}

/** How long a reader or proxy may reuse a feed (s); a new post is rarely urgent in a feed. */
export const FEED_MAX_AGE = 60;

/**
 * The HTTP answer for `doc`: Atom with its media type, cacheable by anyone for
 * {@link FEED_MAX_AGE} seconds (signed-out, it is also held by the page cache,
 * lib/http/page_cache.ts, like a page).
 *
 * @example
 * ```ts
 * const res = atomResponse(
 *   { title: "T", subtitle: "S", pagePath: "/", selfPath: "/feeds/questions", entries: [] },
 *   "http://localhost:8080",
 *   Date.now(),
 * );
 * res.headers.get("content-type"); // "application/atom+xml; charset=utf-8"
 * ```
 */
export function atomResponse(doc: FeedDoc, origin: string, now: number): Response {
  return new Response(atomXml(doc, origin, now), {
    headers: {
      "content-type": "application/atom+xml; charset=utf-8",
      "cache-control": `public, max-age=${FEED_MAX_AGE}`,
    },
  });
}
