/**
 * Redirect outcomes: domain code (sign-in flows) answers `{redirect, cookies}` and the
 * route turns it into a `302` here, so only the HTTP edge builds responses.
 *
 * @module
 */
import { type CookieSpec, setCookies } from "./cookies.ts";

/** Where to send the browser and which cookies to set (or delete) on the way. */
export interface Redirect {
  redirect: string;
  cookies: CookieSpec[];
}

/**
 * A `302` to `outcome.redirect` with its cookies and `cache-control: no-store`.
 *
 * @example
 * ```ts
 * redirectResponse({ redirect: "/", cookies: [{ name: "a", value: "", options: { maxAge: 0 } }] });
 * ```
 */
export function redirectResponse(outcome: Redirect): Response {
  const headers = new Headers();
  setCookies(headers, outcome.cookies);
  headers.set("location", outcome.redirect);
  headers.set("cache-control", "no-store");
  return new Response(null, { status: 302, headers });
}
