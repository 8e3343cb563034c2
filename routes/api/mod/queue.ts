import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { MODERATORS_ONLY, requireModerator } from "@/lib/http/auth.ts";
import { modQueue } from "@/lib/moderation/moderation.ts";
import { ModQueueResult } from "@/lib/schemas/moderation.ts";
import { define } from "@/lib/state.ts";

/** GET /api/mod/queue — flagged and hidden posts waiting for a decision (moderators). */
export const handler = define.handlers({
  async GET(ctx) {
    await requireModerator(ctx.state.services, ctx.state.user);
    return Response.json({ queue: await modQueue(ctx.state.services.kv) });
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/mod/queue",
  tag: "Moderation",
  summary: "The moderation queue (moderators)",
  description:
    "Flagged posts waiting for a decision, most flagged first (at most 50): reasons and counts, notes, whether flags hid it, and the post in context (its question's title, an excerpt).",
  auth: "session",
  responses: {
    "200": { description: "The queue", schema: ModQueueResult },
    "401": unauthorizedSession,
    "403": err("Not a moderator", MODERATORS_ONLY),
  },
}];
