import type { Handlers } from "@/lib/fresh/types.ts";
import { countQuestions } from "@/lib/community/questions/read.ts";
import type { AppState } from "@/lib/state.ts";

/** GET /api/feed: the question total, polled by the home page's new-questions notice. */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const total = await countQuestions(ctx.state.services.kv);
    return Response.json({ total }, { headers: { "cache-control": "no-store" } });
  },
};
