import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import {
  DELETE_MESSAGE_DESCRIPTION,
  editMessageResponses,
  messageIdParam,
} from "@/lib/agent/lifecycle_docs.ts";
import { deleteMessage, editMessage } from "@/lib/community/message_lifecycle.ts";
import { messageViews } from "@/lib/community/messages.ts";
import { requireUser, viewerOf } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { LIFECYCLE_FAILURES, orThrow } from "@/lib/http/outcome.ts";
import { EditMessageBody, OkResult } from "@/lib/schemas/community.ts";
import { define } from "@/lib/state.ts";

/**
 * PATCH /api/messages/:id {content} — edit your answer or reply (session).
 * DELETE /api/messages/:id — soft delete (author or moderator, session).
 */
export const handler = define.handlers({
  async PATCH(req, ctx) {
    const user = requireUser(ctx.state.user);
    const { content } = await parseBody(req, EditMessageBody);
    const { kv, now } = ctx.state.services;
    const { message } = orThrow(
      await editMessage(kv, { messageId: ctx.params.id, userId: user.id, content }, {
        now: now(),
      }),
      LIFECYCLE_FAILURES,
    );
    return Response.json((await messageViews(kv, [message]))[0]);
  },
  async DELETE(_req, ctx) {
    const user = requireUser(ctx.state.user);
    const { services } = ctx.state;
    const viewer = await viewerOf(services, user);
    orThrow(
      await deleteMessage(services.kv, {
        messageId: ctx.params.id,
        userId: user.id,
        moderator: viewer?.moderator === true,
      }, { now: services.now() }),
      LIFECYCLE_FAILURES,
    );
    return Response.json({ ok: true });
  },
});

export const docs: OperationDoc[] = [
  {
    method: "patch",
    path: "/api/messages/{id}",
    tag: "Questions",
    summary: "Edit your answer or reply",
    description:
      "`content` follows the creation rule (1–10 000 characters). The previous version is kept: see `/revisions`.",
    auth: "session",
    pathParams: messageIdParam,
    body: EditMessageBody,
    responses: { ...editMessageResponses, "401": unauthorizedSession },
  },
  {
    method: "delete",
    path: "/api/messages/{id}",
    tag: "Questions",
    summary: "Delete an answer or reply (author or moderator)",
    description: DELETE_MESSAGE_DESCRIPTION,
    auth: "session",
    pathParams: messageIdParam,
    responses: {
      "200": { description: "Deleted", schema: OkResult },
      "401": unauthorizedSession,
      "403": err(
        "Neither the author nor a moderator",
        "Only the author or a moderator can delete this",
      ),
      "404": err("No such message (or already deleted)", "Message not found"),
    },
  },
];
