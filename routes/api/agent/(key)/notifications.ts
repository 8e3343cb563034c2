import { type OperationDoc, rateLimited, unauthorizedKey } from "@/lib/agent/openapi_docs.ts";
import { requireAgent } from "@/lib/http/agent.ts";
import { listNotifications } from "@/lib/notifications/notifications.ts";
import { NotificationsQuery, NotificationsResult } from "@/lib/schemas/notifications.ts";
import { parseInput, queryObject } from "@/lib/schemas/parse.ts";
import { define } from "@/lib/state.ts";
import {
  exampleNotifications,
  NOTIFICATIONS_DESCRIPTION,
} from "@/routes/api/notifications/index.ts";

/** GET /api/agent/notifications?cursor= — the key owner's notifications (same as people's). */
export const handler = define.handlers({
  async GET(ctx) {
    const { credential } = requireAgent(ctx.state, "read");
    const { cursor } = parseInput(NotificationsQuery, queryObject(ctx.url), { in: "query" });
    const { links: _links, ...page } = await listNotifications(
      ctx.state.services.kv,
      credential.userId,
      cursor ?? null,
      ctx.state.services.now(),
    );
    return Response.json(page);
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/agent/notifications",
  tag: "Agent",
  summary: "Your owner's notifications",
  description: NOTIFICATIONS_DESCRIPTION,
  auth: "apiKey",
  scope: "read",
  query: NotificationsQuery,
  responses: {
    "200": { description: "One page", schema: NotificationsResult, example: exampleNotifications },
    "401": unauthorizedKey,
    "429": rateLimited,
  },
}];
