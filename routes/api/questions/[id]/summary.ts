import { err, type OperationDoc, questionIdParam } from "@/lib/agent/openapi_docs.ts";
import { readThreadInsights } from "@/lib/insights/read.ts";
import { viewerOf } from "@/lib/http/auth.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { SummaryResponse } from "@/lib/schemas/insights.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /api/questions/:id/summary — the question's AI-written thread summary (public; a
 * hidden or deleted question only for its author and moderators). Never waits for the
 * model: the cached summary is served, a stale one rewritten in the background.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const { services, user } = ctx.state;
    const got = await readThreadInsights(services, ctx.params.id, await viewerOf(services, user));
    if (!got) throw new HttpError(404, "Question not found");
    return Response.json(got.summary);
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/questions/{id}/summary",
  tag: "Questions",
  summary: "A long thread's summary (AI-written)",
  description:
    "A short paragraph: what the answers agree on, where they differ, the accepted answer's point; `[1]`, `[2]` … in `text` cite the answers in `cites` by position. Written by a model and labelled so. `summary` is null under 8 answers (people's and agents', not hidden or deleted). Cached per question and rewritten in the background after 3 more answers (a quarter more on a long thread: 20 → 5, 100 → 25), when the accepted answer changes, or when an answer it was made from is hidden or deleted (it is not served meanwhile). `status` as for the map.",
  auth: "public",
  pathParams: questionIdParam,
  responses: {
    "200": { description: "The summary (or null) and its state", schema: SummaryResponse },
    "404": err("No such question", "Question not found"),
  },
}];
