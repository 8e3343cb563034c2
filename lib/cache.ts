/**
 * Process-local caches: {@link LruCache}, the one bounded map (by entries, by a size
 * measure, by age) that every cache of this process keeps its entries in, and
 * {@link perStore}, one value per KV store made on first use (tests run many stores in
 * one process, so nothing kept for one store may leak into another).
 *
 * Nothing here is shared data: losing any of it costs a render or a KV read, never a
 * wrong answer, so another instance never needs it.
 *
 * @module
 */

/** Options of {@link LruCache}. */
export interface LruCacheOptions<K, V> {
  /** Most entries kept. */
  maxEntries: number;
  /** Most total {@link LruCacheOptions.sizeOf} kept (default unbounded). */
  maxSize?: number;
  /** An entry's share of `maxSize` (default 0). */
  sizeOf?: (key: K, value: V) => number;
  /** An entry bigger than this is not kept, so one huge value cannot flush the rest (default `maxSize`). */
  maxEntrySize?: number;
  /** How long an entry serves, in ms of {@link LruCacheOptions.now} (default: until evicted). */
  ttlMs?: number;
  /** The clock for expiry, in ms (default `performance.now`). */
  now?: () => number;
}

interface Slot<V> {
  value: V;
  size: number;
  expires: number;
  /** Looked up since it was stored or last passed over for eviction. */
  used: boolean;
}

/**
 * A map bounded by entries and total size that drops the least recently used entry first,
 * and whose entries expire after a time to live. The order is kept the "second chance"
 * way: a JavaScript `Map` iterates in insertion order, a store puts an entry at the young
 * end, and a lookup only marks the entry used (one field write; moving it on every hit
 * cost a `delete` and a `set`). To make room, the oldest entry goes unless it was used
 * since it got there, in which case it moves to the young end, unmarked, and the next
 * oldest is considered. So an entry used at least once per full turn of the cache is
 * never dropped, and an expired entry at the old end goes at once.
 *
 * @example
 * ```ts
 * const html = new LruCache<string, string>({
 *   maxEntries: 1000,
 *   maxSize: 1 << 20,
 *   sizeOf: (key, value) => key.length + value.length,
 * });
 * const page = html.get("home") ?? html.set("home", "<p>hi</p>");
 *
 * const recent = new LruCache<string, number>({ maxEntries: 100, ttlMs: 1000 });
 * recent.set("u1", 3);
 * recent.get("u1"); // 3 within a second, then undefined
 * ```
 */
export class LruCache<K, V> {
  readonly #slots = new Map<K, Slot<V>>();
  readonly #maxEntries: number;
  readonly #maxSize: number;
  readonly #maxEntrySize: number;
  readonly #sizeOf: ((key: K, value: V) => number) | undefined;
  readonly #ttlMs: number;
  readonly #now: () => number;
  #size = 0;
  /** Lookups answered and missed since start (for tests and the bench). */
  readonly stats = { hits: 0, misses: 0 };

  constructor(options: LruCacheOptions<K, V>) {
    this.#maxEntries = Math.max(1, options.maxEntries);
    this.#maxSize = options.maxSize ?? Infinity;
    this.#maxEntrySize = Math.min(options.maxEntrySize ?? Infinity, this.#maxSize);
    this.#sizeOf = options.sizeOf;
    this.#ttlMs = options.ttlMs ?? Infinity;
    this.#now = options.now ?? (() => performance.now());
  }

