/**
 * The door of every agent endpoint: `Authorization: Bearer agent_<KEY>`, docs/interface.md#agent-api's 401
 * body, and the rate limits of docs/interface.md#agent-api — 60 requests a minute per key, and the same
 * per client address for failed authentication — with `X-RateLimit-*` headers on every
 * answer and `Retry-After` on a 429. The folder middleware
 * `routes/api/agent/(key)/_middleware.ts` opens it; handlers behind it take the key with
 * {@link requireAgent}.
 *
 * @module
 */
import { type AgentKeyRecord, authenticateAgentKey } from "../agent/keys.ts";
import { rateLimitHeaders, type RateLimitResult } from "../limits/window.ts";
import { hitSlicedLimit } from "../limits/slices.ts";
import { INVALID_KEY_ERROR } from "../schemas/agent.ts";
import type { Services } from "../services.ts";
import { HttpError } from "../fresh/error.ts";
import { cachedSanction } from "../moderation/sanctions.ts";
import { restrictedError } from "./outcome.ts";

/** Agent requests allowed per key per minute (docs/interface.md#agent-api). */
export const AGENT_RATE_LIMIT = 60;
const WINDOW_MS = 60_000;

/** An authenticated agent request: its key and the rate-limit hit it counted. */
export interface AgentCall {
  key: AgentKeyRecord;
  rate: RateLimitResult;
}

/** docs/interface.md#agent-api's 401 for a missing, malformed or unknown key. */
function invalidKey(headers: Record<string, string> = {}): HttpError {
  return new HttpError(401, INVALID_KEY_ERROR, {
    headers: {
      ...headers,
      "www-authenticate": 'Bearer realm="parley-agent"',
    },
  });
}

function rateLimited(rate: RateLimitResult): HttpError {
  return new HttpError(429, "Rate limit exceeded", {
    extra: { retryAfter: rate.retryAfter },
    headers: rateLimitHeaders(rate),
  });
}

/**
 * Authenticate the request's agent key and count it against the key's budget. Throws the
 * 401 (a failed attempt counts against the client address) or the 429, each carrying its
 * `X-RateLimit-*` headers.
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
  const key = await authenticateAgentKey(kv, authorization, t);
  if (!key) {
    const rate = await hitSlicedLimit(
      kv,
      "agent_auth_failed",
      clientAddress,
      limit,
      WINDOW_MS,
      t,
    );
    throw rate.allowed ? invalidKey(rateLimitHeaders(rate)) : rateLimited(rate);
  }
  // A suspended person's keys are refused (docs/interface.md#sanctions), with why and until
  // when; a silenced person's agent may still read (its writes are refused).
  const sanction = await cachedSanction(kv, key.userId, t);
  if (sanction?.action === "suspend") throw restrictedError(sanction);
  // Sliced (lib/limits/slices.ts): no commit per request, never a contention 500, and
  // never more than `limit` in any window across instances.
  const rate = await hitSlicedLimit(kv, "agent", key.id, limit, WINDOW_MS, t);
  if (!rate.allowed) throw rateLimited(rate);
  return { key, rate };
}

/**
 * The agent call the folder middleware authenticated; a route outside
 * `routes/api/agent/(key)/` has none and answers docs/interface.md#agent-api's 401.
 *
 * @example
 * ```ts
 * import type { AppState } from "@/lib/state.ts";
 * declare const ctx: { state: AppState };
 * const { key } = requireAgent(ctx.state);
 * ```
 */
export function requireAgent(state: { agent?: AgentCall }): AgentCall {
  if (!state.agent) throw invalidKey();
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
