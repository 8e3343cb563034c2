import { type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { statsAndBadges } from "@/lib/profile/public_profile.ts";
import { StatsResponse } from "@/lib/schemas/profile.ts";
import { define } from "@/lib/state.ts";

/** GET /api/profile/stats: statistics, contribution score and badges of the signed-in user. */
export const handler = define.handlers({
  async GET(ctx) {
    const me = requireUser(ctx.state.user);
    const { stats, badges } = await statsAndBadges(ctx.state.services.kv, me.id);
    return Response.json({ ...stats, badges });
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/profile/stats",
  tag: "Profiles",
  summary: "Your statistics, contribution score and badges",
  auth: "session",
  responses: {
    "200": { description: "Statistics and badges", schema: StatsResponse },
    "401": unauthorizedSession,
  },
}];
