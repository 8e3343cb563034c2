import { listActivity } from "@/lib/profile/activity.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { validate } from "@/lib/http/body.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { ActivityQuery } from "@/lib/schemas/activity.ts";
import type { AppState } from "@/lib/state.ts";

/** GET /api/profile/activity?type=…: the signed-in user's own activity, newest first. */
export const handler: Handlers<unknown, AppState> = {
  async GET(req, ctx) {
    const me = requireUser(ctx.state.user);
    const q = validate(
      ActivityQuery,
      Object.fromEntries(new URL(req.url).searchParams),
      "Invalid activity query",
    );
    const { kv, now } = ctx.state.services;
    return Response.json(await listActivity(kv, me.id, q.type, { ...q, now: now() }));
  },
};
