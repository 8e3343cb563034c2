/**
 * Authorization codes, grants and tokens of Parley's authorization server. A person's
 * approval on the consent page issues a one-time code (60 s); redeeming it with the PKCE
 * verifier creates a **grant** — one connected app — with an opaque access token (1 h)
 * and a refresh token (30 days). A refresh rotates both: the old refresh token dies, and
 * presenting it again (a stolen copy, or a replay) revokes the whole grant (OAuth 2.1
 * §4.3.1). Redeeming a code twice revokes the grant it made (RFC 6749 §4.1.2). Codes and
 * tokens are random and stored only by their SHA-256, like agent keys; every record
 * carries `expiresAt` beside its `expireIn`.
 *
 * @module
 */
import { normalizeScopes, type Scope } from "../agent/scopes.ts";
import { randomToken, sha256Hex } from "../ids.ts";
import { commit, getAll, updateAtomically } from "../kv/atomic.ts";
import { isLookupId, keys } from "../kv/keys.ts";
import { verifyPkce } from "./pkce.ts";

/** Lifetime of an authorization code. */
export const CODE_TTL_MS = 60_000;
/** Lifetime of an access token. */
export const ACCESS_TOKEN_TTL_MS = 60 * 60_000;
/** Lifetime of a refresh token (and of a grant nobody refreshes). */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60_000;
/** How often a grant's `lastUsedAt` is refreshed at most (a write per minute, not per call). */
const TOUCH_EVERY_MS = 60_000;

/** Shape of an access token as presented. */
export const ACCESS_TOKEN_SHAPE = /^parley_at_[A-Za-z0-9_-]{43}$/;
/** Shape of a refresh token. */
export const REFRESH_TOKEN_SHAPE = /^parley_rt_[A-Za-z0-9_-]{43}$/;
/** Shape of an authorization code. */
const CODE_SHAPE = /^parley_ac_[A-Za-z0-9_-]{43}$/;

/** What the person approved, waiting to be redeemed. */
export interface OAuthCode {
  clientId: string;
  clientName: string;
  userId: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: Scope[];
  resource: string;
  expiresAt: number;
  /** Set by the redemption: the grant it made ("" when the attempt failed). */
  usedBy: string | null;
}

/** One connected app of one person. */
export interface OAuthGrant {
  id: string;
  userId: string;
  clientId: string;
  clientName: string;
  scopes: Scope[];
  resource: string;
  /** SHA-256 of the one live access token. */
  accessHash: string;
  /** SHA-256 of the one live refresh token. */
  refreshHash: string;
  createdAt: number;
  lastUsedAt: number | null;
  /** When the live refresh token expires (and the grant with it). */
  expiresAt: number;
}

/** An access token as stored. */
export interface OAuthAccessToken {
  grantId: string;
  userId: string;
  scopes: Scope[];
  expiresAt: number;
}

/** A refresh token as stored. */
export interface OAuthRefreshToken {
  grantId: string;
  clientId: string;
  expiresAt: number;
  /** When it was exchanged for a new one; a rotated token presented again revokes the grant. */
  rotatedAt: number | null;
}

/** A token answer's content. */
export interface IssuedTokens {
  grantId: string;
  accessToken: string;
  refreshToken: string;
  expiresInSeconds: number;
  scopes: Scope[];
}

/** Why a token request fails: an RFC 6749 error code and a sentence. */
export interface TokenFailure {
  ok: false;
  reason: "invalid_grant" | "invalid_target" | "invalid_scope";
  description: string;
}

/** A token request's outcome. */
export type TokenOutcome = { ok: true; tokens: IssuedTokens } | TokenFailure;

function fail(reason: TokenFailure["reason"], description: string): TokenFailure {
  return { ok: false, reason, description };
}

/** Time left until `expiresAt`, at least a second (an `expireIn` must be positive). */
function remaining(expiresAt: number, now: number): number {
  return Math.max(1000, expiresAt - now);
}

