import type { OperationDoc } from "@/lib/agent/openapi_docs.ts";
import { countQuestions } from "@/lib/community/questions/read.ts";
import { FeedTotal } from "@/lib/schemas/community.ts";
import { define } from "@/lib/state.ts";

/** GET /api/feed: the question total, polled by the home page's new-questions notice. */
export const handler = define.handlers({
  async GET(ctx) {
    const total = await countQuestions(ctx.state.services.kv);
    return Response.json({ total }, { headers: { "cache-control": "no-store" } });
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/feed",
  tag: "Questions",
  summary: "How many questions exist (cheap to poll for new ones)",
  auth: "public",
  responses: {
    "200": {
      description: "The total",
      schema: FeedTotal,
      example: { total: 41 },
    },
  },
}];
