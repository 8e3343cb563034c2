import {
  err,
  type OperationDoc,
  questionIdParam,
  unauthorizedSession,
} from "@/lib/agent/openapi_docs.ts";
import { deleteQuestion } from "@/lib/community/questions/delete.ts";
import { editQuestion } from "@/lib/community/questions/edit.ts";
import { questionViewOf } from "@/lib/community/questions/read.ts";
import { getQuestionThreadPage } from "@/lib/community/thread.ts";
import { requireUser, viewerOf } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { LIFECYCLE_FAILURES, orThrow } from "@/lib/http/outcome.ts";
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
  async GET(_req, ctx) {
    const query = parseInput(ThreadQuery, queryObject(ctx.url), { in: "query" });
    const { services, user } = ctx.state;
    const q = await getQuestionThreadPage(
      services.kv,
      ctx.params.id,
      query,
      await viewerOf(services, user),
    );
    if (!q) throw new HttpError(404, "Question not found");
    return Response.json(q);
  },
  async PATCH(req, ctx) {
    const user = requireUser(ctx.state.user);
    const edit = await parseBody(req, EditQuestionBody);
    const { kv, now } = ctx.state.services;
    const { question } = orThrow(
      await editQuestion(kv, { questionId: ctx.params.id, userId: user.id, edit }, { now: now() }),
      LIFECYCLE_FAILURES,
    );
    return Response.json(await questionViewOf(kv, question));
  },
  async DELETE(_req, ctx) {
    const user = requireUser(ctx.state.user);
    const { services } = ctx.state;
    const viewer = await viewerOf(services, user);
    orThrow(
      await deleteQuestion(services.kv, {
        questionId: ctx.params.id,
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
      "404": err("No such question", "Question not found"),
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
