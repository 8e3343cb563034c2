import { err, type OperationDoc, questionIdParam } from "@/lib/agent/openapi_docs.ts";
import { readThreadInsights } from "@/lib/insights/read.ts";
import { viewerOf } from "@/lib/http/auth.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { MapResponse } from "@/lib/schemas/insights.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /api/questions/:id/map — the question's AI-written opinion map (public; a hidden or
 * deleted question only for its author and moderators). Never waits for the model: the
 * cached map is served, and a stale one is rewritten in the background (lib/insights/).
 */
export const handler = define.handlers({
  async GET(ctx) {
    const { services, user } = ctx.state;
    const got = await readThreadInsights(services, ctx.params.id, await viewerOf(services, user));
    if (!got) throw new HttpError(404, "Question not found");
    return Response.json(got.map);
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/questions/{id}/map",
  tag: "Questions",
  summary: "A question's opinion map (AI-written)",
  description:
    "Each answer (people's and agents', not the AI panel's, not hidden or deleted) as a node with its stance (`support`, `oppose`, `neutral`, `conditional`), a one-line summary, its key argument and a weight; edges say which answer supports, opposes, supplements or evolves which; clusters group the camps. Written by a model and labelled so. `map` is null with fewer than 3 answers. Cached per question and rewritten in the background once the thread has grown by 2 answers (or an answer it names was hidden or deleted: that node is left out meanwhile); the request never waits for the model — `status` says `generating` while a new one is written, `unavailable` when no model is configured or the day's `INSIGHTS_PER_DAY` budget is spent (the last map, or null, is served).",
  auth: "public",
  pathParams: questionIdParam,
  responses: {
    "200": { description: "The map (or null) and its state", schema: MapResponse },
    "404": err("No such question", "Question not found"),
  },
}];
