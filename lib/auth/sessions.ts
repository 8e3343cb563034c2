/**
 * Sessions: a random token in an HttpOnly cookie, a record in KV under the token's
 * SHA-256 (a leaked KV dump holds no usable token), an absolute expiry checked on read,
 * and sliding renewal while the user is active.
 *
 * A token is `<32 random bytes, base64url>.<user id>`: the id part (public anyway — it
 * is in every profile URL) lets {@link userForSession} read the session and the user's
 * profile in ONE `getMany` instead of two reads one after the other, on every signed-in
 * request. It grants nothing: the session record, under the hash of the whole token,
 * names the user, and a token whose id part differs from it is refused. Tokens issued
 * before the id part (no `.`) still work, with the second read. A caller may add keys of
 * its own about the person to that same read (`userForSession`'s `extra`: a like's vote
 * and budget log), answered only once the session is known to be that person's.
 *
 * @module
 */
import type { ProviderId } from "../config.ts";
import { keys } from "../kv/keys.ts";
import { commit } from "../kv/atomic.ts";
import { randomToken, sha256Hex } from "../ids.ts";
import type { SessionUser } from "../state.ts";
import { effectiveProfile, type Profile, type ProfileRecord } from "../profile/profiles.ts";
import type { User } from "./users.ts";
import { activeSanction, type Sanction } from "../moderation/sanctions.ts";

/** How long a session lives without use. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A session is renewed at most this often (saves a write per request). */
export const SESSION_RENEW_AFTER_MS = 24 * 60 * 60 * 1000;

/** A session as stored. */
export interface Session {
  userId: string;
  provider: ProviderId;
  createdAt: number;
  renewedAt: number;
  expiresAt: number;
}

/** Cookie name: `__Host-` prefixed (and Secure) on https origins. */
export function sessionCookieName(appOrigin: string): string {
  return appOrigin.startsWith("https:") ? "__Host-parley_session" : "parley_session";
}

async function sessionKey(token: string): Promise<Deno.KvKey> {
  return keys.session(await sha256Hex(token));
}

/** A new session, ready to be written by {@link writeSession} in the caller's op. */
export interface PreparedSession {
  token: string;
  key: Deno.KvKey;
  /** `["sessions_by_user", userId, hash]`: what ends all of a person's sessions at once. */
  indexKey: Deno.KvKey;
  session: Session;
}

/**
 * A new session's token, KV key and record, for callers that write it inside their own
 * atomic op (sign-in writes the session together with the user and identity) with
 * {@link writeSession}.
 *
 * @example
 * ```ts
 * import type { User } from "@/lib/auth/users.ts";
 * import { commit } from "@/lib/kv/atomic.ts";
 * declare const kv: Deno.Kv;
 * declare const user: User;
 * const s = await prepareSession(user.id, "provider_a");
 * await commit(kv, (op) => writeSession(op, s));
 * ```
 */
export async function prepareSession(
  userId: string,
  provider: ProviderId,
  now = Date.now(),
): Promise<PreparedSession> {
  const token = `${randomToken(32)}.${userId}`;
  const session: Session = {
    userId,
    provider,
    createdAt: now,
    renewedAt: now,
    expiresAt: now + SESSION_TTL_MS,
  };
  const hash = await sha256Hex(token);
  return {
    token,
    key: keys.session(hash),
    indexKey: keys.sessionByUser(userId, hash),
    session,
  };
}

/**
 * Add a prepared session and its per-person index row to `op`, both expiring with it.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const s = await prepareSession("u_1", "provider_a");
 * writeSession(kv.atomic(), s);
 * ```
 */
export function writeSession(
  op: Deno.AtomicOperation,
  s: Pick<PreparedSession, "key" | "indexKey" | "session">,
): Deno.AtomicOperation {
  return op.set(s.key, s.session, { expireIn: SESSION_TTL_MS })
    .set(s.indexKey, { expiresAt: s.session.expiresAt }, { expireIn: SESSION_TTL_MS });
}

/**
 * Start a session for a user; returns the token for the cookie.
 *
 * @example
 * ```ts
 * import type { User } from "@/lib/auth/users.ts";
 * declare const kv: Deno.Kv;
 * declare const user: User;
 * const { token } = await createSession(kv, user.id, "provider_a");
 * ```
 */
export async function createSession(
  kv: Deno.Kv,
  userId: string,
  provider: ProviderId,
  now = Date.now(),
): Promise<{ token: string; session: Session }> {
  const prepared = await prepareSession(userId, provider, now);
  await commit(kv, (op) => writeSession(op, prepared));
  return { token: prepared.token, session: prepared.session };
}

/**
 * The live session for a token, renewed when due (`renewed` tells the caller to
 * refresh the cookie); null when unknown or expired.
 */
export async function readSession(
  kv: Deno.Kv,
  token: string,
  now = Date.now(),
): Promise<{ session: Session; renewed: boolean } | null> {
  if (!token || token.length > 100) return null;
  const key = await sessionKey(token);
  return await liveSession(kv, key, await kv.get<Session>(key), now);
}

/** The session of a read entry if it is live, renewing it when due. */
async function liveSession(
  kv: Deno.Kv,
  key: Deno.KvKey,
  entry: Deno.KvEntryMaybe<Session>,
  now: number,
): Promise<{ session: Session; renewed: boolean } | null> {
  const session = entry.value;
  // expireIn deletes lazily, so the stored expiry is the authority.
  if (!session || session.expiresAt <= now) return null;
  if (now - session.renewedAt < SESSION_RENEW_AFTER_MS) return { session, renewed: false };
  const next: Session = { ...session, renewedAt: now, expiresAt: now + SESSION_TTL_MS };
  const hash = key[key.length - 1] as string;
  // A failed check means another request renewed it first: either way it is renewed.
  await commit(kv, (op) =>
    writeSession(op.check(entry), {
      key,
      indexKey: keys.sessionByUser(session.userId, hash),
      session: next,
    }));
  return { session: next, renewed: true };
}

