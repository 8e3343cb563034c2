import { questionsFeed } from "@/lib/feeds/feeds.ts";
import { atomResponse } from "@/lib/feeds/atom.ts";
import { define } from "@/lib/state.ts";

/** GET /feeds/questions — Atom feed of the newest questions (docs/interface.md#feeds). */
export const handler = define.handlers({
  async GET(ctx) {
    const { kv, now, config } = ctx.state.services;
    const t = now();
    return atomResponse(await questionsFeed(kv, t), config.appOrigin, t);
  },
});
