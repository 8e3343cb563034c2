import {
  err,
  type OperationDoc,
  questionIdParam,
  unauthorizedSession,
} from "@/lib/agent/openapi_docs.ts";
import { messageViews, postMessage } from "@/lib/community/messages.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { orThrow, WRITE_FAILURES } from "@/lib/http/outcome.ts";
import { MessageSchema, NewMessageBody } from "@/lib/schemas/community.ts";
import { define } from "@/lib/state.ts";

/** POST /api/questions/:id/messages {content, replyTo?} — answer or reply (session). */
export const handler = define.handlers({
  async POST(req, ctx) {
    const user = requireUser(ctx.state.user);
    const body = await parseBody(req, NewMessageBody);
    const { kv, now } = ctx.state.services;
    const { message } = orThrow(
      await postMessage(kv, {
        userId: user.id,
        questionId: ctx.params.id,
        content: body.content,
        replyTo: body.replyTo ?? undefined,
        createdBy: "user",
      }, { now: now() }),
      WRITE_FAILURES,
    );
    const [view] = await messageViews(kv, [message]);
    return Response.json(view, { status: 201 });
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/questions/{id}/messages",
  tag: "Questions",
  summary: "Answer a question, or reply to one of its messages",
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