/** End a session (logout). */
export async function deleteSession(kv: Deno.Kv, token: string): Promise<void> {
  if (!token || token.length > 100) return;
  const key = await sessionKey(token);
  const session = (await kv.get<Session>(key)).value;
  await commit(kv, (op) => {
    op.delete(key);
    if (session) op.delete(keys.sessionByUser(session.userId, key[key.length - 1] as string));
  });
}

/** Sessions ended per commit by {@link endSessionsOf}. */
const END_BATCH = 400;

/**
 * End every session of a person (account deletion, suspension): their index rows and the
 * sessions they name, a few hundred per commit. Sessions written before the index have
 * no row; a deleted or suspended person's session is refused on read all the same
 * ({@link userForSession}). Returns how many were ended.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const ended = await endSessionsOf(kv, "u_1");
 * ```
 */
export async function endSessionsOf(kv: Deno.Kv, userId: string): Promise<number> {
  let ended = 0;
  for (;;) {
    const rows = await Array.fromAsync(
      kv.list({ prefix: keys.sessionsByUserPrefix(userId) }, { limit: END_BATCH }),
    );
    if (rows.length === 0) return ended;
    await commit(kv, (op) => {
      for (const r of rows) op.delete(r.key).delete(keys.session(r.key[2] as string));
    });
    ended += rows.length;
    if (rows.length < END_BATCH) return ended;
  }
}

/** Most keys of the caller's own that {@link userForSession} reads with the session. */
export const MAX_EXTRA_SESSION_KEYS = 6;

/** What {@link userForSession} found: the user, whether it renewed, the caller's keys. */
export interface SessionFound {
  user: SessionUser;
  /** The cookie should be sent again with a fresh lifetime. */
  renewed: boolean;
  /** The entries of the `extra` keys, in their order (none without `extra`). */
  extra: Deno.KvEntryMaybe<unknown>[];
}

const NO_EXTRA = (): Deno.KvKey[] => [];

/**
 * The signed-in user for a session token, or null. `renewed` asks the caller to send
 * the cookie again with a fresh lifetime.
 *
 * `extra(userId)` names keys of the caller's own about the person (at most
 * {@link MAX_EXTRA_SESSION_KEYS}: a vote's own key and budget log), read in the SAME
 * `getMany` as the session for a token that carries its user id, so a write that needs
 * them costs one round trip before its commit instead of two. They are read for the id
 * the token claims and answered only when the session names that same user (a token
 * with another id is refused, so nothing is answered for an id it does not own); for an
 * older token they come with the user's record, after the session read.
 *
 * @example
 * ```ts
 * import { keys } from "@/lib/kv/keys.ts";
 * declare const kv: Deno.Kv;
 * declare const token: string;
 * const found = await userForSession(kv, token, Date.now(), (id) => [keys.sanction(id)]);
 * if (found) found.extra[0].value; // the person's sanction record, if any
 * ```
 */
export async function userForSession(
  kv: Deno.Kv,
  token: string | undefined,
  now = Date.now(),
  extra: (userId: string) => Deno.KvKey[] = NO_EXTRA,
): Promise<SessionFound | null> {
  if (!token || token.length > 100) return null;
  const key = await sessionKey(token);
  const dot = token.indexOf(".");
  const claimed = dot === -1 ? null : token.slice(dot + 1);
  let found: { session: Session; renewed: boolean } | null;
  let entries: Deno.KvEntryMaybe<unknown>[];
  if (claimed) {
    // One round trip: the session, the profile and standing of the user it names, and
    // the caller's keys about them.
    entries = await kv.getMany([
      key,
      ...personKeys(claimed),
      ...extraKeys(extra, claimed),
    ]);
    found = await liveSession(kv, key, entries[0] as Deno.KvEntryMaybe<Session>, now);
    if (!found || found.session.userId !== claimed) return null;
    entries = entries.slice(1);
  } else {
    found = await readSession(kv, token, now);
    if (!found) return null;
    const id = found.session.userId;
    entries = await kv.getMany([...personKeys(id), ...extraKeys(extra, id)]);
  }
  // The name and picture people see are the profile's (customized or from the provider).
  const user = entries[0] as Deno.KvEntryMaybe<User>;
  const custom = entries[1] as Deno.KvEntryMaybe<ProfileRecord>;
  const profile: Profile | null = user.value ? effectiveProfile(user.value, custom.value) : null;
  const sanction = activeSanction((entries[2] as Deno.KvEntryMaybe<Sanction>).value, now);
  // A deleted account has no profile; a suspended one is signed out everywhere.
  if (!profile || sanction?.action === "suspend") return null;
  return {
    user: {
      id: profile.userId,
      name: profile.displayName,
      image: profile.avatarUrl,
      provider: found.session.provider,
      sessionToken: token,
      ...(sanction ? { sanction } : {}),
    },
    renewed: found.renewed,
    extra: entries.slice(3),
  };
}

/** The person's keys every session read takes: the user, their profile, their sanction. */
function personKeys(id: string): Deno.KvKey[] {
  return [keys.user(id), keys.profile(id), keys.sanction(id)];
}

function extraKeys(extra: (userId: string) => Deno.KvKey[], id: string): Deno.KvKey[] {
  const more = extra(id);
  if (more.length > MAX_EXTRA_SESSION_KEYS) {
    throw new RangeError(`at most ${MAX_EXTRA_SESSION_KEYS} extra keys with a session`);
  }
  return more;
}
