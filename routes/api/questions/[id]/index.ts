import { HttpError } from "@/lib/http/errors.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { getQuestionWithMessages } from "@/lib/community/messages.ts";
import type { AppState } from "@/lib/state.ts";

/** GET /api/questions/:id — the question with its messages in thread order (public). */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const q = await getQuestionWithMessages(ctx.state.services.kv, ctx.params.id);
    if (!q) throw new HttpError(404, "Question not found");
    return Response.json(q);
  },
};
