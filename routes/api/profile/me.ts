import { readJson, validate } from "@/lib/http/body.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { HttpError } from "@/lib/http/errors.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { getProfile, profileJson, updateProfile } from "@/lib/profile/profiles.ts";
import { profileUpdateSchema } from "@/lib/schemas/profile.ts";
import type { AppState } from "@/lib/state.ts";
import { getUser } from "@/lib/auth/users.ts";

/** GET/PATCH /api/profile/me: the signed-in user's own profile. */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const me = requireUser(ctx.state.user);
    const profile = await getProfile(ctx.state.services.kv, me.id);
    if (!profile) throw new HttpError(401, "Unauthorized");
    return Response.json(profileJson(profile));
  },
  async PATCH(req, ctx) {
    const me = requireUser(ctx.state.user);
    const { kv, config, now } = ctx.state.services;
    const edit = validate(
      profileUpdateSchema(config.offensiveWords),
      await readJson(req, { limit: 8 * 1024 }),
      "Invalid profile",
    );
    const user = await getUser(kv, me.id);
    if (!user) throw new HttpError(401, "Unauthorized");
    await updateProfile(kv, user, edit, me.provider, now());
    return Response.json({ ok: true });
  },
};
