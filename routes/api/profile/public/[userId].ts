import type { Handlers } from "@/lib/fresh/types.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { getPublicProfile } from "@/lib/profile/public_profile.ts";
import type { AppState } from "@/lib/state.ts";

/** GET /api/profile/public/:userId: anyone may read a public profile. */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const { kv, now } = ctx.state.services;
    const profile = await getPublicProfile(kv, ctx.params.userId, now());
    if (!profile) throw new HttpError(404, "User not found");
    return Response.json(profile);
  },
};
