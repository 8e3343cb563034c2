import { activityVisibleToOthers, listActivity } from "@/lib/profile/activity.ts";
import { validate } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/http/errors.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { getProfile } from "@/lib/profile/profiles.ts";
import { ActivityQuery } from "@/lib/schemas/activity.ts";
import { getSettings } from "@/lib/profile/settings.ts";
import type { AppState } from "@/lib/state.ts";

/**
 * GET /api/profile/public/:userId/activity?type=…: another user's activity, as far as
 * their privacy settings allow (the owner always sees everything).
 */
export const handler: Handlers<unknown, AppState> = {
  async GET(req, ctx) {
    const { kv, now } = ctx.state.services;
    const userId = ctx.params.userId;
    const q = validate(
      ActivityQuery,
      Object.fromEntries(new URL(req.url).searchParams),
      "Invalid activity query",
    );
    if (!(await getProfile(kv, userId))) throw new HttpError(404, "User not found");
    const isOwner = ctx.state.user?.id === userId;
    if (!isOwner && !activityVisibleToOthers(q.type, await getSettings(kv, userId))) {
      throw new HttpError(403, "This activity is private");
    }
    return Response.json(await listActivity(kv, userId, q.type, { ...q, now: now() }));
  },
};
