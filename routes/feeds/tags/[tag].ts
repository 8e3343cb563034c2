import { HttpError } from "@/lib/fresh/mod.ts";
import { questionsFeed } from "@/lib/feeds/feeds.ts";
import { atomResponse } from "@/lib/feeds/atom.ts";
import { TAG_MAX_LENGTH } from "@/lib/input_limits.ts";
import { tagKey } from "@/lib/community/questions/model.ts";
import { define } from "@/lib/state.ts";

/** GET /feeds/tags/:tag — Atom feed of one tag's newest questions (docs/interface.md#feeds). */
export const handler = define.handlers({
  async GET(ctx) {
    const tag = tagKey(ctx.params.tag ?? "");
    if (!tag || tag.length > TAG_MAX_LENGTH) throw new HttpError(404);
    const { kv, now, config } = ctx.state.services;
    const t = now();
    return atomResponse(await questionsFeed(kv, t, tag), config.appOrigin, t);
  },
});