/**
 * Issue a code for what the person approved.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const code = await issueCode(kv, {
 *   clientId: "client_abc",
 *   clientName: "Claude",
 *   userId: "u_1",
 *   redirectUri: "http://127.0.0.1:33418/callback",
 *   codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
 *   scopes: ["read"],
 *   resource: "https://parley.example/mcp",
 * }, Date.now());
 * ```
 */
export async function issueCode(
  kv: Deno.Kv,
  approval: Omit<OAuthCode, "expiresAt" | "usedBy">,
  now: number,
): Promise<string> {
  const code = `parley_ac_${randomToken(32)}`;
  const record: OAuthCode = { ...approval, expiresAt: now + CODE_TTL_MS, usedBy: null };
  const key = keys.oauthCode(await sha256Hex(code));
  await commit(kv, (op) => op.set(key, record, { expireIn: CODE_TTL_MS }));
  return code;
}

/** The token records of a new access and refresh token pair for a grant. */
async function newTokenPair(
  grantId: string,
  userId: string,
  clientId: string,
  scopes: Scope[],
  now: number,
) {
  const accessToken = `parley_at_${randomToken(32)}`;
  const refreshToken = `parley_rt_${randomToken(32)}`;
  const accessHash = await sha256Hex(accessToken);
  const refreshHash = await sha256Hex(refreshToken);
  const access: OAuthAccessToken = {
    grantId,
    userId,
    scopes,
    expiresAt: now + ACCESS_TOKEN_TTL_MS,
  };
  const refresh: OAuthRefreshToken = {
    grantId,
    clientId,
    expiresAt: now + REFRESH_TOKEN_TTL_MS,
    rotatedAt: null,
  };
  return { accessToken, refreshToken, accessHash, refreshHash, access, refresh };
}

/** Add the writes of a token pair (and the grant's renewed rows) to `op`. */
function writePair(
  op: Deno.AtomicOperation,
  grant: OAuthGrant,
  pair: Awaited<ReturnType<typeof newTokenPair>>,
): Deno.AtomicOperation {
  return op
    .set(keys.oauthAccessToken(pair.accessHash), pair.access, { expireIn: ACCESS_TOKEN_TTL_MS })
    .set(keys.oauthRefreshToken(pair.refreshHash), pair.refresh, {
      expireIn: REFRESH_TOKEN_TTL_MS,
    })
    .set(keys.oauthGrant(grant.id), grant, { expireIn: REFRESH_TOKEN_TTL_MS })
    .set(keys.oauthGrantByUser(grant.userId, grant.id), { expiresAt: grant.expiresAt }, {
      expireIn: REFRESH_TOKEN_TTL_MS,
    });
}

/** What a code exchange presents. */
export interface CodeExchange {
  code: string;
  clientId: string;
  /** Must be exactly the authorize request's (RFC 6749 §4.1.3). */
  redirectUri: string;
  codeVerifier: string;
  /** RFC 8707 `resource`, when the request names one. */
  resource: string | null;
}

/**
 * Redeem a code (grant type `authorization_code`): a new grant with its first tokens, or
 * why not. The code is spent by any attempt of its own client; a second redemption finds
 * it spent and revokes the grant the first one made.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const code: string;
 * const r = await exchangeCode(kv, {
 *   code,
 *   clientId: "client_abc",
 *   redirectUri: "http://127.0.0.1:33418/callback",
 *   codeVerifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
 *   resource: null,
 * }, Date.now());
 * ```
 */
