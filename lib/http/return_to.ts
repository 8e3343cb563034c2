/**
 * Post-action redirects that cannot leave the site.
 *
 * @module
 */

/**
 * A same-origin path to return to, or `fallback`. Refuses absolute URLs,
 * protocol-relative `//host` and backslash tricks.
 *
 * @example
 * ```ts
 * safeReturnTo("/questions/q1?x=1"); // "/questions/q1?x=1"
 * safeReturnTo("//evil.example");    // "/"
 * safeReturnTo("/.//evil.example");  // "/"
 * ```
 */
export function safeReturnTo(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length > 2000) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return fallback;
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f]/.test(value)) return fallback;
  try {
    const url = new URL(value, "http://parley.invalid");
    if (url.host !== "parley.invalid") return fallback;
    const path = url.pathname + url.search + url.hash;
    // Dot segments can collapse into a protocol-relative path: `/.//evil` → `//evil`.
    return path.startsWith("//") ? fallback : path;
  } catch {
    return fallback;
  }
}
