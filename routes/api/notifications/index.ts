import { type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { listNotifications } from "@/lib/notifications/notifications.ts";
import { NotificationsQuery, NotificationsResult } from "@/lib/schemas/notifications.ts";
import { parseInput, queryObject } from "@/lib/schemas/parse.ts";
import { define } from "@/lib/state.ts";

/** GET /api/notifications?cursor= — your notifications, newest first, 20 a page. */
export const handler = define.handlers({
  async GET(ctx) {
    const user = requireUser(ctx.state.user);
    const { cursor } = parseInput(NotificationsQuery, queryObject(ctx.url), { in: "query" });
    const { links: _links, ...page } = await listNotifications(
      ctx.state.services.kv,
      user.id,
      cursor ?? null,
      ctx.state.services.now(),
    );
    return Response.json(page);
  },
});

export const NOTIFICATIONS_DESCRIPTION =
  "Newest first, 20 a page; pass `nextCursor` as `cursor` for the next page (null at the end). Types: `answer` (a question you follow got an answer; you follow what you ask and answer), `reply` (to your message), `accepted` (your answer), `upvotes` (your post's up-votes, one entry per post per day with a running `count`). Never about your own actions. `unread` is the unread count.";

export const exampleNotifications = {
  notifications: [{
    id: "n-lq2x3k1a0000abc",
    type: "answer",
    actor: { id: "u_9f2c", name: "Ada", avatarUrl: null },
    questionId: "q-abc",
    messageId: "msg-lq2x3k1a00007f3k",
    title: "How do I paginate Deno KV?",
    excerpt: "Use a cursor from kv.list…",
    count: 1,
    createdAt: 1735689600000,
    read: false,
  }],
  unread: 1,
  nextCursor: null,
};

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/notifications",
  tag: "Notifications",
  summary: "Your notifications",
  description: NOTIFICATIONS_DESCRIPTION,
  auth: "session",
  query: NotificationsQuery,
  responses: {
    "200": { description: "One page", schema: NotificationsResult, example: exampleNotifications },
    "401": unauthorizedSession,
  },
}];