export async function exchangeCode(
  kv: Deno.Kv,
  req: CodeExchange,
  now: number,
): Promise<TokenOutcome> {
  if (!CODE_SHAPE.test(req.code)) return fail("invalid_grant", "The code is unknown or expired");
  const key = keys.oauthCode(await sha256Hex(req.code));
  let replayedGrant: string | null = null;
  const outcome = await updateAtomically<TokenOutcome>(async () => {
    replayedGrant = null;
    const entry = await kv.get<OAuthCode>(key);
    const c = entry.value;
    if (!c || c.expiresAt <= now || c.clientId !== req.clientId) {
      return { op: null, result: fail("invalid_grant", "The code is unknown or expired") };
    }
    if (c.usedBy !== null) {
      replayedGrant = c.usedBy || null;
      return {
        op: null,
        result: fail(
          "invalid_grant",
          c.usedBy
            ? "The code was already used; the access it granted is revoked"
            : "The code was already used",
        ),
      };
    }
    if (req.resource !== null && req.resource !== c.resource) {
      return {
        op: null,
        result: fail("invalid_target", `resource must be ${c.resource}`),
      };
    }
    const spend = (usedBy: string) =>
      kv.atomic().check(entry).set(key, { ...c, usedBy }, {
        expireIn: remaining(c.expiresAt, now),
      });
    if (req.redirectUri !== c.redirectUri) {
      return {
        op: spend(""),
        result: fail("invalid_grant", "redirect_uri differs from the authorization request's"),
      };
    }
    if (!verifyPkce(req.codeVerifier, c.codeChallenge)) {
      return {
        op: spend(""),
        result: fail("invalid_grant", "code_verifier does not match the code_challenge"),
      };
    }
    const grantId = `grant_${randomToken(12)}`;
    const pair = await newTokenPair(grantId, c.userId, c.clientId, c.scopes, now);
    const grant: OAuthGrant = {
      id: grantId,
      userId: c.userId,
      clientId: c.clientId,
      clientName: c.clientName,
      scopes: c.scopes,
      resource: c.resource,
      accessHash: pair.accessHash,
      refreshHash: pair.refreshHash,
      createdAt: now,
      lastUsedAt: null,
      expiresAt: pair.refresh.expiresAt,
    };
    const op = writePair(
      spend(grantId).check({ key: keys.oauthGrant(grantId), versionstamp: null }),
      grant,
      pair,
    );
    return {
      op,
      result: {
        ok: true,
        tokens: {
          grantId,
          accessToken: pair.accessToken,
          refreshToken: pair.refreshToken,
          expiresInSeconds: ACCESS_TOKEN_TTL_MS / 1000,
          scopes: c.scopes,
        },
      },
    };
  });
  if (replayedGrant) await revokeGrant(kv, replayedGrant);
  return outcome;
}

/** What a refresh presents. */
export interface RefreshRequest {
  refreshToken: string;
  clientId: string;
  /** A narrower `scope` for the new access token, or null for the grant's. */
  scopes: Scope[] | null;
  resource: string | null;
}

/**
 * Rotate a refresh token (grant type `refresh_token`): new access and refresh tokens,
 * the old refresh token marked rotated and the old access token deleted, in one op. A
 * rotated token presented again revokes the grant.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const refreshToken: string;
 * const r = await refreshGrant(kv, {
 *   refreshToken,
 *   clientId: "client_abc",
 *   scopes: null,
 *   resource: null,
 * }, Date.now());
 * ```
 */
