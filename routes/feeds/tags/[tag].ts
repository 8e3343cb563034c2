import { HttpError } from "@/lib/fresh/mod.ts";
import { questionsFeed } from "@/lib/feeds/feeds.ts";
import { atomResponse } from "@/lib/feeds/atom.ts";
import { TagField } from "@/lib/schemas/tags.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /feeds/tags/:tag — Atom feed of one tag's newest questions (docs/interface.md#feeds);
 * any tag a question may carry, in any case or form of it.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const tag = TagField.safeParse(ctx.params.tag ?? "");
    if (!tag.success) throw new HttpError(404);
    const { kv, now, config } = ctx.state.services;
    const t = now();
    return atomResponse(await questionsFeed(kv, t, tag.data), config.appOrigin, t);
  },
});
