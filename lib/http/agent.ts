/**
 * The door of every agent endpoint — the agent REST API and `/mcp`: an agent key
 * (`Authorization: Bearer agent_<KEY>`) or an OAuth access token (`Bearer parley_at_…`,
 * issued by lib/oauth/ to an app a person connected), docs/interface.md#agent-api's 401
 * body with a `WWW-Authenticate` that points to the protected resource metadata (so an
 * MCP client can discover how to sign in from the 401 alone), the scopes the credential
 * carries, and the rate limits of docs/interface.md#agent-api — 60 requests a minute per
 * key or per connected app (grant), and the same per client address for failed
 * authentication — with `X-RateLimit-*` headers on every answer and `Retry-After` on a 429.
 * The folder middleware `routes/api/agent/(key)/_middleware.ts` opens it; handlers behind
 * it take the credential, and check its scope, with {@link requireAgent}.
 *
 * @module
 */
import { type AgentKeyRecord, authenticateAgentKey, bearerKey } from "../agent/keys.ts";
import { missingScopeMessage, normalizeScopes, type Scope } from "../agent/scopes.ts";
import { rateLimitHeaders, type RateLimitResult } from "../limits/window.ts";
import { hitSlicedLimit } from "../limits/slices.ts";
import { protectedResourceMetadataUrl } from "../oauth/metadata.ts";
import { authenticateAccessToken } from "../oauth/tokens.ts";
import { INVALID_KEY_ERROR } from "../schemas/agent.ts";
import type { Services } from "../services.ts";
import { HttpError } from "../fresh/error.ts";
import { cachedSanction } from "../moderation/sanctions.ts";
import { restrictedError } from "./outcome.ts";

/** Agent requests allowed per key per minute (docs/interface.md#agent-api). */
export const AGENT_RATE_LIMIT = 60;
const WINDOW_MS = 60_000;

/** Who an agent request acts for, and with what it may do. */
export interface AgentCredential {
  /** An agent key, or an OAuth access token of a connected app. */
  kind: "key" | "token";
  /** The key's id (`key_…`) or the grant's (`grant_…`): the rate limit and idempotency scope. */
  id: string;
  /** The person it acts as. */
  userId: string;
  /** The key's name, or the app's. */
  name: string;
  /** What its owner sees to recognise it: `agent_AbCdEf…` or `parley_at_Ab…`. */
  prefix: string;
  scopes: Scope[];
}

/** An authenticated agent request: its credential and the rate-limit hit it counted. */
export interface AgentCall {
  credential: AgentCredential;
  rate: RateLimitResult;
}

/**
 * The `WWW-Authenticate` of an agent 401 (RFC 6750 §3, RFC 9728 §5.1): the realm, where
 * the protected resource metadata is, and `error="invalid_token"` when a credential was
 * presented but is not (or no longer) valid.
 *
 * @example
 * ```ts
 * bearerChallenge("https://parley.example", false);
 * // 'Bearer realm="parley-agent", resource_metadata="https://parley.example/.well-known/oauth-protected-resource"'
 * ```
 */
export function bearerChallenge(origin: string, presented: boolean): string {
  const base = `Bearer realm="parley-agent", resource_metadata="${
    protectedResourceMetadataUrl(origin)
  }"`;
  return presented ? `${base}, error="invalid_token"` : base;
}

/** docs/interface.md#agent-api's 401 for a missing, malformed, unknown or expired credential. */
function invalidKey(
  origin: string,
  presented: boolean,
  headers: Record<string, string> = {},
): HttpError {
  return new HttpError(401, INVALID_KEY_ERROR, {
    headers: { ...headers, "www-authenticate": bearerChallenge(origin, presented) },
  });
}

function rateLimited(rate: RateLimitResult): HttpError {
  return new HttpError(429, "Rate limit exceeded", {
    extra: { retryAfter: rate.retryAfter },
    headers: rateLimitHeaders(rate),
  });
}

function keyCredential(key: AgentKeyRecord): AgentCredential {
  return {
    kind: "key",
    id: key.id,
    userId: key.userId,
    name: key.name,
    prefix: key.prefix,
    scopes: normalizeScopes(key.scopes),
  };
}

/** The bearer value of an `Authorization` header, or null. */
function bearerValue(authorization: string | null): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return m ? m[1] : null;
}

