/**
 * Fixed-window rate limits kept in KV, so every instance sharing the store enforces the
 * same budget. One key per caller and window, written with `expireIn` so old windows
 * clean themselves up; a caller's own hits are the only writers that can conflict.
 *
 * @module
 */
import { updateAtomically } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";

/** The outcome of one hit. */
export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  /** Hits left in this window after this one. */
  remaining: number;
  /** Unix ms when the window resets. */
  resetAt: number;
  /** Whole seconds until a retry can succeed (≥1 when refused). */
  retryAfter: number;
}

/**
 * Count a hit against `bucket`/`key` and say whether it is within `limit` per `windowMs`.
 *
 * @example
 * ```ts
 * import { HttpError } from "@/lib/http/errors.ts";
 * declare const kv: Deno.Kv;
 * declare const userId: string;
 * declare const ip: string;
 * const r = await hitRateLimit(kv, "debate", `${userId}:${ip}`, 8, 60_000);
 * if (!r.allowed) throw new HttpError(429, "Rate limit exceeded", { retryAfter: r.retryAfter });
 * ```
 */
export async function hitRateLimit(
  kv: Deno.Kv,
  bucket: string,
  key: string,
  limit: number,
  windowMs: number,
  now = Date.now(),
): Promise<RateLimitResult> {
  const window = Math.floor(now / windowMs);
  const k = keys.rateLimit(bucket, key, window);
  const count = await updateAtomically(async () => {
    const cur = await kv.get<number>(k);
    const next = (cur.value ?? 0) + 1;
    // Kept a little past the window; the window number in the key already separates them.
    return { op: kv.atomic().check(cur).set(k, next, { expireIn: windowMs * 2 }), result: next };
  });
  const resetAt = (window + 1) * windowMs;
  const allowed = count <= limit;
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - count),
    resetAt,
    retryAfter: allowed ? 0 : Math.max(1, Math.ceil((resetAt - now) / 1000)),
  };
}

/**
 * The standard headers for a rate-limited response.
 *
 * @example
 * ```ts
 * declare const r: Awaited<ReturnType<typeof hitRateLimit>>;
 * const res = new Response("{}", { headers: rateLimitHeaders(r) });
 * ```
 */
export function rateLimitHeaders(r: RateLimitResult): Record<string, string> {
  const h: Record<string, string> = {
    "x-ratelimit-limit": String(r.limit),
    "x-ratelimit-remaining": String(r.remaining),
    "x-ratelimit-reset": String(Math.ceil(r.resetAt / 1000)),
  };
  if (!r.allowed) h["retry-after"] = String(r.retryAfter);
  return h;
}
