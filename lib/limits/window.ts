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
 * times are written packed (./packed_times.ts: varint differences, 1–3 bytes a hit instead
 * of 8), as the value's raw bytes, which KV stores without V8's serializer: a busy voter's
 * log of 600 an hour was 4.8 KB, read and written with each vote and past what one SQLite
 * page of the store holds. Logs written before hold a `Float64Array` or a plain array (a
 * plain array of 600 times took ~60 µs to deserialize, number by number), and are read the
 * same way; a time that does not pack (not a whole millisecond) keeps the `Float64Array`.
 * Only one caller's own hits race on its log key; they retry with jittered backoff
 * (lib/kv/atomic.ts `updateAtomically`), never a 500.
 *
 * @module
 */
import { updateAtomically } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { packTimes, unpackTimes } from "./packed_times.ts";

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
 * The stored log of one (bucket, key): accepted hit times, oldest first — packed bytes as
 * written now (./packed_times.ts), `{times}` in logs written before (a `Float64Array`, or a
 * `number[]` before that) and for times that do not pack.
 */
export type HitLog = Uint8Array | { times: Float64Array | number[] };

/**
 * The times of a stored log, in their order (none for no log).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const entry = await kv.get<HitLog>(["ratelimit_log", "post_votes", "u1"]);
 * const times = loggedTimes(entry.value); // e.g. [1_800_000_000_000, 1_800_000_004_000]
 * ```
 */
export function loggedTimes(log: HitLog | null): number[] {
  return [...logArray(log, 0)];
}

/** How many bytes a stored log takes as a value (for callers sizing an op). */
export function loggedBytes(log: HitLog | null): number {
  if (log instanceof Uint8Array) return log.length;
  return 9 * (log?.times?.length ?? 0);
}

/** The times of `log` as one kind of array, with `spare` free slots at the end. */
function logArray(log: HitLog | null, spare: number): Float64Array {
  if (log instanceof Uint8Array) return unpackTimes(log, spare) ?? new Float64Array(spare);
  const times = log?.times;
  if (!times) return new Float64Array(spare);
  const out = new Float64Array(times.length + spare);
  out.set(times);
  return out;
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
  const value = entry.value;
  const { times, kept } = timesInWindow(
    // One kind of array for the loops below (a packed log or a plain array is copied out).
    value !== null && "times" in value && value.times instanceof Float64Array
      ? value.times
      : logArray(value, 0),
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
  const log: HitLog = packTimes(times) ?? { times };
  op.check(entry).set(entry.key, log, {
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
