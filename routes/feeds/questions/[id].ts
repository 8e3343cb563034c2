import { HttpError } from "@/lib/fresh/mod.ts";
import { answersFeed } from "@/lib/feeds/feeds.ts";
import { atomResponse } from "@/lib/feeds/atom.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /feeds/questions/:id — Atom feed of a question's newest answers and replies
 * (docs/interface.md#feeds); 404 when the question is deleted, hidden or unknown.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const { kv, now, config } = ctx.state.services;
    const doc = await answersFeed(kv, ctx.params.id ?? "");
    if (!doc) throw new HttpError(404);
    return atomResponse(doc, config.appOrigin, now());
  },
});
