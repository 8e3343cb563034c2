import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { markRead } from "@/lib/notifications/notifications.ts";
import { MarkReadBody, UnreadResult } from "@/lib/schemas/notifications.ts";
import { define } from "@/lib/state.ts";

/** POST /api/notifications/read {ids?} — mark some (or, without ids, all) read. */
export const handler = define.handlers({
  async POST(ctx) {
    const user = requireUser(ctx.state.user);
    const { ids } = await parseBody(ctx.req, MarkReadBody);
    const { kv, now } = ctx.state.services;
    return Response.json(await markRead(kv, user.id, ids, now()));
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/notifications/read",
  tag: "Notifications",
  summary: "Mark notifications read",
  description: "`ids`: the notifications to mark (at most 100); without `ids`, all of them.",
  auth: "session",
  body: MarkReadBody,
  responses: {
    "200": { description: "The unread count now", schema: UnreadResult },
    "400": err("Bad body", "at most 100 ids"),
    "401": unauthorizedSession,
  },
}];
