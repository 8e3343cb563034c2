import { type OperationDoc, streamsFull, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { sseHeadersFor } from "@/lib/http/sse.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { takeStreamSlot } from "@/lib/http/stream_slots.ts";
import { STREAMS_PER_USER, unreadStream } from "@/lib/notifications/stream.ts";
import { unreadCount } from "@/lib/notifications/unread.ts";
import { UnreadResult } from "@/lib/schemas/notifications.ts";
import { define } from "@/lib/state.ts";

/** GET /api/notifications/stream — the unread count, live (SSE). */
export const handler = define.handlers({
  async GET(ctx) {
    const user = requireUser(ctx.state.user);
    const { kv, config, now } = ctx.state.services;
    // Expired unread notifications leave the counter first: the stream shows the counter.
    await unreadCount(kv, user.id, now());
    const slot = takeStreamSlot(config, ctx.info);
    return new Response(unreadStream(kv, user.id, { onClose: slot.release, now }), {
      headers: sseHeadersFor(ctx.req),
    });
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/notifications/stream",
  tag: "Notifications",
  summary: "Your unread count, live (Server-Sent Events)",
  description:
    `\`retry:\` first, then \`event: unread\` with \`{"unread": N}\` at once and on every change, whichever server instance made it (driven by \`kv.watch\`). At most ${STREAMS_PER_USER} streams per user on one server: opening another closes your oldest. Servers end streams when they shut down; reconnect.`,
  auth: "session",
  responses: {
    "200": {
      description: "An event stream",
      events: { unread: { description: "The unread count", data: UnreadResult } },
    },
    "401": unauthorizedSession,
    "503": streamsFull,
  },
}];
