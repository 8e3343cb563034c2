import { type OperationDoc, similarResponses } from "@/lib/agent/openapi_docs.ts";
import { cachedJson } from "@/lib/community/read_cache.ts";
import { SimilarQuery } from "@/lib/schemas/similar.ts";
import { parseInput, queryObject } from "@/lib/schemas/parse.ts";
import { similarQuestions } from "@/lib/search/similar.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /api/questions/similar?title= — up to 5 existing questions like the title being
 * written (public): what /ask shows while the title is typed. A static segment, so it is
 * routed before `/api/questions/:id`.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const { title } = parseInput(SimilarQuery, queryObject(ctx.url), { in: "query" });
    const { kv, feedCacheMs = 1000, embedder } = ctx.state.services;
    // A repeated request (a retyped title, a reload) is served for a second from memory,
    // like the feed; the answer is the same for every viewer (public questions only).
    return await cachedJson(kv, `similar:${title}`, feedCacheMs, async () => ({
      questions: await similarQuestions(kv, title, { embedder }),
    }));
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/questions/similar",
  tag: "Questions",
  summary: "Questions similar to a title",
  description:
    "At most 5 public questions most like `title` (ranked search, typos forgiven), the most relevant first — what `/ask` shows under the title while it is typed. Search before asking: an answered one may already say it. Deleted and hidden questions never appear.",
  auth: "public",
  query: SimilarQuery,
  responses: {
    ...similarResponses,
  },
}];
