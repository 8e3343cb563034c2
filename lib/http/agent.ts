/**
 * The door of every agent endpoint: `Authorization: Bearer agent_<KEY>`, SPEC.md's 401
 * body, and the rate limits of DESIGN.md §6 — 60 requests a minute per key, and the same
 * per client address for failed authentication — with `X-RateLimit-*` headers on every
 * answer and `Retry-After` on a 429.
 *
 * @module
 */
import { type AgentKeyRecord, authenticateAgentKey } from "../agent/keys.ts";
import type { FreshContext, Handler } from "../fresh/types.ts";
import { hitRateLimit, rateLimitHeaders, type RateLimitResult } from "../limits/window.ts";
import { INVALID_KEY_ERROR } from "../schemas/agent.ts";
import type { AppState } from "../state.ts";
import { HttpError } from "./errors.ts";

/** Agent requests allowed per key per minute (DESIGN.md §6). */
export const AGENT_RATE_LIMIT = 60;
const WINDOW_MS = 60_000;

/** What an agent handler receives besides the request. */
export interface AgentCall {
  key: AgentKeyRecord;
  rate: RateLimitResult;
}

/** An agent handler: the authenticated key is passed in. */
export type AgentHandler = (
  req: Request,
  ctx: FreshContext<AppState>,
  agent: AgentCall,
) => Response | Promise<Response>;

function withHeaders(res: Response, headers: Record<string, string>): Response {
  const out = new Response(res.body, res);
  for (const [k, v] of Object.entries(headers)) out.headers.set(k, v);
  return out;
}

/**
 * Wrap an agent handler with key authentication and rate limiting.
 *
 * @example
 * ```ts
 * export const handler = { GET: agentRoute((req, ctx, { key }) => Response.json({ id: key.userId })) };
 * ```
 */
export function agentRoute(fn: AgentHandler): Handler<unknown, AppState> {
  return async (req, ctx) => {
    const { kv, now } = ctx.state.services;
    const limit = ctx.state.services.agentRateLimit ?? AGENT_RATE_LIMIT;
    const t = now();
    const key = await authenticateAgentKey(kv, req.headers.get("authorization"), t);
    if (!key) {
      const rate = await hitRateLimit(
        kv,
        "agent_auth_failed",
        ctx.remoteAddr.hostname,
        limit,
        WINDOW_MS,
        t,
      );
      const headers = rateLimitHeaders(rate);
      if (!rate.allowed) {
        return Response.json({ error: "Rate limit exceeded", retryAfter: rate.retryAfter }, {
          status: 429,
          headers,
        });
      }
      return Response.json({ error: INVALID_KEY_ERROR }, {
        status: 401,
        headers: { ...headers, "www-authenticate": 'Bearer realm="parley-agent"' },
      });
    }
    const rate = await hitRateLimit(kv, "agent", key.id, limit, WINDOW_MS, t);
    const headers = rateLimitHeaders(rate);
    if (!rate.allowed) {
      return Response.json({ error: "Rate limit exceeded", retryAfter: rate.retryAfter }, {
        status: 429,
        headers,
      });
    }
    try {
      return withHeaders(await fn(req, ctx, { key, rate }), headers);
    } catch (err) {
      if (err instanceof HttpError) {
        return withHeaders(err.toResponse(), { ...headers, ...err.headers });
      }
      throw err;
    }
  };
}
