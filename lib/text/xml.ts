/**
 * Text written into XML (the Atom feeds, lib/feeds/atom.ts, and the sitemaps,
 * lib/seo/sitemap.ts). Posts may hold any Unicode a client sends, but XML 1.0 forbids some
 * characters even as references, and one of them makes a strict parser refuse the whole
 * document: they are dropped at output, where the one rule for every writer lives.
 *
 * @module
 */

/**
 * Characters XML 1.0 forbids (its `Char` production): C0 controls but tab, line feed and
 * carriage return; lone surrogates (with `u`, a well-formed pair is one code point and does
 * not match); U+FFFE and U+FFFF.
 */
// deno-lint-ignore no-control-regex
const NOT_XML_CHAR = /[\u{0}-\u{8}\u{B}\u{C}\u{E}-\u{1F}\u{D800}-\u{DFFF}\u{FFFE}\u{FFFF}]/gu;

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/**
 * `text` escaped for XML character data or an attribute value (either quote), with the
 * characters XML 1.0 forbids dropped: what a parser reads back is exactly `text` less those.
 *
 * @example
 * ```ts
 * import { xmlText } from "./xml.ts";
 *
 * xmlText('a \u0001<b> & "c"'); // 'a &lt;b&gt; &amp; &quot;c&quot;'
 * xmlText("deno 🦕"); // "deno 🦕"
 * ```
 */
export function xmlText(text: string): string {
  return text.replace(NOT_XML_CHAR, "").replace(/[&<>"']/g, (c) => ESCAPES[c]);
}
