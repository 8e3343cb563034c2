import { asset } from "@/lib/fresh/assets.ts";
import { define } from "@/lib/state.ts";

/** GET /favicon.ico: browsers ask for it on pages without an icon link (e.g. /skill.md). */
export const handler = define.handlers({
  GET() {
    return new Response(null, {
      status: 301,
      headers: { location: asset("favicon.svg"), "cache-control": "public, max-age=86400" },
    });
  },
});
