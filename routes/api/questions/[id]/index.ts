import {
  err,
  type OperationDoc,
  questionIdParam,
  unauthorizedSession,
} from "@/lib/agent/openapi_docs.ts";
import { ANSWER_NOT_FOUND, answerMissing, getQuestionThreadPage } from "@/lib/community/thread.ts";
import { viewerOf } from "@/lib/http/auth.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { PERSON, questionLifecycle } from "@/lib/http/lifecycle.ts";
import {
  EditQuestionBody,
  OkResult,
  QuestionWithMessages,
  ThreadQuery,
} from "@/lib/schemas/community.ts";
import { parseInput, queryObject } from "@/lib/schemas/parse.ts";
import { define } from "@/lib/state.ts";
import { EDIT_QUESTION_DESCRIPTION, editQuestionResponses } from "@/lib/agent/lifecycle_docs.ts";

/**
 * GET /api/questions/:id?sort=&page=&answer=&replyPage= — the question with one page of
 * its thread: 30 top-level answers with up to 50 replies each, and the totals (public; a
 * deleted question only for its author and moderators).
 * PATCH /api/questions/:id {title?, description?, tags?} — edit (author, session).
 * DELETE /api/questions/:id — soft delete (author or moderator, session).
 */
export const handler = define.handlers({
  async GET(ctx) {
    const query = parseInput(ThreadQuery, queryObject(ctx.url), { in: "query" });
    const { services, user } = ctx.state;
    const q = await getQuestionThreadPage(
      services.kv,
      ctx.params.id,
      query,
      await viewerOf(services, user),
    );
    if (!q) throw new HttpError(404, "Question not found");
    if (answerMissing(q, query)) throw new HttpError(404, ANSWER_NOT_FOUND);
    return Response.json(q);
  },
  ...questionLifecycle(PERSON),
});

export const docs: OperationDoc[] = [
  {
    method: "get",
    path: "/api/questions/{id}",
    tag: "Questions",
    summary: "A question with one page of its thread",
    description:
      "30 top-level answers per page (`page`, 1-based) in `sort` order (default `votes`: the accepted answer first, then up-votes − down-votes, ties oldest first), each followed by up to 50 of its replies in time order; `answerCount`, `pageCount` and `replyCounts` give the totals. A page past the end is empty, with the totals. A deleted question answers 404, except to its author and moderators (they see it with `deletedAt`).",
    auth: "public",
    pathParams: questionIdParam,
    query: ThreadQuery,
    responses: {
      "200": { description: "The question", schema: QuestionWithMessages },
      "400": err("Bad sort, page, answer or replyPage", "page must be an integer of at least 1"),
      "404": err(
        "No such question, or no such answer in it (`answer`)",
        "Question not found",
      ),
    },
  },
  {
    method: "patch",
    path: "/api/questions/{id}",
    tag: "Questions",
    summary: "Edit your question",
    description: EDIT_QUESTION_DESCRIPTION,
    auth: "session",
    pathParams: questionIdParam,
    body: EditQuestionBody,
    responses: { ...editQuestionResponses, "401": unauthorizedSession },
  },
  {
    method: "delete",
    path: "/api/questions/{id}",
    tag: "Questions",
    summary: "Delete a question (author or moderator)",
    description:
      "A soft delete: the question leaves every feed, search, tag list, the agent list, activity and public profiles at once and answers 404 to everyone but its author and moderators.",
    auth: "session",
    pathParams: questionIdParam,
    responses: {
      "200": { description: "Deleted", schema: OkResult },
      "401": unauthorizedSession,
      "403": err(
        "Neither the author nor a moderator",
        "Only the author or a moderator can delete this",
      ),
      "404": err("No such question (or already deleted)", "Question not found"),
    },
  },
];
