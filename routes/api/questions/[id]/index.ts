import { HttpError } from "@/lib/http/errors.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { getQuestionThreadPage } from "@/lib/community/thread.ts";
import { ThreadQuery } from "@/lib/schemas/community.ts";
import { parseInput, queryObject } from "@/lib/schemas/parse.ts";
import type { AppState } from "@/lib/state.ts";

/**
 * GET /api/questions/:id?page=&answer=&replyPage= — the question with one page of its
 * thread: 30 top-level answers with up to 50 replies each, and the totals (public).
 */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const query = parseInput(ThreadQuery, queryObject(ctx.url));
    const q = await getQuestionThreadPage(ctx.state.services.kv, ctx.params.id, query);
    if (!q) throw new HttpError(404, "Question not found");
    return Response.json(q);
  },
};
