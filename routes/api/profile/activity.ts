import {
  activityQuery,
  err,
  type OperationDoc,
  unauthorizedSession,
} from "@/lib/agent/openapi_docs.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { listActivity } from "@/lib/profile/activity.ts";
import { ActivityQuery } from "@/lib/schemas/activity.ts";
import { parseInput, queryObject } from "@/lib/schemas/parse.ts";
import { ActivityPageSchema } from "@/lib/schemas/profile.ts";
import { define } from "@/lib/state.ts";

/** GET /api/profile/activity?type=…: the signed-in user's own activity, newest first. */
export const handler = define.handlers({
  async GET(ctx) {
    const me = requireUser(ctx.state.user);
    const q = parseInput(ActivityQuery, queryObject(ctx.url), {
      in: "query",
      message: "Invalid activity query",
    });
    const { kv, now } = ctx.state.services;
    return Response.json(await listActivity(kv, me.id, q.type, { ...q, now: now() }));
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/profile/activity",
  tag: "Profiles",
  summary: "Your activity of one kind, newest first",
  auth: "session",
  query: activityQuery,
  responses: {
    "200": { description: "A page of activity", schema: ActivityPageSchema },
    "400": err("Bad type, limit or cursor", "Invalid activity query"),
    "401": unauthorizedSession,
  },
}];
