import { buildOpenApi, collectOperations } from "@/lib/agent/openapi.ts";
import { loadRouteModules } from "@/lib/fresh/routes.ts";
import { define } from "@/lib/state.ts";
import manifest from "@/manifest.gen.ts";

let cached: { origin: string; body: string } | null = null;

/**
 * GET /api/openapi.json — OpenAPI 3.1, generated from the request schemas and the `docs`
 * every route module exports beside its handler.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const origin = ctx.state.services.config.appOrigin;
    if (cached?.origin !== origin) {
      // Every route module is imported here (the manifest's are loaders).
      const modules = Object.values(await loadRouteModules(manifest.routes));
      const doc = buildOpenApi(origin, collectOperations(modules));
      cached = { origin, body: JSON.stringify(doc, null, 2) };
    }
    return new Response(cached.body, {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "cache-control": "public, max-age=300",
        "access-control-allow-origin": "*",
      },
    });
  },
});
