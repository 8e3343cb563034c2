/**
 * Profiles: what a user shows to others. A profile starts from the provider data on the
 * user record and becomes `customized` once the user edits it; the edit lives under
 * `["profiles", userId]`, so a later sign-in never overwrites it.
 *
 * @module
 */
import { z } from "zod";
import type { ProviderId } from "./config.ts";
import { commit } from "./kv/atomic.ts";
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

/** Display names: letters of any script, digits, spaces, and `_ - .` only. */
const DISPLAY_NAME_CHARS = /^[\p{L}\p{M}\p{N} _.-]+$/u;

/**
 * True when a display name contains an offensive word: any of its words, or the whole
 * name with separators removed, equals a listed word. Whole-word matching avoids
 * refusing innocent names that merely contain a listed word (the "Scunthorpe problem").
 */
export function isOffensiveName(name: string, words: readonly string[]): boolean {
  const lower = name.toLowerCase();
  const tokens = lower.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const compact = tokens.join("");
  const list = new Set(words.map((w) => w.toLowerCase()));
  return tokens.some((t) => list.has(t)) || list.has(compact);
}

const httpUrl = z.string().trim().max(2048).refine((v) => {
  try {
    const u = new URL(v);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}, { message: "must be an http or https URL" });

/** An image URL, or an empty string / null to clear it. */
const optionalImageUrl = z.union([z.literal("").transform(() => null), z.null(), httpUrl]);

/**
 * The schema of `PATCH /api/profile/me`: every field optional, unknown fields refused.
 *
 * @example
 * ```ts
 * const input = validate(profileUpdateSchema(config.offensiveWords), body);
 * ```
 */
export function profileUpdateSchema(offensiveWords: readonly string[]) {
  return z.object({
    displayName: z.string().trim()
      .min(1, { message: "must not be empty" })
      .max(40, { message: "must be at most 40 characters" })
      .regex(DISPLAY_NAME_CHARS, {
        message: "may contain only letters, digits, spaces, and _ - .",
      })
      .refine((v) => !isOffensiveName(v, offensiveWords), {
        message: "is not allowed",
      }),
    avatarUrl: optionalImageUrl,
    bio: z.string().trim().max(200, { message: "must be at most 200 characters" }),
    coverUrl: optionalImageUrl,
  }).partial().strict();
}

/** A validated profile edit. */
export type ProfileUpdate = z.infer<ReturnType<typeof profileUpdateSchema>>;

/**
 * Apply an edit: the effective profile with the edit on top becomes the stored
 * customization, `customized` turns true, and `provider` becomes the session's provider
 * (SPEC.md: `provider_a` when the session has none).
 *
 * @example
 * ```ts
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
    avatarUrl: edit.avatarUrl !== undefined ? edit.avatarUrl : base.avatarUrl,
    bio: edit.bio ?? base.bio,
    coverUrl: edit.coverUrl !== undefined ? edit.coverUrl : base.coverUrl,
    provider: sessionProvider ?? "provider_a",
    customized: true,
    createdAt: current?.createdAt ?? user.createdAt,
    updatedAt: now,
  };
  await commit(kv, (op) => op.set(keys.profile(user.id), next));
  return effectiveProfile(user, next);
}

/** The JSON shape of `GET /api/profile/me` (SPEC.md "User profile"). */
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
