/**
 * CSRF defence for cookie-authenticated writes: the browser must say the request came
 * from our own origin (`Origin`, or `Sec-Fetch-Site: same-origin`).
 *
 * @module
 */

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** True for methods that change state. */
export function isWriteMethod(method: string): boolean {
  return WRITES.has(method.toUpperCase());
}

/**
 * True when a write request provably comes from `appOrigin` (or the origin it was
 * addressed to). A request with neither header is refused: every browser that sends
 * cookies sends one of them on a cross-site POST.
 *
 * @example
 * ```ts
 * declare const req: Request;
 * isSameOrigin(req, "https://parley.example");
 * ```
 */
export function isSameOrigin(req: Request, appOrigin: string): boolean {
  const origin = req.headers.get("origin");
  if (origin) return origin === appOrigin || origin === new URL(req.url).origin;
  const site = req.headers.get("sec-fetch-site");
  return site === "same-origin" || site === "none";
}