export async function refreshGrant(
  kv: Deno.Kv,
  req: RefreshRequest,
  now: number,
): Promise<TokenOutcome> {
  const unknown = fail("invalid_grant", "The refresh token is unknown, expired or revoked");
  if (!REFRESH_TOKEN_SHAPE.test(req.refreshToken)) return unknown;
  const hash = await sha256Hex(req.refreshToken);
  const key = keys.oauthRefreshToken(hash);
  let reused: string | null = null;
  const outcome = await updateAtomically<TokenOutcome>(async () => {
    reused = null;
    const entry = await kv.get<OAuthRefreshToken>(key);
    const r = entry.value;
    if (!r || r.expiresAt <= now || r.clientId !== req.clientId) {
      return { op: null, result: unknown };
    }
    const grantEntry = await kv.get<OAuthGrant>(keys.oauthGrant(r.grantId));
    const g = grantEntry.value;
    if (r.rotatedAt !== null || (g && g.refreshHash !== hash)) {
      reused = r.grantId;
      return {
        op: null,
        result: fail(
          "invalid_grant",
          "This refresh token was already used; the app's access is revoked",
        ),
      };
    }
    if (!g || g.expiresAt <= now) return { op: null, result: unknown };
    if (req.resource !== null && req.resource !== g.resource) {
      return { op: null, result: fail("invalid_target", `resource must be ${g.resource}`) };
    }
    const scopes = req.scopes ?? g.scopes;
    if (scopes.length === 0 || !scopes.every((s) => g.scopes.includes(s))) {
      return {
        op: null,
        result: fail(
          "invalid_scope",
          `scope may name only what was granted: ${g.scopes.join(" ")}`,
        ),
      };
    }
    const pair = await newTokenPair(g.id, g.userId, g.clientId, normalizeScopes(scopes), now);
    const renewed: OAuthGrant = {
      ...g,
      accessHash: pair.accessHash,
      refreshHash: pair.refreshHash,
      expiresAt: pair.refresh.expiresAt,
    };
    const op = kv.atomic().check(entry).check(grantEntry)
      .set(key, { ...r, rotatedAt: now }, { expireIn: remaining(r.expiresAt, now) })
      .delete(keys.oauthAccessToken(g.accessHash));
    writePair(op, renewed, pair);
    return {
      op,
      result: {
        ok: true,
        tokens: {
          grantId: g.id,
          accessToken: pair.accessToken,
          refreshToken: pair.refreshToken,
          expiresInSeconds: ACCESS_TOKEN_TTL_MS / 1000,
          scopes: pair.access.scopes,
        },
      },
    };
  });
  if (reused) await revokeGrant(kv, reused);
  return outcome;
}

/** A revoked grant, or `not_found` (unknown, already revoked, or another person's). */
export type RevokeGrantResult = { ok: true } | { ok: false; reason: "not_found" };

/**
 * Revoke a grant: the app's access and refresh tokens stop working at once. With
 * `userId`, only that person's grant.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await revokeGrant(kv, "grant_abc", "u_1");
 * ```
 */
export async function revokeGrant(
  kv: Deno.Kv,
  grantId: string,
  userId?: string,
): Promise<RevokeGrantResult> {
  if (!isLookupId(grantId)) return { ok: false, reason: "not_found" };
  return await updateAtomically<RevokeGrantResult>(async () => {
    const entry = await kv.get<OAuthGrant>(keys.oauthGrant(grantId));
    const g = entry.value;
    if (!g || (userId !== undefined && g.userId !== userId)) {
      return { op: null, result: { ok: false, reason: "not_found" } };
    }
    const op = kv.atomic().check(entry)
      .delete(keys.oauthGrant(g.id))
      .delete(keys.oauthGrantByUser(g.userId, g.id))
      .delete(keys.oauthAccessToken(g.accessHash))
      .delete(keys.oauthRefreshToken(g.refreshHash));
    return { op, result: { ok: true } };
  });
}

/**
 * Revoke every grant of a person (their account is being deleted): each connected app's
 * tokens stop at once.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await revokeGrantsOf(kv, "u_1");
 * ```
 */
export async function revokeGrantsOf(kv: Deno.Kv, userId: string): Promise<void> {
  for await (const e of kv.list({ prefix: keys.oauthGrantsByUserPrefix(userId) })) {
    await revokeGrant(kv, String(e.key.at(-1)), userId);
  }
}

/** A token revocation (RFC 7009): done (also for an unknown token), or the token is another app's. */
export type RevokeTokenResult = { ok: true } | { ok: false; reason: "wrong_client" };

/**
 * Revoke a token an app holds (RFC 7009): a refresh token revokes its whole grant; an
 * access token only itself. An unknown or expired token is already revoked.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const token: string;
 * await revokeToken(kv, token, "client_abc");
 * ```
 */
