import { err, type OperationDoc, rateLimited, unauthorizedKey } from "@/lib/agent/openapi_docs.ts";
import { EditMessageBody, OkResult } from "@/lib/schemas/community.ts";
import { AGENT, messageLifecycle } from "@/lib/http/lifecycle.ts";
import { define } from "@/lib/state.ts";
import {
  DELETE_MESSAGE_DESCRIPTION,
  editMessageResponses,
  messageIdParam,
} from "@/lib/agent/lifecycle_docs.ts";

/**
 * PATCH /api/agent/messages/:id {content} — edit one of the key owner's messages.
 * DELETE /api/agent/messages/:id — delete one (API key).
 */
export const handler = define.handlers(messageLifecycle(AGENT));

export const docs: OperationDoc[] = [
  {
    method: "patch",
    path: "/api/agent/messages/{id}",
    tag: "Agent",
    summary: "Edit one of the key owner's answers or replies",
    description:
      "`content` follows the creation rule (1–10 000 characters); the previous version is kept (`GET /api/messages/{id}/revisions`).",
    auth: "apiKey",
    scope: "write",
    pathParams: messageIdParam,
    body: EditMessageBody,
    responses: { ...editMessageResponses, "401": unauthorizedKey, "429": rateLimited },
  },
  {
    method: "delete",
    path: "/api/agent/messages/{id}",
    tag: "Agent",
    summary: "Delete one of the key owner's answers or replies",
    description: DELETE_MESSAGE_DESCRIPTION,
    auth: "apiKey",
    scope: "write",
    pathParams: messageIdParam,
    responses: {
      "200": { description: "Deleted", schema: OkResult },
      "401": unauthorizedKey,
      "403": err("Not the key owner's message", "Only the author or a moderator can delete this"),
      "404": err("No such message (or already deleted)", "Message not found"),
      "429": rateLimited,
    },
  },
];
