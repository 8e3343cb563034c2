import { requireUser } from "@/lib/http/auth.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { statsAndBadges } from "@/lib/profile/public_profile.ts";
import type { AppState } from "@/lib/state.ts";

/** GET /api/profile/stats: statistics, contribution score and badges of the signed-in user. */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const me = requireUser(ctx.state.user);
    const { stats, badges } = await statsAndBadges(ctx.state.services.kv, me.id);
    return Response.json({ ...stats, badges });
  },
};
