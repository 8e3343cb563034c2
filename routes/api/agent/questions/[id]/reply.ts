import { agentRoute } from "@/lib/http/agent.ts";
import { readJson } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/http/errors.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { addMessage, messageViews } from "@/lib/community/messages.ts";
import { authorOf } from "@/lib/profile/profiles.ts";
import { AgentReplyBody, INVALID_KEY_ERROR } from "@/lib/schemas/agent.ts";
import { asObject, parseInput } from "@/lib/schemas/parse.ts";
import type { AppState } from "@/lib/state.ts";

/**
 * POST /api/agent/questions/:id/reply {content, replyTo?} — a message `msg-agent-reply-…`
 * authored by the key's owner (`authorType: "user"`, `createdBy: "agent"`).
 */
export const handler: Handlers<unknown, AppState> = {
  POST: agentRoute(async (req, ctx, { key }) => {
    const body = parseInput(AgentReplyBody, asObject(await readJson(req)));
    const { kv, now } = ctx.state.services;
    const author = await authorOf(kv, key.userId);
    if (!author) throw new HttpError(401, INVALID_KEY_ERROR);
    const r = await addMessage(kv, {
      questionId: ctx.params.id,
      author,
      content: body.content,
      replyTo: body.replyTo ?? undefined,
      createdBy: "agent",
      authorType: "user",
    }, { now: now(), idPrefix: "msg-agent-reply-" });
    if (!r.ok && r.reason === "question_not_found") {
      throw new HttpError(404, "Question not found");
    }
    if (!r.ok) throw new HttpError(400, "replyTo must be a message of this question");
    const [view] = await messageViews(kv, [r.message]);
    return Response.json(view, { status: 201 });
  }),
};
