/**
 * Profiles: what a user shows to others. A profile starts from the provider data on the
 * user record and becomes `customized` once the user edits it; the edit lives under
 * `["profiles", userId]`, so a later sign-in never overwrites it.
 *
 * @module
 */
import type { ProviderId } from "../config.ts";
import { commit } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { Author } from "../community/questions/model.ts";
import type { User } from "../auth/users.ts";
import type { ProfileUpdate } from "../schemas/profile.ts";

export { isOffensiveName } from "./rules.ts";

/** Stored customizations (records written before the string rule may hold null). */
export interface ProfileRecord {
  displayName: string;
  avatarUrl: string | null;
  bio: string;
  coverUrl: string | null;
  provider: ProviderId;
  customized: true;
  createdAt: number;
  updatedAt: number;
}

/**
 * The effective profile (docs/interface.md#profiles). docs/interface.md#profiles types `avatarUrl` and `coverUrl`
 * as strings: an unset one is `""`, never null, in every answer that carries it (own and
 * public profile, the `avatar` of author snapshots).
 */
export interface Profile {
  userId: string;
  displayName: string;
  avatarUrl: string;
  bio: string;
  provider: ProviderId;
  coverUrl: string;
  customized: boolean;
  createdAt: number;
  updatedAt: number;
}

/** Merge a user's provider data with their customizations. */
export function effectiveProfile(user: User, custom: ProfileRecord | null): Profile {
  if (custom) {
    return {
      userId: user.id,
      displayName: custom.displayName,
      avatarUrl: custom.avatarUrl ?? "",
      bio: custom.bio,
      provider: custom.provider,
      coverUrl: custom.coverUrl ?? "",
      customized: true,
      createdAt: custom.createdAt,
      updatedAt: custom.updatedAt,
    };
  }
  return {
    userId: user.id,
    displayName: user.name,
    avatarUrl: user.image ?? "",
    bio: user.bio,
    provider: user.provider,
    coverUrl: "",
    customized: false,
    createdAt: user.createdAt,
    updatedAt: user.createdAt,
  };
}

/**
 * The effective profile of a user, or null for an unknown id.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const userId: string;
 * const profile = await getProfile(kv, userId);
 * ```
 */
export async function getProfile(kv: Deno.Kv, userId: string): Promise<Profile | null> {
  const [u, p] = await kv.getMany<[User, ProfileRecord]>([keys.user(userId), keys.profile(userId)]);
  return u.value ? effectiveProfile(u.value, p.value) : null;
}

/**
 * The author snapshot written onto new questions and messages: the profile's display
 * name and avatar at the time of writing.
 */
export async function authorOf(kv: Deno.Kv, userId: string): Promise<Author | null> {
  const p = await getProfile(kv, userId);
  return p ? { id: p.userId, name: p.displayName, avatar: p.avatarUrl } : null;
}

/**
 * The fields of `edit` that would show new text or a new picture on `current`: a value
 * that differs and is not empty. A silenced person may clear their bio or pictures (taking
 * spam down) but not write new ones (docs/interface.md#sanctions).
 *
 * @example
 * ```ts
 * declare const current: Profile;
 * publicAdditions(current, { bio: "" }); // [] — clearing adds nothing
 * ```
 */
export function publicAdditions(current: Profile, edit: ProfileUpdate): (keyof ProfileUpdate)[] {
  const fields = ["displayName", "bio", "avatarUrl", "coverUrl"] as const;
  return fields.filter((f) => {
    const value = edit[f];
    return typeof value === "string" && value !== "" && value !== current[f];
  });
}

/**
 * Apply an edit: the effective profile with the edit on top becomes the stored
 * customization, `customized` turns true, and `provider` becomes the session's provider
 * (docs/interface.md#profiles: `provider_a` when the session has none).
 *
 * @example
 * ```ts
 * import type { ProviderId } from "@/lib/config.ts";
 * import type { User } from "@/lib/auth/users.ts";
 * declare const kv: Deno.Kv;
 * declare const session: { provider: ProviderId | undefined };
 * declare const user: User;
 * await updateProfile(kv, user, { bio: "Hi" }, session.provider);
 * ```
 */
export async function updateProfile(
  kv: Deno.Kv,
  user: User,
  edit: ProfileUpdate,
  sessionProvider: ProviderId | undefined,
  now = Date.now(),
): Promise<Profile> {
  const current = (await kv.get<ProfileRecord>(keys.profile(user.id))).value;
  const base = effectiveProfile(user, current);
  const next: ProfileRecord = {
    displayName: edit.displayName ?? base.displayName,
    avatarUrl: edit.avatarUrl !== undefined ? edit.avatarUrl ?? "" : base.avatarUrl,
    bio: edit.bio ?? base.bio,
    coverUrl: edit.coverUrl !== undefined ? edit.coverUrl ?? "" : base.coverUrl,
    provider: sessionProvider ?? "provider_a",
    customized: true,
    createdAt: current?.createdAt ?? user.createdAt,
    updatedAt: now,
  };
  await commit(kv, (op) => op.set(keys.profile(user.id), next));
  return effectiveProfile(user, next);
}

/** The JSON shape of `GET /api/profile/me` (docs/interface.md#profiles). */
export function profileJson(p: Profile) {
  return {
    userId: p.userId,
    displayName: p.displayName,
    avatarUrl: p.avatarUrl,
    bio: p.bio,
    provider: p.provider,
    coverUrl: p.coverUrl,
    customized: p.customized,
    createdAt: new Date(p.createdAt).toISOString(),
    updatedAt: new Date(p.updatedAt).toISOString(),
  };
}
