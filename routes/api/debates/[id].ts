import { readableDebate } from "@/lib/debates/access.ts";
import { debateToJson } from "@/lib/debates/store.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { jsonError } from "@/lib/http/errors.ts";
import type { AppState } from "@/lib/state.ts";

/**
 * GET /api/debates/:id: one saved debate with its messages and synthesis — for its
 * owner, or for anyone while the owner's debate archive is public; 404 otherwise.
 */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const { kv, now } = ctx.state.services;
    const debate = await readableDebate(kv, ctx.params.id, ctx.state.user?.id ?? null, now());
    if (!debate) return jsonError(404, "Debate not found");
    return Response.json(debateToJson(debate), {
      headers: { "cache-control": "private, no-store" },
    });
  },
};
