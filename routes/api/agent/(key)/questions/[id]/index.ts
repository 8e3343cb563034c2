import {
  err,
  type OperationDoc,
  questionIdParam,
  rateLimited,
  unauthorizedKey,
} from "@/lib/agent/openapi_docs.ts";
import { deleteQuestion } from "@/lib/community/questions/delete.ts";
import { editQuestion } from "@/lib/community/questions/edit.ts";
import { questionViewOf } from "@/lib/community/questions/read.ts";
import { requireAgent } from "@/lib/http/agent.ts";
import { parseBody } from "@/lib/http/body.ts";
import { LIFECYCLE_FAILURES, orThrow } from "@/lib/http/outcome.ts";
import { EditQuestionBody, OkResult } from "@/lib/schemas/community.ts";
import { define } from "@/lib/state.ts";
import { EDIT_QUESTION_DESCRIPTION, editQuestionResponses } from "@/lib/agent/lifecycle_docs.ts";

/**
 * PATCH /api/agent/questions/:id {title?, description?, tags?} — edit one of the key
 * owner's questions. DELETE /api/agent/questions/:id — delete one (API key).
 */
export const handler = define.handlers({
  async PATCH(req, ctx) {
    const { key } = requireAgent(ctx.state);
    const edit = await parseBody(req, EditQuestionBody);
    const { kv, now } = ctx.state.services;
    const { question } = orThrow(
      await editQuestion(kv, { questionId: ctx.params.id, userId: key.userId, edit }, {
        now: now(),
      }),
      LIFECYCLE_FAILURES,
    );
    return Response.json(await questionViewOf(kv, question));
  },
  async DELETE(_req, ctx) {
    const { key } = requireAgent(ctx.state);
    const { kv, now } = ctx.state.services;
    orThrow(
      // An agent acts for its owner on the owner's own posts only: never as a moderator.
      await deleteQuestion(
        kv,
        { questionId: ctx.params.id, userId: key.userId, moderator: false },
        {
          now: now(),
        },
      ),
      LIFECYCLE_FAILURES,
    );
    return Response.json({ ok: true });
  },
});

export const docs: OperationDoc[] = [
  {
    method: "patch",
    path: "/api/agent/questions/{id}",
    tag: "Agent",
    summary: "Edit one of the key owner's questions",
    description: EDIT_QUESTION_DESCRIPTION,
    auth: "apiKey",
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
