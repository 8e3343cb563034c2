/**
 * Turning an auth payload into a session (the app callback pages). One atomic op
 * consumes the payload's nonce and writes the session — plus, on a first sign-in, the
 * user and the identity, guarded by a check that the identity is still absent (two tabs
 * finishing at once cannot create two users). Later sign-ins reuse the user, refresh the
 * identity's tokens and leave the profile alone.
 *
 * @module
 */
import { updateAtomically } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { type IdentityRecord, sealIdentity, setIdentity } from "./identities.ts";
import { prepareSession, writeSession } from "./sessions.ts";
import { buildUser, type User } from "./users.ts";
import { activeSanction, type Sanction } from "../moderation/sanctions.ts";
import {
  applyCarriedSanctionOps,
  type CarriedSanction,
  carriedSanctionKey,
} from "../moderation/sanction_carry.ts";
import type { ProviderId } from "../config.ts";
import { providerClient } from "./clients.ts";
import { nameFromProvider } from "../profile/names.ts";
import { decodePayload, payloadIsFresh, type PayloadNonce, payloadNoncePrefix } from "./payload.ts";

/** Result of {@link completeSignIn}. */
export type SignInResult =
  | { ok: true; token: string; userId: string; created: boolean; returnTo: string }
  | { ok: false; reason: "malformed" | "wrong_provider" | "expired" | "unknown_or_used" }
  | { ok: false; reason: "suspended"; userId: string };

/**
 * Accept a payload cookie once and start a session for its account.
 *
 * @example
 * ```ts
 * import { setCookie } from "@/lib/http/cookies.ts";
 * import { SESSION_TTL_MS, sessionCookieName } from "@/lib/auth/sessions.ts";
 * declare const kv: Deno.Kv;
 * declare const secret: string;
 * declare const cookies: Record<string, string>;
 * declare const headers: Headers;
 * declare const appOrigin: string;
 * declare const now: number;
 * const r = await completeSignIn(kv, secret, "provider_a", cookies.provider_a_auth_payload, now, []);
 * if (r.ok) {
 *   setCookie(headers, sessionCookieName(appOrigin), r.token, { maxAge: SESSION_TTL_MS / 1000 });
 * }
 * ```
 */
export async function completeSignIn(
  kv: Deno.Kv,
  secret: string,
  provider: ProviderId,
  cookieValue: string | undefined,
  now: number,
  /** `OFFENSIVE_WORDS` as configured: a new account's name passes the same rules as an edit. */
  offensiveWords: readonly string[],
): Promise<SignInResult> {
  const payload = decodePayload(cookieValue);
  if (!payload || !cookieValue) return { ok: false, reason: "malformed" };
  if (payload.provider !== provider) return { ok: false, reason: "wrong_provider" };
  if (!payloadIsFresh(payload, now)) return { ok: false, reason: "expired" };
  const profile = providerClient(provider).normalize(payload.profile);
  if (profile.providerAccountId !== payload.providerAccountId) {
    return { ok: false, reason: "malformed" };
  }
  const tokens = {
    accessToken: payload.accessToken,
    refreshToken: payload.refreshToken,
    expiresAt: payload.expiresAt,
  };
  const noncePrefix = await payloadNoncePrefix(cookieValue);
  const idKey = keys.identity(provider, payload.providerAccountId);

  return await updateAtomically<SignInResult>(async () => {
    let nonce: Deno.KvEntry<PayloadNonce> | null = null;
    for await (const e of kv.list<PayloadNonce>({ prefix: noncePrefix }, { limit: 10 })) {
      const v = e.value;
      if (v.provider === provider && v.issuedAt === payload.issuedAt && v.expiresAt > now) {
        nonce = e;
        break;
      }
    }
    if (!nonce) {
      // Never issued, already used, or past its expiresAt (expireIn deletes lazily).
      return { op: null, result: { ok: false, reason: "unknown_or_used" } };
    }
    const n = nonce.value;
    const ident = await kv.get<IdentityRecord>(idKey);
    const op = kv.atomic().check(nonce).check(ident).delete(nonce.key);
    let userId: string;
    let created = false;
    if (ident.value) {
      userId = ident.value.canonicalUserId;
      const [user, sanction] = await kv.getMany<[User, Sanction]>([
        keys.user(userId),
        keys.sanction(userId),
      ]);
      if (!user.value) return { op: null, result: { ok: false, reason: "unknown_or_used" } };
      // A suspended person may not sign in (docs/interface.md#sanctions).
      if (activeSanction(sanction.value, now)?.action === "suspend") {
        return { op: null, result: { ok: false, reason: "suspended", userId } };
      }
      op.check(user);
      const rec = await sealIdentity(secret, {
        provider,
        canonicalUserId: userId,
        profile,
        tokens,
        now,
        createdAt: ident.value.createdAt,
      });
      setIdentity(op, rec);
    } else {
      const user = buildUser({
        provider,
        // The provider's name as given may hold markup, invisible characters or a name
        // that passes for staff: the display-name rules decide, with a derived fallback.
        name: nameFromProvider(
          profile.name,
          `${provider}:${profile.providerAccountId}`,
          offensiveWords,
        ),
        image: profile.avatar,
        bio: profile.bio,
        email: profile.email,
      }, now);
      userId = user.id;
      created = true;
      // A sanction of a deleted account this identity had passes to the new one.
      const carried = await kv.get<CarriedSanction>(
        await carriedSanctionKey(provider, payload.providerAccountId),
      );
      const sanction = applyCarriedSanctionOps(op, carried, user.id, now);
      if (sanction?.action === "suspend") {
        // The account is made (with its sanction) but not signed in.
        op.check({ key: keys.user(user.id), versionstamp: null }).set(keys.user(user.id), user);
        setIdentity(
          op,
          await sealIdentity(secret, { provider, canonicalUserId: userId, profile, tokens, now }),
        );
        return { op, result: { ok: false, reason: "suspended", userId } };
      }
      const userKey = keys.user(user.id);
      // A deleted account's id stays retired (its tombstone): never a new user's.
      op.check({ key: userKey, versionstamp: null })
        .check({ key: keys.deletedUser(user.id), versionstamp: null })
        .set(userKey, user);
      setIdentity(
        op,
        await sealIdentity(secret, { provider, canonicalUserId: userId, profile, tokens, now }),
      );
    }
    const session = await prepareSession(userId, provider, now);
    writeSession(op, session);
    return {
      op,
      result: { ok: true, token: session.token, userId, created, returnTo: n.returnTo },
    };
  });
}
