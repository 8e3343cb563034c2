import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { castVote, startTargetRead, voterKeys } from "@/lib/community/votes.ts";
import type { RouteConfig } from "@/lib/fresh/types.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { orThrow, OWN_POST_VOTE } from "@/lib/http/outcome.ts";
import { LikeBody, VoteResult } from "@/lib/schemas/community.ts";
import { define } from "@/lib/state.ts";

/** The handler reads the session, with the voter's own keys (routes/_middleware.ts). */
export const config: RouteConfig = { sessionRead: "handler" };

/**
 * POST /api/likes {targetId, targetType, voteType?} — docs/interface.md#votes's vote table (session).
 * Answers {action, upvotes, downvotes, liked, downvoted}.
 */
export const handler = define.handlers({
  async POST(ctx) {
    const { kv, now, config } = ctx.state.services;
    const session = ctx.state.session;
    // No cookie (or a bearer key): nobody to read, and a 401 before the body, as before.
    if (!session?.present) requireUser(ctx.state.user);
    // The body first, so the voter's own keys (the vote, the budget) come in the session's
    // read, and the target's keys alongside it: one round trip before the commit, not two.
    // A bad body still answers after the session: 401 when signed out, then 400.
    const parsed = await parseBody(ctx.req, LikeBody).then(
      (body) => ({ body, error: null }),
      (error: unknown) => ({ body: null, error }),
    );
    const { body } = parsed;
    // The post's record and counts are read meanwhile (shared with the crowd voting on it).
    const target = body ? startTargetRead(kv, body) : null;
    const read = await session!.read(
      body ? (userId) => voterKeys({ ...body, userId }, config.limits) : undefined,
    );
    const user = requireUser(read?.user ?? null);
    if (!body) throw parsed.error;
    // The session read this request's sanction: no second read.
    const cast = await castVote(kv, { ...body, userId: user.id }, now(), {
      limits: config.limits,
      sanction: user.sanction ?? null,
      own: read!.extra,
      target,
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
