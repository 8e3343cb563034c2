/**
 * AuthIdentity (docs/interface.md#bind): a provider account bound to a user. Unique by (provider,
 * providerAccountId); looked up by canonical user through `identities_by_user`, which
 * also keeps a user to one account per provider. Tokens are sealed with AES-GCM under
 * the app secret (lib/auth/crypto.ts) and bound to the identity, so a KV dump or a copied
 * value reveals nothing.
 *
 * @module
 */
import type { ProviderId } from "../config.ts";
import { decryptString, encryptString } from "./crypto.ts";
import { updateAtomically } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { NormalizedProfile, ProviderTokens } from "./types.ts";

/** An identity as stored. `accessToken` / `refreshToken` hold ciphertext. */
export interface IdentityRecord {
  provider: ProviderId;
  providerAccountId: string;
  canonicalUserId: string;
  email: string | null;
  name: string;
  avatar: string | null;
  /** Sealed with {@link encryptString}; read with {@link identityTokens}. */
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** What a user may see of their own identities: no tokens, no email. */
export interface IdentitySummary {
  provider: ProviderId;
  providerAccountId: string;
  name: string;
  avatar: string | null;
  createdAt: number;
  updatedAt: number;
}

function tokenContext(provider: string, accountId: string, which: "access" | "refresh"): string {
  return `identity:${provider}:${accountId}:${which}`;
}

/**
 * An identity record with its tokens sealed (kept `createdAt` when updating).
 *
 * @example
 * ```ts
 * import type { NormalizedProfile } from "@/lib/auth/types.ts";
 * import type { ProviderId } from "@/lib/config.ts";
 * import type { ProviderTokens } from "@/lib/auth/types.ts";
 * declare const canonicalUserId: string;
 * declare const now: number;
 * declare const profile: NormalizedProfile;
 * declare const provider: ProviderId;
 * declare const secret: string;
 * declare const tokens: ProviderTokens;
 * const rec = await sealIdentity(secret, { provider, canonicalUserId, profile, tokens, now });
 * ```
 */
export async function sealIdentity(
  secret: string,
  input: {
    provider: ProviderId;
    canonicalUserId: string;
    profile: NormalizedProfile;
    tokens: ProviderTokens;
    now: number;
    createdAt?: number;
  },
): Promise<IdentityRecord> {
  const { provider, profile, tokens, now } = input;
  const id = profile.providerAccountId;
  return {
    provider,
    providerAccountId: id,
    canonicalUserId: input.canonicalUserId,
    email: profile.email,
    name: profile.name,
    avatar: profile.avatar,
    accessToken: await encryptString(
      secret,
      tokens.accessToken,
      tokenContext(provider, id, "access"),
    ),
    refreshToken: tokens.refreshToken === null
      ? null
      : await encryptString(secret, tokens.refreshToken, tokenContext(provider, id, "refresh")),
    expiresAt: tokens.expiresAt,
    createdAt: input.createdAt ?? now,
    updatedAt: now,
  };
}

/**
 * The plaintext tokens of an identity (server-side use only: never sent to a browser).
 *
 * @example
 * ```ts
 * declare const identity: IdentityRecord;
 * declare const secret: string;
 * const { accessToken } = await identityTokens(secret, identity);
 * ```
 */
export async function identityTokens(
  secret: string,
  rec: IdentityRecord,
): Promise<{ accessToken: string | null; refreshToken: string | null }> {
  const ctx = (w: "access" | "refresh") => tokenContext(rec.provider, rec.providerAccountId, w);
  return {
    accessToken: await decryptString(secret, rec.accessToken, ctx("access")),
    refreshToken: rec.refreshToken === null
      ? null
      : await decryptString(secret, rec.refreshToken, ctx("refresh")),
  };
}

/** Add the writes of an identity (record + per-user index) to an atomic op. */
export function setIdentity(op: Deno.AtomicOperation, rec: IdentityRecord): Deno.AtomicOperation {
  return op
    .set(keys.identity(rec.provider, rec.providerAccountId), rec)
    .set(keys.identityByUser(rec.canonicalUserId, rec.provider), rec.providerAccountId);
}

/** The identity for a provider account, or null. */
export async function getIdentity(
  kv: Deno.Kv,
  provider: ProviderId,
  providerAccountId: string,
): Promise<IdentityRecord | null> {
  return (await kv.get<IdentityRecord>(keys.identity(provider, providerAccountId))).value;
}

/**
 * A user's identities, in provider order.
 *
 * @example
 * ```ts
 * import type { User } from "@/lib/auth/users.ts";
 * declare const kv: Deno.Kv;
 * declare const user: User;
 * const ids = await listIdentities(kv, user.id);
 * ```
 */
export async function listIdentities(kv: Deno.Kv, userId: string): Promise<IdentityRecord[]> {
  const index: [ProviderId, string][] = [];
  for await (const e of kv.list<string>({ prefix: keys.identitiesByUserPrefix(userId) })) {
    index.push([e.key[2] as ProviderId, e.value]);
  }
  if (index.length === 0) return [];
  const recs = await kv.getMany<IdentityRecord[]>(index.map(([p, a]) => keys.identity(p, a)));
  return recs.map((r) => r.value).filter((r): r is IdentityRecord =>
    r !== null && r.canonicalUserId === userId
  );
}

/** The client-safe view of an identity. */
export function identitySummary(rec: IdentityRecord): IdentitySummary {
  return {
    provider: rec.provider,
    providerAccountId: rec.providerAccountId,
    name: rec.name,
    avatar: rec.avatar,
    createdAt: rec.createdAt,
    updatedAt: rec.updatedAt,
  };
}

/** Outcome of {@link bindIdentity}. */
export type BindOutcome = "bound" | "conflict" | "already_bound" | "no_target";

/**
 * Bind a provider account to an existing user (docs/interface.md#bind steps 3–4): refuse
 * when another user owns the account (`conflict`) or the user already has another
 * account of this provider (`already_bound`); otherwise upsert the identity.
 *
 * @example
 * ```ts
 * import type { NormalizedProfile } from "@/lib/auth/types.ts";
 * import type { ProviderId } from "@/lib/config.ts";
 * import type { ProviderTokens } from "@/lib/auth/types.ts";
 * declare const kv: Deno.Kv;
 * declare const now: number;
 * declare const profile: NormalizedProfile;
 * declare const provider: ProviderId;
 * declare const secret: string;
 * declare const tokens: ProviderTokens;
 * declare const userId: string;
 * const outcome = await bindIdentity(kv, secret, { userId, provider, profile, tokens, now });
 * ```
 */
export async function bindIdentity(
  kv: Deno.Kv,
  secret: string,
  input: {
    userId: string;
    provider: ProviderId;
    profile: NormalizedProfile;
    tokens: ProviderTokens;
    now: number;
  },
): Promise<BindOutcome> {
  const { userId, provider, profile } = input;
  const idKey = keys.identity(provider, profile.providerAccountId);
  const byUserKey = keys.identityByUser(userId, provider);
  return await updateAtomically<BindOutcome>(async () => {
    const [ident, byUser, user] = await kv.getMany<[IdentityRecord, string, unknown]>([
      idKey,
      byUserKey,
      keys.user(userId),
    ]);
    if (!user.value) return { op: null, result: "no_target" };
    if (ident.value && ident.value.canonicalUserId !== userId) {
      return { op: null, result: "conflict" };
    }
    if (byUser.value !== null && byUser.value !== profile.providerAccountId) {
      return { op: null, result: "already_bound" };
    }
    const rec = await sealIdentity(secret, {
      provider,
      canonicalUserId: userId,
      profile,
      tokens: input.tokens,
      now: input.now,
      createdAt: ident.value?.createdAt,
    });
    const op = kv.atomic().check(ident).check(byUser).check(user);
    setIdentity(op, rec);
    return { op, result: "bound" };
  });
}

/** Outcome of {@link unbindIdentity}. */
export type UnbindOutcome = { ok: true } | { ok: false; reason: "not_found" | "last" };

/**
 * Remove a user's identity of one provider, never the last one (the user could no
 * longer sign in). The other identities are checked in the same op, so two concurrent
 * unbinds cannot remove both of the last two.
 *
 * @example
 * ```ts
 * import type { User } from "@/lib/auth/users.ts";
 * declare const kv: Deno.Kv;
 * declare const user: User;
 * await unbindIdentity(kv, user.id, "provider_b"); // { ok: true } | { ok: false, reason: "not_found" | "last" }
 * ```
 */
export async function unbindIdentity(
  kv: Deno.Kv,
  userId: string,
  provider: ProviderId,
): Promise<UnbindOutcome> {
  return await updateAtomically<UnbindOutcome>(async () => {
    const entries: Deno.KvEntry<string>[] = [];
    for await (const e of kv.list<string>({ prefix: keys.identitiesByUserPrefix(userId) })) {
      entries.push(e);
    }
    const mine = entries.find((e) => e.key[2] === provider);
    if (!mine) return { op: null, result: { ok: false, reason: "not_found" } };
    if (entries.length <= 1) return { op: null, result: { ok: false, reason: "last" } };
    const op = kv.atomic();
    for (const e of entries) op.check(e);
    op.delete(mine.key).delete(keys.identity(provider, mine.value));
    return { op, result: { ok: true } };
  });
}
