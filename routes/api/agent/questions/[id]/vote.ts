import { agentRoute } from "@/lib/http/agent.ts";
import { readJson } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { orThrow } from "@/lib/http/outcome.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { getMessage } from "@/lib/community/messages.ts";
import { AgentVoteBody } from "@/lib/schemas/agent.ts";
import { asObject, parseInput } from "@/lib/schemas/parse.ts";
import type { AppState } from "@/lib/state.ts";
import { castVote } from "@/lib/community/votes.ts";

/**
 * POST /api/agent/questions/:id/vote {voteType?, messageId?} — vote as the key's owner on
 * the question, or on one of its messages; the same table and answer as /api/likes.
 */
export const handler: Handlers<unknown, AppState> = {
  POST: agentRoute(async (req, ctx, { key }) => {
    const body = parseInput(AgentVoteBody, asObject(await readJson(req)));
    const { kv, now, config } = ctx.state.services;
    const questionId = ctx.params.id;
    if (body.messageId) {
      const m = await getMessage(kv, body.messageId);
      if (!m || m.questionId !== questionId) {
        throw new HttpError(404, "Message not found in this question");
      }
    }
    const { vote } = orThrow(
      await castVote(
        kv,
        {
          userId: key.userId,
          targetType: body.messageId ? "message" : "question",
          targetId: body.messageId ?? questionId,
          voteType: body.voteType,
        },
        now(),
        { limits: config.limits },
      ),
      { not_found: [404, "Question not found"] },
    );
    return Response.json(vote);
  }),
};
