/**
 * Authorization codes and access tokens of the local identity providers: random values
 * stored under their SHA-256 with an expiry; a code is redeemed once.
 *
 * @module
 */
import type { ProviderId } from "../../config.ts";
import { randomToken, sha256Hex } from "../../ids.ts";
import { commit, updateAtomically } from "../../kv/atomic.ts";
import { keys } from "../../kv/keys.ts";

/** Lifetime of a local authorization code. */
export const LOCAL_CODE_TTL_MS = 60_000;
/** Lifetime of a local access token (seconds in token answers). */
export const LOCAL_TOKEN_TTL_S = 3600;

/** What a code or token grants. */
export interface LocalGrant {
  provider: ProviderId;
  accountId: string;
  clientId: string;
  redirectUri: string;
  /** PKCE S256 challenge of the authorize request: the token request must prove it. */
  codeChallenge: string;
  expiresAt: number;
}

/**
 * Issue an authorization code for an account.
 *
 * @example
 * ```ts
 * import type { ProviderId } from "@/lib/config.ts";
 * declare const accountId: string;
 * declare const clientId: string;
 * declare const expiresAt: number;
 * declare const kv: Deno.Kv;
 * declare const provider: ProviderId;
 * declare const redirectUri: string;
 * const code = await issueLocalCode(kv, {
 *   provider,
 *   accountId,
 *   clientId,
 *   redirectUri,
 *   codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
 *   expiresAt,
 * });
 * ```
 */
export async function issueLocalCode(kv: Deno.Kv, grant: LocalGrant): Promise<string> {
  const code = randomToken(24);
  const key = keys.localCode(await sha256Hex(code));
  await commit(kv, (op) => op.set(key, grant, { expireIn: LOCAL_CODE_TTL_MS }));
  return code;
}

/**
 * Redeem a code once: its grant when it is live and was issued to this client and
 * redirect URI, else null (also for a second redemption).
 */
export async function redeemLocalCode(
  kv: Deno.Kv,
  code: string,
  expect: { provider: ProviderId; clientId: string; redirectUri: string; now: number },
): Promise<LocalGrant | null> {
  if (!code || code.length > 200) return null;
  const key = keys.localCode(await sha256Hex(code));
  return await updateAtomically<LocalGrant | null>(async () => {
    const entry = await kv.get<LocalGrant>(key);
    const g = entry.value;
    if (!g) return { op: null, result: null };
    const valid = g.expiresAt > expect.now && g.provider === expect.provider &&
      g.clientId === expect.clientId && g.redirectUri === expect.redirectUri;
    // A code is gone after any redemption attempt, valid or not (RFC 6749 §4.1.2).
    return { op: kv.atomic().check(entry).delete(key), result: valid ? g : null };
  });
}

/**
 * Issue an access token for a redeemed grant.
 *
 * @example
 * ```ts
 * declare const grant: LocalGrant;
 * declare const kv: Deno.Kv;
 * declare const now: number;
 * const token = await issueLocalToken(kv, grant, now);
 * ```
 */
export async function issueLocalToken(kv: Deno.Kv, grant: LocalGrant, now: number) {
  const token = `local_${grant.provider}_${randomToken(24)}`;
  const key = keys.localToken(await sha256Hex(token));
  const expiresAt = now + LOCAL_TOKEN_TTL_S * 1000;
  await commit(
    kv,
    (op) => op.set(key, { ...grant, expiresAt }, { expireIn: LOCAL_TOKEN_TTL_S * 1000 }),
  );
  return token;
}

/** The grant behind a bearer token of a provider, or null. */
export async function grantForToken(
  kv: Deno.Kv,
  provider: ProviderId,
  req: Request,
  now: number,
): Promise<LocalGrant | null> {
  const auth = req.headers.get("authorization") ?? "";
  const m = /^Bearer\s+(\S{1,300})$/i.exec(auth);
  if (!m) return null;
  const g = (await kv.get<LocalGrant>(keys.localToken(await sha256Hex(m[1])))).value;
  return g && g.provider === provider && g.expiresAt > now ? g : null;
}
