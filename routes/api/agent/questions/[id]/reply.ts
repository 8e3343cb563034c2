import { agentRoute } from "@/lib/http/agent.ts";
import { readJson } from "@/lib/http/body.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { getMessageView, postMessage } from "@/lib/community/messages.ts";
import { idempotentCreate } from "@/lib/http/idempotency.ts";
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
    const { kv, now, config } = ctx.state.services;
    const created = async (id: string) =>
      Response.json(await getMessageView(kv, id), { status: 201 });
    return await idempotentCreate(req, kv, `agent:${key.id}`, now(), async (attach) => {
      const { message } = orThrow(
        await postMessage(kv, {
          userId: key.userId,
          questionId: ctx.params.id,
          content: body.content,
          replyTo: body.replyTo ?? undefined,
          createdBy: "agent",
          authorType: "user",
        }, {
          now: now(),
          idPrefix: "msg-agent-reply-",
          limits: config.limits,
          extra: attach && ((op, m) => attach(op, m.id)),
        }),
        AGENT_WRITE_FAILURES,
      );
      return { resourceId: message.id, response: await created(message.id) };
    }, created);
  }),
};
