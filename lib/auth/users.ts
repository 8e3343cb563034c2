/**
 * Users: an opaque id and the data of the provider used at sign-up. Profiles, identities
 * and settings hang off the id under their own keys.
 *
 * @module
 */
import type { ProviderId } from "../config.ts";
import { keys } from "../kv/keys.ts";
import { commit } from "../kv/atomic.ts";
import { randomToken } from "../ids.ts";

/** A user as stored. */
export interface User {
  /** Opaque: `u_` + random; never derived from provider data. */
  id: string;
  /** The provider used at sign-up. */
  provider: ProviderId;
  /** Name and image from the provider (the defaults of the profile). */
  name: string;
  image: string | null;
  bio: string;
  email: string | null;
  createdAt: number;
}

/** Fields of a new user. */
export type NewUser = Omit<User, "id" | "createdAt">;

/** A fresh opaque user id. */
export function newUserId(): string {
  return `u_${randomToken(12)}`;
}

/**
 * The user record for a new user, to be written by the caller's atomic op together
 * with its identity (so a user never exists without a way to sign in).
 */
export function buildUser(input: NewUser, now = Date.now()): User {
  return { ...input, id: newUserId(), createdAt: now };
}

/**
 * Create a user on its own (tests and local tools; sign-in writes users with identities).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const user = await createUser(kv, { provider: "provider_a", name: "Ada", image: null, bio: "", email: null });
 * ```
 */
export async function createUser(kv: Deno.Kv, input: NewUser, now = Date.now()): Promise<User> {
  const user = buildUser(input, now);
  // A deleted account's id stays retired (its tombstone): never a new user's.
  const res = await commit(kv, (op) =>
    op.check({ key: keys.user(user.id), versionstamp: null })
      .check({ key: keys.deletedUser(user.id), versionstamp: null })
      .set(keys.user(user.id), user));
  if (!res.ok) throw new Error(`User id ${user.id} is taken or retired`);
  return user;
}

/** The user with this id, or null. */
export async function getUser(kv: Deno.Kv, id: string): Promise<User | null> {
  return (await kv.get<User>(keys.user(id))).value;
}
