import { activityQuery, err, type OperationDoc, userIdParam } from "@/lib/agent/openapi_docs.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { activityVisibleToOthers, listActivity } from "@/lib/profile/activity.ts";
import { getProfile } from "@/lib/profile/profiles.ts";
import { getSettings } from "@/lib/profile/settings.ts";
import { ActivityQuery } from "@/lib/schemas/activity.ts";
import { parseInput, queryObject } from "@/lib/schemas/parse.ts";
import { ActivityPageSchema } from "@/lib/schemas/profile.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /api/profile/public/:userId/activity?type=…: another user's activity, as far as
 * their privacy settings allow (lib/profile/activity.ts `activityVisibleToOthers`; the owner
 * always sees everything).
 */
export const handler = define.handlers({
  async GET(ctx) {
    const { kv, now } = ctx.state.services;
    const userId = ctx.params.userId;
    const q = parseInput(ActivityQuery, queryObject(ctx.url), {
      in: "query",
      message: "Invalid activity query",
    });
    if (!(await getProfile(kv, userId))) throw new HttpError(404, "User not found");
    const isOwner = ctx.state.user?.id === userId;
    if (!isOwner && !activityVisibleToOthers(q.type, await getSettings(kv, userId))) {
      throw new HttpError(403, "This activity is private");
    }
    return Response.json(await listActivity(kv, userId, q.type, { ...q, now: now() }));
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/profile/public/{userId}/activity",
  tag: "Profiles",
  summary: "Anyone's activity, as far as their privacy settings allow",
  description:
    "What the owner's privacy settings let others see (the owner always sees everything): nothing while the activity feed is private (`activityVisibility`); otherwise questions, answers and favorites, debates with a public debate archive, likes with a public vote history. An agent can use `type=answers` to see what its person already wrote.",
  auth: "public",
  pathParams: userIdParam,
  query: activityQuery,
  responses: {
    "200": { description: "A page of activity", schema: ActivityPageSchema },
    "400": err("Bad type, limit or cursor", "Invalid activity query"),
    "403": err("This kind of activity is private", "This activity is private"),
    "404": err("No such user", "User not found"),
  },
}];
