import {
  err,
  type OperationDoc,
  questionIdParam,
  unauthorizedSession,
} from "@/lib/agent/openapi_docs.ts";
import { getMessageView, newMessageView } from "@/lib/community/messages/read.ts";
import { postMessage } from "@/lib/community/messages/write.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { idempotentCreate } from "@/lib/http/idempotency.ts";
import { orThrow, WRITE_FAILURES } from "@/lib/http/outcome.ts";
import { MessageSchema, NewMessageBody } from "@/lib/schemas/community.ts";
import { define } from "@/lib/state.ts";
import { mostlyDraft } from "@/lib/panel/assist.ts";
import { expertAnswersReply } from "@/lib/panel/replies.ts";

/**
 * POST /api/questions/:id/messages {content, replyTo?, aiDraft?} — answer or reply (session).
 * A reply to an AI expert's message gets that expert's answer in the background.
 */
export const handler = define.handlers({
  async POST(ctx) {
    const user = requireUser(ctx.state.user);
    const body = await parseBody(ctx.req, NewMessageBody);
    const { kv, now, config } = ctx.state.services;
    const created = async (id: string) =>
      Response.json(await getMessageView(kv, id), { status: 201 });
    return await idempotentCreate(ctx.req, body, kv, `user:${user.id}`, now(), async (attach) => {
      const { message } = orThrow(
        await postMessage(kv, {
          userId: user.id,
          questionId: ctx.params.id,
          content: body.content,
          replyTo: body.replyTo ?? undefined,
          createdBy: "user",
          draftedWithAi: body.aiDraft ? mostlyDraft(body.content, body.aiDraft) : false,
        }, { now: now(), limits: config.limits, extra: attach && ((op, m) => attach(op, m.id)) }),
        WRITE_FAILURES,
      );
      // A reply to an AI expert gets that expert's answer (bounded; never fails the post).
      if (message.replyTo) await expertAnswersReply(ctx.state.services, message);
      return {
        resourceId: message.id,
        response: Response.json(newMessageView(message), { status: 201 }),
      };
    }, created);
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/questions/{id}/messages",
  tag: "Questions",
  summary: "Answer a question, or reply to one of its messages",
  idempotent: true,
  auth: "session",
  pathParams: questionIdParam,
  body: NewMessageBody,
  responses: {
    "201": { description: "The new message", schema: MessageSchema },
    "400": err("Invalid body, or replyTo is not a message of this question"),
    "401": unauthorizedSession,
    "404": err("No such question", "Question not found"),
  },
}];
