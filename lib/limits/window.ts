/**
 * Rate limits kept in KV, so every instance sharing the store enforces the same budget.
 *
 * One algorithm for every limit (posting limits, the agent API, debates): a **sliding-window
 * log**. The accepted hit times of one (bucket, key) live in one KV value, oldest first;
 * a hit reads the log, drops the times older than the window, and is accepted only when
 * fewer than `limit` remain — then the log with the new time is written under a `check` of
 * what was read (checked-and-set atomically, retried on a lost race). A refused hit writes
 * nothing.
 *
 * Overshoot bound: none. Every accepted hit is in the log of its own window, so no window
 * of `windowMs` — wherever it starts — ever holds more than `limit` accepted hits, across
 * all instances (a fixed window allows 2× across its edge; GCRA about 2× in a burst).
 * Cost: one read and one write per accepted hit; the log holds at most `limit` numbers,
 * so `limit` is capped (lib/config.ts `MAX_LIMIT`) to keep the value under 64 KiB. The
 * times are written as a `Float64Array`: V8 copies its bytes in one go, where a plain array
 * of 600 times took ~60 µs to deserialize, number by number, on every hit of a busy voter
 * (logs written before hold a plain array, read the same way).
 * Only one caller's own hits race on its log key; they retry with jittered backoff
 * (lib/kv/atomic.ts `updateAtomically`), never a 500.
 *
 * @module
 */
import { updateAtomically } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";

/** The outcome of one hit. */
export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  /** Hits left in the window after this one. */
  remaining: number;
  /** Unix ms when the oldest hit in the window leaves it (a slot frees). */
  resetAt: number;
  /** Whole seconds until a retry can succeed (≥1 when refused, 0 when allowed). */
  retryAfter: number;
}

/**
 * The stored log of one (bucket, key): accepted hit times, oldest first (a `Float64Array`
 * as written now, a `number[]` in logs written before).
 */
export interface HitLog {
  times: Float64Array | number[];
}

/** Largest limit the log can hold (one value stays well under KV's 64 KiB). */
export const MAX_LOGGED_HITS = 5000;

/**
 * Count a hit against `bucket`/`key` and say whether it is within `limit` per `windowMs`
 * (any window of that length, not calendar windows). A limit above
 * {@link MAX_LOGGED_HITS} is treated as "no limit" (benchmarks raise limits that far).
 *
 * @example
 * ```ts
 * import { HttpError } from "@/lib/fresh/error.ts";
 * declare const kv: Deno.Kv;
 * declare const userId: string;
 * declare const ip: string;
 * const r = await hitRateLimit(kv, "debate", `${userId}:${ip}`, 8, 60_000);
 * if (!r.allowed) throw new HttpError(429, "Rate limit exceeded", { extra: { retryAfter: r.retryAfter } });
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
  if (limit > MAX_LOGGED_HITS) {
    return { allowed: true, limit, remaining: limit, resetAt: now + windowMs, retryAfter: 0 };
  }
  const k = keys.rateLimitLog(bucket, key);
  return await updateAtomically<RateLimitResult>(async () => {
    const cur = await kv.get<HitLog>(k);
    const op = kv.atomic();
    const result = addHit(op, cur, limit, windowMs, now);
    return { op: result.allowed ? op : null, result };
  });
}

/**
 * The same decision as {@link hitRateLimit} for a log entry the caller already read, inside
 * the caller's own atomic op: when allowed, the op gets a `check` of the entry and the new
 * log (so the hit and the write it guards commit together, in one commit); when refused,
 * the op is left alone. A lost check makes the caller's read–check–write loop run again.
 *
 * @example
 * ```ts
 * import { keys } from "@/lib/kv/keys.ts";
 * import { updateAtomically } from "@/lib/kv/atomic.ts";
 * declare const kv: Deno.Kv;
 * const r = await updateAtomically(async () => {
 *   const entry = await kv.get<HitLog>(keys.rateLimitLog("post_messages", "u1"));
 *   const op = kv.atomic(); // … and the write the hit guards
 *   const hit = addHit(op, entry, 60, 3_600_000, Date.now());
 *   return { op: hit.allowed ? op : null, result: hit };
 * });
 * ```
 */
export function addHit(
  op: Deno.AtomicOperation,
  entry: Deno.KvEntryMaybe<HitLog>,
  limit: number,
  windowMs: number,
  now: number,
): RateLimitResult {
  const logged = entry.value?.times;
  const { times, kept } = timesInWindow(
    // One kind of array for the loops below (a log written as a plain array is copied).
    logged === undefined ? NO_TIMES : Array.isArray(logged) ? Float64Array.from(logged) : logged,
    now,
    windowMs,
  );
  if (kept >= limit) {
    // The slot frees when the hit `limit` places back leaves the window.
    const freesAt = times[kept - limit] + windowMs;
    return {
      allowed: false,
      limit,
      remaining: 0,
      resetAt: freesAt,
      retryAfter: Math.max(1, Math.ceil((freesAt - now) / 1000)),
    };
  }
  times[kept] = now;
  op.check(entry).set(entry.key, { times } satisfies HitLog, {
    // The log is useless once its newest hit left the window; expireIn is lazy, and
    // readers drop old times anyway.
    expireIn: windowMs + 60_000,
  });
  return {
    allowed: true,
    limit,
    remaining: limit - times.length,
    resetAt: times[0] + windowMs,
    retryAfter: 0,
  };
}

/** The times of a hit without a log. */
const NO_TIMES = new Float64Array(0);

/**
 * The times of `logged` still inside the window ending at `now`, in their order, with one
 * free slot at the end (`kept` of them are filled). Times from the future (a clock set
 * back) count as now, so they still expire. The usual log — every time inside the window
 * and none ahead — is copied in one go.
 */
function timesInWindow(
  logged: Float64Array,
  now: number,
  windowMs: number,
): { times: Float64Array; kept: number } {
  const after = now - windowMs;
  let kept = 0;
  let asLogged = true;
  for (let i = 0; i < logged.length; i++) {
    const t = logged[i];
    if (t > now) asLogged = false;
    if (Math.min(t, now) > after) kept++;
    else asLogged = false;
  }
  const times = new Float64Array(kept + 1);
  if (asLogged) {
    times.set(logged);
    return { times, kept };
  }
  let j = 0;
  for (let i = 0; i < logged.length; i++) {
    const t = Math.min(logged[i], now);
    if (t > after) times[j++] = t;
  }
  return { times, kept };
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
