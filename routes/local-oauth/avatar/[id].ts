import { define } from "@/lib/state.ts";

function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * GET /local-oauth/avatar/<id>?initials=AB: a generated avatar for local accounts
 * (initials on a colour derived from the id), so local mode needs no image host.
 */
export const handler = define.handlers({
  GET(ctx) {
    const id = ctx.params.id.slice(0, 100);
    const initials = (ctx.url.searchParams.get("initials") ?? "")
      .replace(/[^\p{L}\p{N}]/gu, "").slice(0, 2).toUpperCase() || "?";
    let hash = 0;
    for (const ch of id) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
    const hue = hash % 360;
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">` +
      `<rect width="64" height="64" rx="32" fill="hsl(${hue} 55% 45%)"/>` +
      `<text x="32" y="41" font-family="system-ui,sans-serif" font-size="26" font-weight="600" ` +
      `fill="#fff" text-anchor="middle">${escapeXml(initials)}</text></svg>`;
    return new Response(svg, {
      headers: {
        "content-type": "image/svg+xml; charset=utf-8",
        "cache-control": "public, max-age=86400",
      },
    });
  },
});
