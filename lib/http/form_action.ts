/**
 * A page whose form is answered by a redirect to another origin (the OAuth consent page:
 * approving redirects to the app's redirect URI) must allow that origin in its CSP's
 * `form-action`: Chromium checks the redirects of a form submission against it, so
 * `form-action 'self'` alone would block the way back to the app. The page names the
 * target in a private response header ({@link FORM_TARGET_HEADER}); the app, after the
 * security headers are set, adds the target's origin to `form-action` and drops the header.
 *
 * @module
 */

/** Response header a page sets to the URL its form may end up redirecting to. */
export const FORM_TARGET_HEADER = "x-parley-form-target";

/**
 * Add the origin named by {@link FORM_TARGET_HEADER} to `form-action` of the response's
 * CSP, and remove the header (in place: the response's headers are mutable).
 *
 * @example
 * ```ts
 * const res = new Response("", {
 *   headers: {
 *     "content-security-policy": "default-src 'self'; form-action 'self'",
 *     "x-parley-form-target": "http://127.0.0.1:33418/callback",
 *   },
 * });
 * widenFormAction(res);
 * res.headers.get("content-security-policy");
 * // "default-src 'self'; form-action 'self' http://127.0.0.1:33418"
 * ```
 */
export function widenFormAction(res: Response): void {
  const target = res.headers.get(FORM_TARGET_HEADER);
  if (target === null) return;
  res.headers.delete(FORM_TARGET_HEADER);
  let origin: string;
  try {
    origin = new URL(target).origin;
  } catch {
    return;
  }
  // An opaque origin ("null") names nothing a CSP source can hold.
  if (!/^https?:\/\/[^\s;,']+$/.test(origin)) return;
  const csp = res.headers.get("content-security-policy");
  if (!csp) return;
  res.headers.set(
    "content-security-policy",
    csp.replace(
      /(^|;\s*)form-action ([^;]*)/,
      (_m, lead: string, sources: string) => `${lead}form-action ${sources.trim()} ${origin}`,
    ),
  );
}