  /** The live value under `key` (now used), or undefined. */
  get(key: K): V | undefined {
    const slot = this.#live(key);
    if (slot === undefined) {
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    slot.used = true;
    return slot.value;
  }

  /** The live value under `key` without counting a lookup or marking it used. */
  peek(key: K): V | undefined {
    return this.#live(key)?.value;
  }

  /**
   * Keep `value` under `key` at the young end, for `ttlMs` (default: the cache's), first
   * dropping the least recently used entries the bounds require. A value too big to keep
   * replaces nothing and is not kept. Returns `value`.
   */
  set(key: K, value: V, ttlMs: number = this.#ttlMs): V {
    this.delete(key);
    const size = this.#sizeOf ? this.#sizeOf(key, value) : 0;
    if (size > this.#maxEntrySize) return value;
    this.#dropExpired();
    this.#makeRoom(size);
    const expires = ttlMs === Infinity ? Infinity : this.#now() + ttlMs;
    this.#slots.set(key, { value, size, expires, used: false });
    this.#size += size;
    return value;
  }

  /**
   * Count `size` for the entry under `key` from now on — for a value whose size is known
   * only later (a load's promise, once it resolves) — then drop entries from the old end
   * until the bounds hold; an entry now over `maxEntrySize` goes. False when there is no
   * such entry (any more).
   */
  resize(key: K, size: number): boolean {
    const slot = this.#slots.get(key);
    if (slot === undefined) return false;
    if (size > this.#maxEntrySize) return !this.delete(key);
    this.#size += size - slot.size;
    slot.size = size;
    if (this.#size > this.#maxSize) this.#makeRoom(0, 0);
    return this.#slots.get(key) === slot;
  }

  /** Drop the entry under `key`; true when there was one. */
  delete(key: K): boolean {
    const slot = this.#slots.get(key);
    if (slot === undefined) return false;
    this.#slots.delete(key);
    this.#size -= slot.size;
    return true;
  }

  /** Drop everything. */
  clear(): void {
    this.#slots.clear();
    this.#size = 0;
  }

  /** Entries held now (expired ones included until they are looked up or evicted). */
  get size(): number {
    return this.#slots.size;
  }

  /** Total {@link LruCacheOptions.sizeOf} of the entries held now. */
  get totalSize(): number {
    return this.#size;
  }

  /**
   * Drop expired entries from the old end, up to the first live one: an expired entry
   * answers nothing, and without this it would hold its memory until the bounds pushed it
   * out (a one-second cache of a hundred distinct pages kept them all for good).
   */
  #dropExpired(): void {
    let now: number | undefined;
    for (const [key, slot] of this.#slots) {
      if (slot.expires === Infinity || slot.expires > (now ??= this.#now())) return;
      this.#slots.delete(key);
      this.#size -= slot.size;
    }
  }

  /** Drop entries from the old end until `entries` more entries of `size` in all fit. */
  #makeRoom(size: number, entries = 1): void {
    let now: number | undefined;
    while (
      this.#slots.size > 0 &&
      (this.#slots.size + entries > this.#maxEntries || this.#size + size > this.#maxSize)
    ) {
      const [oldest, slot] = this.#slots.entries().next().value!;
      this.#slots.delete(oldest);
      if (slot.used && (slot.expires === Infinity || slot.expires > (now ??= this.#now()))) {
        // A second chance: it was used since it got here.
        slot.used = false;
        this.#slots.set(oldest, slot);
      } else {
        this.#size -= slot.size;
      }
    }
  }

  #live(key: K): Slot<V> | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined) return undefined;
    if (slot.expires !== Infinity && slot.expires <= this.#now()) {
      this.delete(key);
      return undefined;
    }
    return slot;
  }
}

/**
 * `text` as one flat string. A string built by concatenation (a render, a template
 * literal) is a tree of pieces in V8, each piece an object of its own: kept in a cache,
 * such a tree costs several times its characters (measured: 19 MB of tree nodes under
 * 11 MB of text in the rendered-parts cache). Flattened, it costs one byte a character
 * (two when it holds a character over U+00FF) plus a header, which is what a cache's byte
 * bound counts. Converting a string to a number flattens it in place (V8's
 * `String::Flatten`); the GC then drops the tree.
 *
 * @example
 * ```ts
 * const html = flatString(["<li>", "a", "</li>"].reduce((a, b) => a + b));
 * html; // "<li>a</li>"
 * ```
 */
export function flatString(text: string): string {
  Number(text);
  return text;
}

/**
 * An estimate of the memory a plain value holds, in bytes: two a UTF-16 code unit of each
 * string (an upper bound for V8's one-byte strings) plus a header, eight a number, and a
 * fixed cost per object, array element, property, Map or Set entry — for bounding a cache
 * of loaded records by bytes. Walks at most `maxDepth` levels (deeper values count as 64).
 *
 * @example
 * ```ts
 * approximateBytes({ title: "Why KV?", votes: 3 }); // 16 + (8 + 30) + (8 + 8) = 70
 * ```
 */
export function approximateBytes(value: unknown, maxDepth = 12): number {
  switch (typeof value) {
    case "string":
      return 2 * value.length + 16;
    case "number":
    case "bigint":
    case "boolean":
      return 8;
    case "object":
      break;
    default:
      return 0;
  }
  if (value === null) return 0;
  if (maxDepth === 0) return 64;
  const depth = maxDepth - 1;
  let n = 16;
  if (Array.isArray(value)) {
    for (const item of value) n += 8 + approximateBytes(item, depth);
  } else if (value instanceof Map) {
    for (const [k, v] of value) n += 16 + approximateBytes(k, depth) + approximateBytes(v, depth);
  } else if (value instanceof Set) {
    for (const item of value) n += 8 + approximateBytes(item, depth);
  } else if (ArrayBuffer.isView(value)) {
    n += value.byteLength;
  } else if (!(value instanceof Date)) {
    for (const key in value) {
      n += 8 + approximateBytes((value as Record<string, unknown>)[key], depth);
    }
  }
  return n;
}

/**
 * One value per KV store, made by `make` on the store's first use and kept as long as the
 * store is (a `WeakMap` keyed by the store). Arguments after the store reach `make` on
 * that first use only.
 *
 * @example
 * ```ts
 * const counters = perStore(() => ({ writes: 0 }));
 * declare const kv: Deno.Kv;
 * counters(kv).writes++;
 * ```
 */
export function perStore<T, A extends unknown[] = []>(
  make: (kv: Deno.Kv, ...args: A) => T,
): (kv: Deno.Kv, ...args: A) => T {
  const made = new WeakMap<Deno.Kv, T>();
  return (kv, ...args) => {
    let value = made.get(kv);
    if (value === undefined && !made.has(kv)) made.set(kv, value = make(kv, ...args));
    return value as T;
  };
}
