/**
 * Rendered HTML kept by key, bounded by entries and bytes (least recently used out
 * first) — what lets a page reuse the markup of parts whose inputs did not change:
 * islands (their server render is a function of their props, which hydration already
 * requires) and {@link cachedElement} fragments. Per process; nothing here is shared data,
 * only the output of pure functions of the key, so another instance never needs it.
 *
 * @module
 */
import { h, type VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import { flatString, LruCache } from "../cache.ts";

/** What an entry costs besides its text: the slot, the map's share, two string headers. */
const ENTRY_OVERHEAD_BYTES = 128;

/**
 * A bounded map from key to HTML ({@link LruCache}), sized in bytes: two a UTF-16 code
 * unit of key and HTML plus {@link ENTRY_OVERHEAD_BYTES}, which holds because both are
 * stored flat ({@link flatString}: a render is a tree of concatenated pieces that cost
 * more than the text). An entry over an eighth of `maxBytes` is not kept.
 *
 * @example
 * ```ts
 * import { HtmlCache } from "./html_cache.ts";
 *
 * const cache = new HtmlCache({ maxEntries: 100, maxBytes: 1 << 20 });
 * const html = cache.get("k") ?? cache.set("k", "<p>hi</p>");
 * ```
 */
export class HtmlCache extends LruCache<string, string> {
  constructor({ maxEntries, maxBytes }: { maxEntries: number; maxBytes: number }) {
    super({
      maxEntries,
      maxSize: maxBytes,
      maxEntrySize: maxBytes / 8,
      sizeOf: (key, html) => 2 * (key.length + html.length) + ENTRY_OVERHEAD_BYTES,
    });
  }

  /** Keep `html` (flattened) under `key` (flattened); returns the HTML. */
  override set(key: string, html: string, ttlMs?: number): string {
    return super.set(flatString(key), flatString(html), ttlMs);
  }
}

/** The process's cache of rendered parts: 4,000 entries, 12 MiB (docs/decisions.md#memory). */
export const renderedParts: HtmlCache = new HtmlCache({
  maxEntries: 4000,
  maxBytes: 12 * 1024 * 1024,
});

let sealed = 0;

/** True while a {@link cachedElement} renders: islands may not appear there. */
export function insideCachedPart(): boolean {
  return sealed > 0;
}

/**
 * Render `render()` once per `key` as the inner HTML of a `<tag {...attrs}>` element, and
 * reuse that HTML while the key is the same. The key must name every input of `render`
 * (build it with `JSON.stringify` of the data the part shows); the part may not contain
 * islands (their props travel in the page's JSON, which a reused string would miss) — an
 * island there throws.
 *
 * @example
 * ```tsx
 * import { cachedElement } from "./html_cache.ts";
 *
 * const title = "Hello";
 * const li = cachedElement("li", { class: "item" }, JSON.stringify(["item", title]), () => (
 *   <strong>{title}</strong>
 * ));
 * ```
 */
export function cachedElement(
  tag: string,
  attrs: Record<string, unknown>,
  key: string,
  render: () => VNode | null,
): VNode {
  let html = renderedParts.get(key);
  if (html === undefined) {
    sealed++;
    try {
      const part = render();
      html = renderedParts.set(key, part ? renderToString(part) : "");
    } finally {
      sealed--;
    }
  }
  return h(
    tag,
    { ...attrs, dangerouslySetInnerHTML: { __html: html } } as Record<string, unknown>,
  ) as VNode;
}
