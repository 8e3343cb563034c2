import { debateToJson, listUserDebates } from "@/lib/debates/store.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { jsonError } from "@/lib/http/errors.ts";
import type { AppState } from "@/lib/state.ts";

/** GET /api/debate/history: the signed-in user's 20 newest debates, newest first. */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const { kv, now } = ctx.state.services;
    const user = ctx.state.user;
    if (!user) return jsonError(401, "Unauthorized");
    try {
      const debates = await listUserDebates(kv, user.id, now());
      return Response.json(debates.map(debateToJson), {
        headers: { "cache-control": "private, no-store" },
      });
    } catch (err) {
      console.error("GET /api/debate/history failed", err);
      return jsonError(500, "Failed to load history");
    }
  },
};
