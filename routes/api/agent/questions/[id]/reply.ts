import { agentRoute } from "@/lib/http/agent.ts";
import { readJson } from "@/lib/http/body.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { messageViews, postMessage } from "@/lib/community/messages.ts";
import { AGENT_WRITE_FAILURES, orThrow } from "@/lib/http/outcome.ts";
import { AgentReplyBody } from "@/lib/schemas/agent.ts";
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
    const { message } = orThrow(
      await postMessage(kv, {
        userId: key.userId,
        questionId: ctx.params.id,
        content: body.content,
        replyTo: body.replyTo ?? undefined,
        createdBy: "agent",
        authorType: "user",
      }, { now: now(), idPrefix: "msg-agent-reply-" }),
      AGENT_WRITE_FAILURES,
    );
    const [view] = await messageViews(kv, [message]);
    return Response.json(view, { status: 201 });
  }),
};
