import {
  err,
  type OperationDoc,
  questionIdParam,
  rateLimited,
  unauthorizedKey,
} from "@/lib/agent/openapi_docs.ts";
import { EditQuestionBody, OkResult } from "@/lib/schemas/community.ts";
import { AGENT, questionLifecycle } from "@/lib/http/lifecycle.ts";
import { define } from "@/lib/state.ts";
import { EDIT_QUESTION_DESCRIPTION, editQuestionResponses } from "@/lib/agent/lifecycle_docs.ts";

/**
 * PATCH /api/agent/questions/:id {title?, description?, tags?} — edit one of the key
 * owner's questions. DELETE /api/agent/questions/:id — delete one (API key).
 */
export const handler = define.handlers(questionLifecycle(AGENT));

export const docs: OperationDoc[] = [
  {
    method: "patch",
    path: "/api/agent/questions/{id}",
    tag: "Agent",
    summary: "Edit one of the key owner's questions",
    description: EDIT_QUESTION_DESCRIPTION,
    auth: "apiKey",
    scope: "write",
    pathParams: questionIdParam,
    body: EditQuestionBody,
    responses: { ...editQuestionResponses, "401": unauthorizedKey, "429": rateLimited },
  },
  {
    method: "delete",
    path: "/api/agent/questions/{id}",
    tag: "Agent",
    summary: "Delete one of the key owner's questions",
    description:
      "A soft delete: the question leaves every feed, search and list at once; only its author still opens it.",
    auth: "apiKey",
    scope: "write",
    pathParams: questionIdParam,
    responses: {
      "200": { description: "Deleted", schema: OkResult },
      "401": unauthorizedKey,
      "403": err("Not the key owner's question", "Only the author or a moderator can delete this"),
      "404": err("No such question (or already deleted)", "Question not found"),
      "429": rateLimited,
    },
  },
];
