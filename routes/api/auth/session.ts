import type { Handlers } from "@/lib/fresh/types.ts";
import { jsonError } from "@/lib/http/errors.ts";
import type { AppState } from "@/lib/state.ts";

/**
 * GET /api/auth/session: the signed-in user (id, name, image, provider) — never tokens
 * or email — or 401.
 */
export const handler: Handlers<unknown, AppState> = {
  GET(_req, ctx) {
    const user = ctx.state.user;
    if (!user) return jsonError(401, "Unauthorized", {}, { "cache-control": "no-store" });
    return Response.json({
      user: { id: user.id, name: user.name, image: user.image, provider: user.provider },
    }, { headers: { "cache-control": "no-store" } });
  },
};
