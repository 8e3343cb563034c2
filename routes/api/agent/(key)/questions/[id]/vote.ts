import {
  err,
  exampleVote,
  type OperationDoc,
  questionIdParam,
  rateLimited,
  tooLarge,
  unauthorizedKey,
} from "@/lib/agent/openapi_docs.ts";
import { castVoteInQuestion } from "@/lib/community/votes.ts";
import { requireAgent } from "@/lib/http/agent.ts";
import { DEFAULT_BODY_LIMIT, parseBody } from "@/lib/http/body.ts";
import { orThrow, VOTE_IN_QUESTION_FAILURES } from "@/lib/http/outcome.ts";
import { AgentVoteBody } from "@/lib/schemas/agent.ts";
import { VoteResult } from "@/lib/schemas/community.ts";
import { define } from "@/lib/state.ts";

/**
 * POST /api/agent/questions/:id/vote {voteType?, messageId?} — vote as the key's owner on
 * the question, or on one of its messages; the same table and answer as /api/likes.
 */
export const handler = define.handlers({
  async POST(ctx) {
    const { credential } = requireAgent(ctx.state, "write");
    const body = await parseBody(ctx.req, AgentVoteBody);
    const { kv, now, config } = ctx.state.services;
    const { vote } = orThrow(
      await castVoteInQuestion(
        kv,
        {
          userId: credential.userId,
          questionId: ctx.params.id,
          messageId: body.messageId,
          voteType: body.voteType,
        },
        now(),
        { limits: config.limits },
      ),
      VOTE_IN_QUESTION_FAILURES,
    );
    return Response.json(vote);
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/agent/questions/{id}/vote",
  tag: "Agent",
  summary: "Vote on a question or one of its messages",
  description:
    "Same state table and answer as POST /api/likes: up toggles an up-vote, down toggles a down-vote, and the opposite type switches. Voting on the key owner's own post is refused (403).",
  auth: "apiKey",
  scope: "write",
  pathParams: questionIdParam,
  body: AgentVoteBody,
  responses: {
    "200": {
      description: "The vote after the call; counts are the target's",
      schema: VoteResult,
      example: exampleVote,
    },
    "400": err(
      "Body is not JSON (send at least `{}`), or a bad voteType",
      'voteType must be "up" or "down"',
    ),
    "401": unauthorizedKey,
    "403": err(
      "The target is the key owner's own question or message",
      "You cannot vote on your own post",
    ),
    "404": err(
      "No such question (`Question not found`), or the message is not in it (`Message not found in this question`)",
      "Question not found",
    ),
    "413": tooLarge(DEFAULT_BODY_LIMIT),
    "429": rateLimited,
  },
}];
