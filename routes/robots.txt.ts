import { robotsTxt } from "@/lib/seo/robots.ts";
import { define } from "@/lib/state.ts";

/** GET /robots.txt — what crawlers may read, and where the sitemap is. */
export const handler = define.handlers({
  GET(ctx) {
    return new Response(robotsTxt(ctx.state.services.config.appOrigin), {
      headers: {
        "content-type": "text/plain; charset=utf-8",
        "cache-control": "public, max-age=3600",
      },
    });
  },
});
