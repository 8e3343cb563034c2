/**
 * Rate limits as an HTTP answer: over the budget is a 429 `{error, retryAfter}` with
 * `Retry-After` and `X-RateLimit-*` headers (docs/interface.md#limits's debate and participation limits).
 *
 * @module
 */
import { hitRateLimit, rateLimitHeaders, type RateLimitResult } from "../limits/window.ts";
import { HttpError } from "../fresh/error.ts";

/**
 * Count a hit and throw a 429 `HttpError` when it is over `limit` per `windowMs`;
 * otherwise return the result (for the `X-RateLimit-*` headers of a success).
 *
 * @example
 * ```ts
 * import type { User } from "@/lib/auth/users.ts";
 * declare const ip: string;
 * declare const kv: Deno.Kv;
 * declare function now(): number;
 * declare const user: User;
 * const r = await enforceRateLimit(kv, "debate", `${user.id}:${ip}`, 8, 60_000, now());
 * ```
 */
export async function enforceRateLimit(
  kv: Deno.Kv,
  bucket: string,
  key: string,
  limit: number,
  windowMs: number,
  now: number,
): Promise<RateLimitResult> {
  const r = await hitRateLimit(kv, bucket, key, limit, windowMs, now);
  if (!r.allowed) {
    throw new HttpError(429, "Rate limit exceeded", {
      extra: { retryAfter: r.retryAfter },
      headers: rateLimitHeaders(r),
    });
  }
  return r;
}
