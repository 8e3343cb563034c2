import { err, type OperationDoc, tooLarge, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { getUser } from "@/lib/auth/users.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { readJson } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { getProfile, profileJson, updateProfile } from "@/lib/profile/profiles.ts";
import { parseInput } from "@/lib/schemas/parse.ts";
import { Ok, ProfileSchema, profileUpdateSchema } from "@/lib/schemas/profile.ts";
import { define } from "@/lib/state.ts";

/** GET/PATCH /api/profile/me: the signed-in user's own profile. */
export const handler = define.handlers({
  async GET(ctx) {
    const me = requireUser(ctx.state.user);
    const profile = await getProfile(ctx.state.services.kv, me.id);
    if (!profile) throw new HttpError(401, "Unauthorized");
    return Response.json(profileJson(profile));
  },
  async PATCH(ctx) {
    const me = requireUser(ctx.state.user);
    const { kv, config, now } = ctx.state.services;
    // Not `asObject`: a body that is not an object is refused, not read as `{}`.
    const edit = parseInput(
      profileUpdateSchema(config.offensiveWords),
      await readJson(ctx.req, { limit: 8 * 1024 }),
      { message: "Invalid profile" },
    );
    const user = await getUser(kv, me.id);
    if (!user) throw new HttpError(401, "Unauthorized");
    await updateProfile(kv, user, edit, me.provider, now());
    return Response.json({ ok: true });
  },
});

export const docs: OperationDoc[] = [
  {
    method: "get",
    path: "/api/profile/me",
    tag: "Profiles",
    summary: "Your profile",
    auth: "session",
    responses: {
      "200": { description: "The profile", schema: ProfileSchema },
      "401": unauthorizedSession,
    },
  },
  {
    method: "patch",
    path: "/api/profile/me",
    tag: "Profiles",
    summary: "Edit your profile",
    description:
      "Every field optional; unknown fields are refused. `displayName` 1–40 characters without special characters or offensive words; `bio` at most 200 characters; `avatarUrl` and `coverUrl` http(s) URLs (empty or null clears them). Sets `customized`.",
    auth: "session",
    body: profileUpdateSchema([]),
    responses: {
      "200": { description: "Saved", schema: Ok, example: { ok: true } },
      "400": err("Invalid profile (with `issues`)", "Invalid profile"),
      "401": unauthorizedSession,
      "413": tooLarge(8 * 1024),
    },
  },
];
