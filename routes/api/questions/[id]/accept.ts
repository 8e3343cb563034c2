import {
  err,
  type OperationDoc,
  questionIdParam,
  unauthorizedSession,
} from "@/lib/agent/openapi_docs.ts";
import { acceptAnswer } from "@/lib/community/accept.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { ACCEPT_FAILURES, orThrow } from "@/lib/http/outcome.ts";
import { AcceptBody, AcceptResult } from "@/lib/schemas/community.ts";
import { define } from "@/lib/state.ts";

/** POST /api/questions/:id/accept {messageId | null} — mark the answer that solved it (asker). */
export const handler = define.handlers({
  async POST(ctx) {
    const user = requireUser(ctx.state.user);
    const { messageId } = await parseBody(ctx.req, AcceptBody);
    const { acceptedMessageId } = orThrow(
      await acceptAnswer(ctx.state.services.kv, {
        questionId: ctx.params.id,
        userId: user.id,
        messageId,
      }),
      ACCEPT_FAILURES,
    );
    return Response.json({ acceptedMessageId });
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/questions/{id}/accept",
  tag: "Questions",
  summary: "Accept an answer (the asker only)",
  description:
    "`messageId`: a top-level answer of this question; `null` clears the mark. The question's `acceptedMessageId` follows; deleting the accepted answer clears it.",
  auth: "session",
  pathParams: questionIdParam,
  body: AcceptBody,
  responses: {
    "200": { description: "The accepted answer now", schema: AcceptResult },
    "400": err(
      "Bad body, or the message is a reply or an AI expert's (not an answer)",
      "Only a top-level answer can be accepted",
    ),
    "401": unauthorizedSession,
    "403": err("Not the asker", "Only the asker can accept an answer"),
    "404": err(
      "No such question (`Question not found`), or the message is not in it",
      "Message not found in this question",
    ),
  },
}];