export async function revokeToken(
  kv: Deno.Kv,
  token: string,
  clientId: string,
): Promise<RevokeTokenResult> {
  if (REFRESH_TOKEN_SHAPE.test(token)) {
    const r = (await kv.get<OAuthRefreshToken>(keys.oauthRefreshToken(await sha256Hex(token))))
      .value;
    if (!r) return { ok: true };
    if (r.clientId !== clientId) return { ok: false, reason: "wrong_client" };
    await revokeGrant(kv, r.grantId);
    return { ok: true };
  }
  if (ACCESS_TOKEN_SHAPE.test(token)) {
    const key = keys.oauthAccessToken(await sha256Hex(token));
    const a = (await kv.get<OAuthAccessToken>(key)).value;
    if (!a) return { ok: true };
    const g = (await kv.get<OAuthGrant>(keys.oauthGrant(a.grantId))).value;
    if (g && g.clientId !== clientId) return { ok: false, reason: "wrong_client" };
    await commit(kv, (op) => op.delete(key));
  }
  return { ok: true };
}

/** An authenticated access token: its grant and the scopes it carries. */
export interface AccessTokenCaller {
  grant: OAuthGrant;
  scopes: Scope[];
}

/**
 * The grant behind a presented access token, or null when the token is malformed,
 * unknown, expired, superseded by a refresh, or its grant was revoked. Refreshes the
 * grant's `lastUsedAt` at most once a minute.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const token: string;
 * const caller = await authenticateAccessToken(kv, token, Date.now());
 * ```
 */
export async function authenticateAccessToken(
  kv: Deno.Kv,
  token: string,
  now: number,
): Promise<AccessTokenCaller | null> {
  if (!ACCESS_TOKEN_SHAPE.test(token)) return null;
  const hash = await sha256Hex(token);
  const a = (await kv.get<OAuthAccessToken>(keys.oauthAccessToken(hash))).value;
  if (!a || a.expiresAt <= now) return null;
  const entry = await kv.get<OAuthGrant>(keys.oauthGrant(a.grantId));
  const g = entry.value;
  if (!g || g.accessHash !== hash || g.expiresAt <= now) return null;
  if (g.lastUsedAt === null || now - g.lastUsedAt >= TOUCH_EVERY_MS) {
    // Under a check: a grant revoked or refreshed meanwhile is never written back.
    await commit(kv, (op) =>
      op.check(entry).set(keys.oauthGrant(g.id), { ...g, lastUsedAt: now }, {
        expireIn: remaining(g.expiresAt, now),
      }));
  }
  return { grant: g, scopes: normalizeScopes(a.scopes) };
}

/** One connected app as the profile lists it. */
export interface ConnectedApp {
  id: string;
  clientName: string;
  scopes: Scope[];
  createdAt: number;
  lastUsedAt: number | null;
}

/**
 * A person's connected apps (live grants), oldest first.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const apps = await listConnectedApps(kv, "u_1", Date.now());
 * ```
 */
export async function listConnectedApps(
  kv: Deno.Kv,
  userId: string,
  now: number,
): Promise<ConnectedApp[]> {
  const ids: string[] = [];
  for await (const e of kv.list({ prefix: keys.oauthGrantsByUserPrefix(userId) })) {
    ids.push(String(e.key.at(-1)));
  }
  const apps: ConnectedApp[] = [];
  for (const { value: g } of await getAll<OAuthGrant>(kv, ids.map((id) => keys.oauthGrant(id)))) {
    if (!g || g.userId !== userId || g.expiresAt <= now) continue;
    apps.push({
      id: g.id,
      clientName: g.clientName,
      scopes: normalizeScopes(g.scopes),
      createdAt: g.createdAt,
      lastUsedAt: g.lastUsedAt,
    });
  }
  return apps.sort((a, b) => a.createdAt - b.createdAt);
}
