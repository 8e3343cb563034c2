/**
 * Profiles: what a user shows to others. A profile starts from the provider data on the
 * user record and becomes `customized` once the user edits it; the edit lives under
 * `["profiles", userId]`, so a later sign-in never overwrites it.
 *
 * @module
 */
import type { ProviderId } from "./config.ts";
import { keys } from "./kv/keys.ts";
import type { Author } from "./questions.ts";
import type { User } from "./users.ts";

/** Stored customizations. */
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

/** The effective profile (SPEC.md "User profile"). */
export interface Profile {
  userId: string;
  displayName: string;
  avatarUrl: string | null;
  bio: string;
  provider: ProviderId;
  coverUrl: string | null;
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
      avatarUrl: custom.avatarUrl,
      bio: custom.bio,
      provider: custom.provider,
      coverUrl: custom.coverUrl,
      customized: true,
      createdAt: custom.createdAt,
      updatedAt: custom.updatedAt,
    };
  }
  return {
    userId: user.id,
    displayName: user.name,
    avatarUrl: user.image,
    bio: user.bio,
    provider: user.provider,
    coverUrl: null,
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
