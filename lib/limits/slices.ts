/**
 * A rate limit that costs no commit per request: each process claims slices of a key's
 * budget with one `sum` and serves hits from memory (the agent API's 60 a minute per key).
 *
 * The window of `windowMs` is cut into {@link SUB_BUCKETS} sub-buckets of `B = windowMs / 9`.
 * A process out of tokens for a key claims `s` more: one atomic `sum(+s)` on
 * `["ratelimit_claims", bucket, key, subBucketIndex]` (never conflicts, so never a
 * `ContentionError`, never a 500), then one `getMany` of the sub-buckets that overlap the
 * window (one more before it: a full key commits nothing). Everything claimed in them,
 * this claim included, is T; the process may use `min(s, limit − (T − s))` of it, only
 * within the current sub-bucket. The slice doubles on
 * each claim within one sub-bucket (1, 2, 4 … up to `ceil(limit / 8)`), so a slow client costs
 * one claim per hit and a busy key one claim per `limit / 8` hits. Concurrent hits in one
 * process share one claim in flight.
 *
 * Bounds (tested in ./slices_test.ts):
 * - Overshoot: none. Every claim is checked against all claims before it in the sub-buckets
 *   that overlap its window (`sum` and the read are linearizable), and tokens are spent only
 *   in the sub-bucket they were claimed in, so no window of `windowMs` — wherever it starts,
 *   across all processes — serves more than `limit` hits.
 * - Undershoot: a claimed token is counted whether it is used or not, and a sub-bucket
 *   counts whole, so a key may be refused for up to one sub-bucket (`windowMs / 9`, 6.7 s of a
 *   minute) longer than an exact log would, and each process may waste at most
 *   `ceil(limit / 8) − 1` tokens per sub-bucket.
 * - Cost: at most one commit and two `getMany` per claim; a refused key reads once per
 *   sub-bucket and process, then answers from memory.
 *
 * @module
 */
import { LruCache, perStore } from "../cache.ts";
import { commit } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { RateLimitResult } from "./window.ts";

/** Sub-buckets per window (one `getMany` reads the ≤10 that overlap a window). */
export const SUB_BUCKETS = 9;

interface Local {
  index: number;
  tokens: number;
  /** Size of the last claim in this sub-bucket (the next one doubles it). */
  slice: number;
  /** Claimed in the window by all processes, as of this process's last claim. */
  total: number;
  /** Earliest sub-bucket with claims, as of the last claim. */
  oldest: number;
  /** Known refused for the rest of this sub-bucket. */
  refused: boolean;
  claiming: Promise<void> | null;
}

const MAX_KEYS = 10_000;
/** Each store's local budgets by bucket and key (the least recently hit dropped first). */
const locals = perStore(() => new LruCache<string, Local>({ maxEntries: MAX_KEYS }));

/**
 * Count a hit against `bucket`/`key`: allowed when the key's claimed budget has room.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await hitSlicedLimit(kv, "agent", "key-id", 60, 60_000, Date.now());
 * if (!r.allowed) console.log(`retry in ${r.retryAfter} s`);
 * ```
 */
export async function hitSlicedLimit(
  kv: Deno.Kv,
  bucket: string,
  key: string,
  limit: number,
  windowMs: number,
  now: number,
): Promise<RateLimitResult> {
  const size = Math.ceil(windowMs / SUB_BUCKETS);
  const index = Math.floor(now / size);
  const map = locals(kv);
  const id = `${bucket}\u0000${key}`;
  let local = map.get(id);
  if (!local || local.index !== index) {
    const total = local && local.index > index - SUB_BUCKETS ? local.total : 0;
    local = {
      index,
      tokens: 0,
      slice: 0,
      total,
      oldest: local?.oldest ?? index,
      refused: false,
      claiming: null,
    };
    map.set(id, local);
  }
  const maxSlice = Math.max(1, Math.ceil(limit / 8));
  for (let attempt = 0; attempt < 1000; attempt++) {
    if (local.tokens > 0) {
      local.tokens--;
      return {
        allowed: true,
        limit,
        remaining: Math.max(0, limit - local.total + local.tokens),
        resetAt: (local.oldest + 1) * size + windowMs,
        retryAfter: 0,
      };
    }
    if (local.refused) break;
    if (local.claiming) {
      await local.claiming;
      continue;
    }
    const l = local;
    l.claiming = (async () => {
      // The sub-buckets a window ending now overlaps: those that can hold a time > now − W.
      const first = Math.floor((now - windowMs + 1) / size);
      const ids: number[] = [];
      for (let j = Math.max(first, index - SUB_BUCKETS); j <= index; j++) ids.push(j);
      const read = async () => {
        const got = await kv.getMany<Deno.KvU64[]>(
          ids.map((j) => keys.rateLimitClaims(bucket, key, j)),
        );
        let total = 0;
        let oldest = index;
        got.forEach((e, i) => {
          const n = e.value ? Number(e.value.value) : 0;
          if (n > 0 && ids[i] < oldest) oldest = ids[i];
          total += n;
        });
        l.oldest = oldest;
        return total;
      };
      // Look before claiming, so a full key commits nothing.
      const before = await read();
      const s = Math.min(maxSlice, Math.max(1, l.slice * 2), limit - before);
      if (s <= 0) {
        l.total = before;
        l.refused = true;
        return;
      }
      l.slice = s;
      // The same op drops the sub-bucket that just left every window (`sum` keys cannot
      // expire): a key keeps at most the ~10 sub-buckets it used last.
      await commit(kv, (op) =>
        op.sum(keys.rateLimitClaims(bucket, key, index), BigInt(s))
          .delete(keys.rateLimitClaims(bucket, key, index - SUB_BUCKETS - 2)));
      // Everything claimed before this claim (and concurrent ones) is in `total`.
      const total = await read();
      const granted = Math.max(0, Math.min(s, limit - (total - s)));
      // What counts as spent: claims of others and this process, less what this claim
      // could not grant (tokens that exist only in the counter).
      l.total = total - s + granted;
      l.tokens += granted;
      if (granted === 0) l.refused = true;
    })();
    try {
      await l.claiming;
    } finally {
      l.claiming = null;
    }
  }
  // Refused: room again when the oldest claimed sub-bucket leaves the window.
  const freesAt = (local.oldest + 1) * size + windowMs;
  return {
    allowed: false,
    limit,
    remaining: 0,
    resetAt: freesAt,
    retryAfter: Math.max(1, Math.ceil((freesAt - now) / 1000)),
  };
}
