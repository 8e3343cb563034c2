import { HttpError } from "@/lib/fresh/mod.ts";
import { SITEMAP_KINDS, type SitemapKind, sitemapPage, sitemapXml } from "@/lib/seo/sitemap.ts";
import { define } from "@/lib/state.ts";

/** GET /sitemaps/:kind/:page.xml — one page of questions, tags or public profiles. */
export const handler = define.handlers({
  async GET(ctx) {
    const kind = ctx.params.kind as SitemapKind;
    const match = /^([1-9][0-9]{0,8})\.xml$/.exec(ctx.params.page);
    if (!SITEMAP_KINDS.includes(kind) || !match) throw new HttpError(404);
    const { kv, config } = ctx.state.services;
    const urls = await sitemapPage(kv, config.appOrigin, kind, Number(match[1]));
    return new Response(sitemapXml(urls), {
      headers: {
        "content-type": "application/xml; charset=utf-8",
        "cache-control": "public, max-age=600",
      },
    });
  },
});
