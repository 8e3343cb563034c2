/**
 * Rendered HTML kept by key, bounded by entries and bytes (least recently filled out
 * first) — what lets a page reuse the markup of parts whose inputs did not change:
 * islands (their server render is a function of their props, which hydration already
 * requires) and {@link cachedElement} fragments. Per process; nothing here is shared data,
 * only the output of pure functions of the key, so another instance never needs it.
 *
 * @module
 */
import { h, type VNode } from "preact";
import { renderToString } from "preact-render-to-string";

/**
 * A bounded map from key to HTML.
 *
 * @example
 * ```ts
 * import { HtmlCache } from "./html_cache.ts";
 *
 * const cache = new HtmlCache({ maxEntries: 100, maxBytes: 1 << 20 });
 * const html = cache.get("k") ?? cache.set("k", "<p>hi</p>");
 * ```
 */
export class HtmlCache {
  readonly #entries = new Map<string, string>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  #bytes = 0;
  /** Lookups answered and missed since start (for tests and the bench). */
  readonly stats = { hits: 0, misses: 0 };

  constructor({ maxEntries, maxBytes }: { maxEntries: number; maxBytes: number }) {
    this.#maxEntries = maxEntries;
    this.#maxBytes = maxBytes;
  }

  /** The HTML under `key`, or undefined. */
  get(key: string): string | undefined {
    const html = this.#entries.get(key);
    if (html === undefined) this.stats.misses++;
    else this.stats.hits++;
    return html;
  }

  /** Keep `html` under `key` (evicting the oldest entries past the bounds); returns `html`. */
  set(key: string, html: string): string {
    // Keys and strings are UTF-16 in memory: two bytes a code unit.
    const size = 2 * (key.length + html.length);
    if (size > this.#maxBytes / 8) return html;
    const old = this.#entries.get(key);
    if (old !== undefined) {
      this.#bytes -= 2 * (key.length + old.length);
      this.#entries.delete(key);
    }
    this.#entries.set(key, html);
    this.#bytes += size;
    while (this.#entries.size > this.#maxEntries || this.#bytes > this.#maxBytes) {
      const [k, v] = this.#entries.entries().next().value!;
      this.#entries.delete(k);
      this.#bytes -= 2 * (k.length + v.length);
    }
    return html;
  }

  /** Entries held now. */
  get size(): number {
    return this.#entries.size;
  }

  /** Drop everything (tests). */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }
}

/** The process's cache of rendered parts: 4,000 entries, 16 MiB. */
export const renderedParts: HtmlCache = new HtmlCache({
  maxEntries: 4000,
  maxBytes: 16 * 1024 * 1024,
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
