import { sitemapIndexXml, sitemapLocations } from "@/lib/seo/sitemap.ts";
import { define } from "@/lib/state.ts";

/** GET /sitemap.xml — the sitemap index naming every paged sitemap. */
export const handler = define.handlers({
  async GET(ctx) {
    const { kv, config } = ctx.state.services;
    return new Response(sitemapIndexXml(await sitemapLocations(kv, config.appOrigin)), {
      headers: {
        "content-type": "application/xml; charset=utf-8",
        "cache-control": "public, max-age=600",
      },
    });
  },
});
