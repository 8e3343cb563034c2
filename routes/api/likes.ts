import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { castVote } from "@/lib/community/votes.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { orThrow, OWN_POST_VOTE } from "@/lib/http/outcome.ts";
import { LikeBody, VoteResult } from "@/lib/schemas/community.ts";
import { define } from "@/lib/state.ts";

/**
 * POST /api/likes {targetId, targetType, voteType?} — docs/interface.md#votes's vote table (session).
 * Answers {action, upvotes, downvotes, liked, downvoted}.
 */
export const handler = define.handlers({
  async POST(ctx) {
    const user = requireUser(ctx.state.user);
    const body = await parseBody(ctx.req, LikeBody);
    const { kv, now, config } = ctx.state.services;
    // The session read this request's sanction (routes/_middleware.ts): no second read.
    const cast = await castVote(kv, { ...body, userId: user.id }, now(), {
      limits: config.limits,
      sanction: user.sanction ?? null,
    });
    const { vote } = orThrow(cast, {
      not_found: [404, `The ${body.targetType} was not found`],
      own_post: OWN_POST_VOTE,
    });
    return Response.json(vote);
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/likes",
  tag: "Votes and favorites",
  summary: "Vote up or down (toggle or switch)",
  description:
    "none+up → liked; none+down → downvoted; up+up → unliked; down+down → undownvoted; down+up → liked (switch); up+down → downvoted (switch). Voting on your own question or message is refused (403).",
  auth: "session",
  body: LikeBody,
  responses: {
    "200": { description: "The vote after the call", schema: VoteResult },
    "400": err("Bad targetType or voteType", 'targetType must be "question" or "message"'),
    "401": unauthorizedSession,
    "403": err("The target is the caller's own post", "You cannot vote on your own post"),
    "404": err("No such target", "The question was not found"),
  },
}];
