import { HttpError } from "@/lib/fresh/mod.ts";
import { userFeed } from "@/lib/feeds/feeds.ts";
import { atomResponse } from "@/lib/feeds/atom.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /feeds/users/:userId — Atom feed of a user's newest public questions and answers
 * (docs/interface.md#feeds); 404 for an unknown user or one whose activity is private.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const { kv, now, config } = ctx.state.services;
    const t = now();
    const doc = await userFeed(kv, ctx.params.userId ?? "", t, config.newAccountHours);
    if (!doc) throw new HttpError(404);
    return atomResponse(doc, config.appOrigin, t);
  },
});
