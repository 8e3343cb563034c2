import type { Handlers } from "@/lib/fresh/types.ts";
import { buildOpenApi } from "@/lib/agent/openapi.ts";
import type { AppState } from "@/lib/state.ts";

let cached: { origin: string; body: string } | null = null;

/** GET /api/openapi.json — OpenAPI 3.1, generated from the request schemas. */
export const handler: Handlers<unknown, AppState> = {
  GET(_req, ctx) {
    const origin = ctx.state.services.config.appOrigin;
    if (cached?.origin !== origin) {
      cached = { origin, body: JSON.stringify(buildOpenApi(origin), null, 2) };
    }
    return new Response(cached.body, {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "cache-control": "public, max-age=300",
        "access-control-allow-origin": "*",
      },
    });
  },
};
