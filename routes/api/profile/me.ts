import { err, type OperationDoc, tooLarge, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { deleteAccount } from "@/lib/account/delete.ts";
import { sessionCookieName } from "@/lib/auth/sessions.ts";
import { getUser } from "@/lib/auth/users.ts";
import { deleteCookie } from "@/lib/http/cookies.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { parseBody, readJson } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { getProfile, profileJson, publicAdditions, updateProfile } from "@/lib/profile/profiles.ts";
import { restrictedError } from "@/lib/http/outcome.ts";
import { parseInput } from "@/lib/schemas/parse.ts";
import { Ok, ProfileSchema, profileUpdateSchema } from "@/lib/schemas/profile.ts";
import { CONFIRM_MISMATCH, DeleteAccountBody, DeleteAccountResult } from "@/lib/schemas/account.ts";
import { define } from "@/lib/state.ts";

/**
 * GET/PATCH /api/profile/me: the signed-in user's own profile; DELETE: delete the account
 * (lib/account/delete.ts), then this browser is signed out.
 */
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
    if (me.sanction) {
      // A profile is public text: silenced, a person may take theirs down, not write more.
      const current = await getProfile(kv, me.id);
      if (current && publicAdditions(current, edit).length > 0) {
        throw restrictedError(me.sanction);
      }
    }
    await updateProfile(kv, user, edit, me.provider, now());
    return Response.json({ ok: true });
  },
  async DELETE(ctx) {
    const me = requireUser(ctx.state.user);
    const { kv, config, now } = ctx.state.services;
    const body = await parseBody(ctx.req, DeleteAccountBody, { limit: 4 * 1024 });
    const r = await deleteAccount(kv, { userId: me.id, ...body }, { now: now() });
    if (!r.ok) {
      if (r.reason === "confirm_mismatch") throw new HttpError(400, CONFIRM_MISMATCH);
      throw new HttpError(401, "Unauthorized");
    }
    const headers = new Headers({ "cache-control": "no-store" });
    deleteCookie(headers, sessionCookieName(config.appOrigin), {
      secure: config.appOrigin.startsWith("https:"),
    });
    return Response.json({ ok: true, content: r.content }, { headers });
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
      "Every field optional; unknown fields are refused. `displayName` 1–40 characters without special characters or offensive words; `bio` at most 200 characters; `avatarUrl` and `coverUrl` http(s) URLs (empty or null clears them). Sets `customized`. A silenced person may clear a field but not set a new value.",
    auth: "session",
    body: profileUpdateSchema([]),
    responses: {
      "200": { description: "Saved", schema: Ok, example: { ok: true } },
      "400": err("Invalid profile (with `issues`)", "Invalid profile"),
      "401": unauthorizedSession,
      "403": err(
        "Silenced: a new name, bio or picture is refused (clearing one is not)",
        "You are silenced until …",
      ),
      "413": tooLarge(8 * 1024),
    },
  },
  {
    method: "delete",
    path: "/api/profile/me",
    tag: "Profiles",
    summary: "Delete your account",
    description:
      '`confirm` must be your display name. At once: your sessions (this browser is signed out), sign-in methods with their provider tokens, agent keys, profile and settings go, and your id is retired for good. Then, in the background: with `content: "keep"` your questions and answers stay, shown as by "deleted user"; with `"delete"` they are deleted as if you deleted each one (an answer with replies stays as "[deleted]"). Either way your votes still count but no longer name you, and your favorites, follows, flags, debates and notifications go. Download your data first (`GET /api/profile/export`): this cannot be undone.',
    auth: "session",
    body: DeleteAccountBody,
    responses: {
      "200": {
        description: "Deleted (the rest finishes in the background)",
        schema: DeleteAccountResult,
        example: { ok: true, content: "keep" },
      },
      "400": err("The confirmation is not your display name, or a bad body", CONFIRM_MISMATCH),
      "401": unauthorizedSession,
      "413": tooLarge(4 * 1024),
    },
  },
];
