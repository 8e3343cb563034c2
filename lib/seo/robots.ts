/**
 * `robots.txt`: what crawlers may read (docs/interface.md#discoverable-pages). The API,
 * the signed-in user's own pages (profile settings, agent keys, notifications), the
 * moderation page and the sign-in pages (real and local OAuth) are disallowed; the
 * `Sitemap:` line names the sitemap index at the absolute public origin.
 *
 * @module
 */

/** Path prefixes no crawler should read. */
export const DISALLOWED_PATHS = [
  "/api/",
  "/mcp",
  "/profile",
  "/notifications",
  "/mod",
  "/signin",
  "/auth/",
  "/local-oauth/",
  "/theme",
] as const;

/**
 * The text of `robots.txt` for the site at `origin` (no trailing slash).
 *
 * @example
 * ```ts
 * robotsTxt("https://parley.example").includes("Sitemap: https://parley.example/sitemap.xml"); // true
 * ```
 */
export function robotsTxt(origin: string): string {
  return [
    "User-agent: *",
    ...DISALLOWED_PATHS.map((p) => `Disallow: ${p}`),
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
}
