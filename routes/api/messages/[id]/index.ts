import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import {
  DELETE_MESSAGE_DESCRIPTION,
  editMessageResponses,
  messageIdParam,
} from "@/lib/agent/lifecycle_docs.ts";
import { EditMessageBody, OkResult } from "@/lib/schemas/community.ts";
import { messageLifecycle, PERSON } from "@/lib/http/lifecycle.ts";
import { define } from "@/lib/state.ts";

/**
 * PATCH /api/messages/:id {content} — edit your answer or reply (session).
 * DELETE /api/messages/:id — soft delete (author or moderator, session).
 */
export const handler = define.handlers(messageLifecycle(PERSON));

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
