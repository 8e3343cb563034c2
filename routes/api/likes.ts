import { readJson } from "@/lib/http/body.ts";
import { orThrow } from "@/lib/http/outcome.ts";
import { requireUser } from "@/lib/http/auth.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { LikeBody } from "@/lib/schemas/community.ts";
import { asObject, parseInput } from "@/lib/schemas/parse.ts";
import type { AppState } from "@/lib/state.ts";
import { castVote } from "@/lib/community/votes.ts";

/**
 * POST /api/likes {targetId, targetType, voteType?} — SPEC.md's vote table (session).
 * Answers {action, upvotes, downvotes, liked, downvoted}.
 */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const user = requireUser(ctx.state.user);
    const body = parseInput(LikeBody, asObject(await readJson(req)));
    const { kv, now, config } = ctx.state.services;
    const cast = await castVote(kv, { ...body, userId: user.id }, now(), { limits: config.limits });
    const { vote } = orThrow(cast, {
      not_found: [404, `The ${body.targetType} was not found`],
    });
    return Response.json(vote);
  },
};
