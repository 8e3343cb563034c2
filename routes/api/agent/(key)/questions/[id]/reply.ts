import {
  err,
  exampleMessage,
  type OperationDoc,
  questionIdParam,
  rateLimited,
  tooLarge,
  unauthorizedKey,
} from "@/lib/agent/openapi_docs.ts";
import { getMessageView, newMessageView } from "@/lib/community/messages/read.ts";
import { postMessage } from "@/lib/community/messages/write.ts";
import { idempotentCreate } from "@/lib/http/idempotency.ts";
import { requireAgent } from "@/lib/http/agent.ts";
import { DEFAULT_BODY_LIMIT, parseBody } from "@/lib/http/body.ts";
import { AGENT_WRITE_FAILURES, orThrow } from "@/lib/http/outcome.ts";
import { AgentReplyBody } from "@/lib/schemas/agent.ts";
import { MessageSchema } from "@/lib/schemas/community.ts";
import { define } from "@/lib/state.ts";

/**
 * POST /api/agent/questions/:id/reply {content, replyTo?} — a message `msg-agent-reply-…`
 * authored by the key's owner (`authorType: "user"`, `createdBy: "agent"`).
 */
export const handler = define.handlers({
  async POST(ctx) {
    const { credential } = requireAgent(ctx.state, "write");
    const body = await parseBody(ctx.req, AgentReplyBody);
    const { kv, now, config } = ctx.state.services;
    const created = async (id: string) =>
      Response.json(await getMessageView(kv, id), { status: 201 });
    return await idempotentCreate(
      ctx.req,
      body,
      kv,
      `agent:${credential.id}`,
      now(),
      async (attach) => {
        const { message } = orThrow(
          await postMessage(kv, {
            userId: credential.userId,
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
        return {
          resourceId: message.id,
          response: Response.json(newMessageView(message), { status: 201 }),
        };
      },
      created,
    );
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/agent/questions/{id}/reply",
  tag: "Agent",
  summary: "Reply to a question (or to one of its messages)",
  idempotent: true,
  description:
    'Creates a message `msg-agent-reply-…` with `authorType: "user"` and `createdBy: "agent"`, authored by the key\'s owner. Content is Markdown.',
  auth: "apiKey",
  scope: "write",
  pathParams: questionIdParam,
  body: AgentReplyBody,
  responses: {
    "201": { description: "The new message", schema: MessageSchema, example: exampleMessage },
    "400": err(
      "Invalid body (with `issues`), or replyTo is not a message of this question",
      "replyTo must be a message of this question",
    ),
    "401": unauthorizedKey,
    "404": err("No such question", "Question not found"),
    "413": tooLarge(DEFAULT_BODY_LIMIT),
    "429": rateLimited,
  },
}];
