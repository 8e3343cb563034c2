import { err, type OperationDoc, questionIdParam } from "@/lib/agent/openapi_docs.ts";
import { getQuestionThreadPage } from "@/lib/community/thread.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { QuestionWithMessages, ThreadQuery } from "@/lib/schemas/community.ts";
import { parseInput, queryObject } from "@/lib/schemas/parse.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /api/questions/:id?page=&answer=&replyPage= — the question with one page of its
 * thread: 30 top-level answers with up to 50 replies each, and the totals (public).
 */
export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = parseInput(ThreadQuery, queryObject(ctx.url), { in: "query" });
    const q = await getQuestionThreadPage(ctx.state.services.kv, ctx.params.id, query);
    if (!q) throw new HttpError(404, "Question not found");
    return Response.json(q);
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/questions/{id}",
  tag: "Questions",
  summary: "A question with one page of its thread",
  description:
    "30 top-level answers per page (`page`, 1-based), each followed by up to 50 of its replies; `answerCount`, `pageCount` and `replyCounts` give the totals. A page past the end is empty, with the totals.",
  auth: "public",
  pathParams: questionIdParam,
  query: ThreadQuery,
  responses: {
    "200": { description: "The question", schema: QuestionWithMessages },
    "400": err("Bad page, answer or replyPage", "page must be an integer of at least 1"),
    "404": err("No such question", "Question not found"),
  },
}];