/** The credential behind a presented bearer value, or null. */
async function credentialFor(
  services: Services,
  authorization: string | null,
  now: number,
): Promise<AgentCredential | null> {
  if (bearerKey(authorization)) {
    const key = await authenticateAgentKey(services.kv, authorization, now);
    return key && keyCredential(key);
  }
  const token = bearerValue(authorization);
  if (!token) return null;
  const caller = await authenticateAccessToken(services.kv, token, now);
  if (!caller) return null;
  return {
    kind: "token",
    id: caller.grant.id,
    userId: caller.grant.userId,
    name: caller.grant.clientName,
    prefix: `${token.slice(0, 14)}…`,
    scopes: caller.scopes,
  };
}

/**
 * Authenticate the request's agent key or access token and count it against its budget.
 * Throws the 401 (a failed attempt counts against the client address) or the 429, each
 * carrying its `X-RateLimit-*` headers.
 *
 * @example
 * ```ts
 * import type { Services } from "@/lib/services.ts";
 * declare const req: Request;
 * declare const services: Services;
 * const agent = await authenticateAgent(services, req.headers.get("authorization"), "127.0.0.1");
 * ```
 */
export async function authenticateAgent(
  services: Services,
  authorization: string | null,
  clientAddress: string,
): Promise<AgentCall> {
  const { kv, now } = services;
  const limit = services.agentRateLimit ?? AGENT_RATE_LIMIT;
  const t = now();
  const credential = await credentialFor(services, authorization, t);
  if (!credential) {
    const rate = await hitSlicedLimit(
      kv,
      "agent_auth_failed",
      clientAddress,
      limit,
      WINDOW_MS,
      t,
    );
    if (!rate.allowed) throw rateLimited(rate);
    throw invalidKey(
      services.config.appOrigin,
      bearerValue(authorization) !== null,
      rateLimitHeaders(rate),
    );
  }
  // A suspended person's keys are refused (docs/interface.md#sanctions), with why and until
  // when; a silenced person's agent may still read (its writes are refused).
  const sanction = await cachedSanction(kv, credential.userId, t);
  if (sanction?.action === "suspend") throw restrictedError(sanction);
  // Sliced (lib/limits/slices.ts): no commit per request, never a contention 500, and
  // never more than `limit` in any window across instances. Keys and grants have
  // distinct ids (`key_…`, `grant_…`), so each has its own budget.
  const rate = await hitSlicedLimit(kv, "agent", credential.id, limit, WINDOW_MS, t);
  if (!rate.allowed) throw rateLimited(rate);
  return { credential, rate };
}

/**
 * The 403 of a credential without `scope`: `{error: "This key lacks the write scope"}`
 * ("token" for an OAuth access token).
 *
 * @example
 * ```ts
 * declare const credential: AgentCredential;
 * if (!credential.scopes.includes("write")) throw missingScope(credential, "write");
 * ```
 */
export function missingScope(credential: AgentCredential, scope: Scope): HttpError {
  return new HttpError(403, missingScopeMessage(credential.kind, scope));
}

/**
 * The agent call the folder middleware authenticated, after checking that its credential
 * carries `scope` (null: any credential will do, as for `GET /api/agent/me`); a route
 * outside `routes/api/agent/(key)/` has none and answers docs/interface.md#agent-api's 401.
 *
 * @example
 * ```ts
 * import type { AppState } from "@/lib/state.ts";
 * declare const ctx: { state: AppState };
 * const { credential } = requireAgent(ctx.state, "write");
 * ```
 */
export function requireAgent(
  state: { agent?: AgentCall; services: Services },
  scope: Scope | null,
): AgentCall {
  if (!state.agent) throw invalidKey(state.services.config.appOrigin, false);
  if (scope && !state.agent.credential.scopes.includes(scope)) {
    throw missingScope(state.agent.credential, scope);
  }
  return state.agent;
}

/**
 * `res` with `headers` set on it (itself, or a copy when its headers are immutable).
 *
 * @example
 * ```ts
 * const res = withHeaders(Response.json({ ok: true }), { "x-ratelimit-limit": "60" });
 * ```
 */
export function withHeaders(res: Response, headers: Record<string, string>): Response {
  // Set in place when the headers are mutable (a response built here): a copy costs a
  // new Response per agent request. A fetched one throws, and is copied.
  try {
    for (const k in headers) res.headers.set(k, headers[k]);
    return res;
  } catch {
    const out = new Response(res.body, res);
    for (const k in headers) out.headers.set(k, headers[k]);
    return out;
  }
}
