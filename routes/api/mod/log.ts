import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { MODERATORS_ONLY, requireModerator } from "@/lib/http/auth.ts";
import { modLog } from "@/lib/moderation/moderation.ts";
import { parseInput, queryObject } from "@/lib/schemas/parse.ts";
import { CursorQuery, ModLogResult } from "@/lib/schemas/moderation.ts";
import { define } from "@/lib/state.ts";

/** GET /api/mod/log?cursor= — every moderator action, newest first (moderators). */
export const handler = define.handlers({
  async GET(ctx) {
    await requireModerator(ctx.state.services, ctx.state.user);
    const { cursor } = parseInput(CursorQuery, queryObject(ctx.url), { in: "query" });
    return Response.json(await modLog(ctx.state.services.kv, cursor ?? null));
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/mod/log",
  tag: "Moderation",
  summary: "The moderation log (moderators)",
  description:
    "Every moderator action with who and when, newest first, 30 a page; pass `nextCursor` as `cursor` for the next page.",
  auth: "session",
  query: CursorQuery,
  responses: {
    "200": { description: "One page of the log", schema: ModLogResult },
    "401": unauthorizedSession,
    "403": err("Not a moderator", MODERATORS_ONLY),
  },
}];
