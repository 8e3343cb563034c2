/**
 * A short-lived read-through cache for hot public reads (the home feed), kept per KV
 * store. Concurrent misses share one load, and writes made through this process drop
 * the cache at once, so a person sees their own question, answer or vote on the next
 * load; writes by other instances show within the TTL. Nothing here is needed by
 * another instance (docs/decisions.md#storage): losing it only costs a KV read. The map is
 * bounded by entries and by bytes ({@link MAX_BYTES}: a loaded value is counted by
 * `approximateBytes` once it resolves — a thread page of 30 long answers is ~600 KB, so a
 * count alone would allow 120 MB); when it is full, the least recently used entry goes
 * (lib/cache.ts), and an expired entry goes at the next store.
 *
 * @module
 */
import { approximateBytes, LruCache, perStore } from "../cache.ts";

/** Most entries kept per store (queries are user-controlled, so the map is bounded). */
export const MAX_ENTRIES = 200;
/** Most bytes of loaded values kept per store (docs/decisions.md#memory). */
export const MAX_BYTES = 6 * 1024 * 1024;

/** Each store's loads under way or done, by key (expiring per entry). */
const reads = perStore(() =>
  new LruCache<string, Promise<unknown>>({
    maxEntries: MAX_ENTRIES,
    maxSize: MAX_BYTES,
    // A load under way counts nothing until it resolves (then `resize`).
    maxEntrySize: MAX_BYTES / 4,
  })
);

/**
 * The value cached under `key`, loading it with `load` when missing or older than
 * `ttlMs`. A failed load is not cached.
 *
 * @example
 * ```ts
 * import { type FeedQuery, findQuestions } from "@/lib/community/questions/feed.ts";
 * declare const kv: Deno.Kv;
 * declare const query: FeedQuery;
 * const now = Date.now();
 * const feed = await cachedRead(
 *   kv,
 *   `feed:${JSON.stringify(query)}`,
 *   1000,
 *   () => findQuestions(kv, query, now),
 * );
 * ```
 */
export function cachedRead<T>(
  kv: Deno.Kv,
  key: string,
  ttlMs: number,
  load: () => Promise<T>,
): Promise<T> {
  const entries = reads(kv);
  const hit = entries.get(key);
  if (hit) return hit as Promise<T>;
  const value = load();
  entries.set(key, value, ttlMs);
  value.then(
    (loaded) => {
      if (entries.peek(key) === value) entries.resize(key, approximateBytes(loaded));
    },
    () => {
      if (entries.peek(key) === value) entries.delete(key);
    },
  );
  return value;
}

/**
 * A JSON response from {@link cachedRead}: the body is serialized once per load, and
 * every hit answers a fresh `Response` of that text.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const res = await cachedJson(kv, "api:total", 1000, () => Promise.resolve({ total: 3 }));
 * ```
 */
export async function cachedJson(
  kv: Deno.Kv,
  key: string,
  ttlMs: number,
  load: () => Promise<unknown>,
): Promise<Response> {
  const body = await cachedRead(kv, `json:${key}`, ttlMs, async () => JSON.stringify(await load()));
  return new Response(body, { headers: { "content-type": "application/json" } });
}

/**
 * Bytes of loaded values a store's read cache holds now (for tests and the bench).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * readCacheBytes(kv) <= MAX_BYTES; // true
 * ```
 */
export function readCacheBytes(kv: Deno.Kv): number {
  return reads(kv).totalSize;
}

/**
 * Drop every cached read of a store; called by the writes that change what they show.
 *
 * @example
 * ```ts
 * import { commit } from "@/lib/kv/atomic.ts";
 * declare const kv: Deno.Kv;
 * await commit(kv, (op) => op.set(["questions", "q-1"], { title: "Why KV?" }));
 * invalidateReads(kv);
 * ```
 */
export function invalidateReads(kv: Deno.Kv): void {
  reads(kv).clear();
  for (const fn of listeners(kv)) fn();
}

const listeners = perStore(() => new Set<() => void>());

/**
 * Call `fn` whenever {@link invalidateReads} drops a store's reads (the signed-out page
 * cache, lib/http/page_cache.ts, drops its pages then). Returns the unsubscribe function.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const stop = onReadsInvalidated(kv, () => console.log("dropped"));
 * stop();
 * ```
 */
export function onReadsInvalidated(kv: Deno.Kv, fn: () => void): () => void {
  const set = listeners(kv);
  set.add(fn);
  return () => set.delete(fn);
}
