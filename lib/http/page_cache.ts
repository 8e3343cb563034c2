/**
 * The signed-out page cache (docs/decisions.md#scale-out), after Discourse's
 * `Middleware::AnonymousCache`: a GET for a page from a visitor with no session cookie and
 * no `Authorization` header is answered from a shared in-process cache keyed by the URL and
 * the theme cookie (the only other input a page reads), so every signed-out visitor sees
 * the same bytes and none of them costs a render or a KV read.
 *
 * What is stored: only `200 text/html` responses (and Atom feeds, lib/feeds, which are
 * pages for feed readers) without `Set-Cookie`, from paths outside
 * `/api/`, `/auth/`, `/local-oauth/` and `/_parley/`. Signed-in requests never read or
 * fill it, so no page built for a user is ever shared.
 *
 * Freshness:
 * - A write through this instance drops the whole cache at once — every successful
 *   non-GET request ({@link PageCache.noteWrite}) and every domain write that drops the
 *   read cache (`invalidateReads`, lib/community/read_cache.ts, which also covers
 *   background writers such as the AI avatar). Its author is signed in and bypasses the
 *   cache anyway; other visitors see it on their next load.
 * - A write through another instance shows within `ttlMs` (1 s by default): entries
 *   expire. The bench (`deno task bench`, "page cache invalidation") measures this TTL
 *   against `kv.watch` on a version key; the TTL needs no write-path changes and no
 *   watcher per instance, and at any load above one request a second per URL it serves
 *   almost every request from memory, so it is the strategy used.
 * - Relative times ("5 minutes ago") are rendered with `<time datetime>`; a page is at most
 *   `ttlMs` old, so the text is right to the second it claims.
 *
 * Concurrent misses of one key share one render. The cache is bounded by entries and bytes
 * (least recently filled first out): the bytes are everything an entry holds — its body
 * and each compressed copy a hit made of it — and an expired entry is let go at the next
 * store rather than when the bounds push it out, so in practice the cache holds the pages
 * filled in the last `ttlMs`, and never more than `maxBytes` — but for one `ttlMs` after a
 * write drops the cache, when the dropped pages are kept aside (up to `maxBytes` more) so
 * that a refill rendering the same bytes keeps their compressed copies.
 *
 * Where it sits (lib/app.ts): {@link PageCache.serve} wraps the route *outside* the
 * security headers, so an entry holds the finished response; {@link PageCache.hit} answers
 * at the front of the chain, before routing, headers and compression run, and keeps each
 * entry's brotli/gzip body beside it, so a hit never compresses again.
 *
 * What a hit costs (issue 29, `--cpu-prof` and per-request CPU of the server under
 * autocannon, Deno 2.9.6): each variant is kept as a finished `Response` that is never sent
 * itself; a hit sends its `clone()` (~0.4 µs), where building a `Response` from 15 stored
 * headers took ~11 µs (every name and value validated again) and a Blob body went out as a
 * chunked stream. A request that arrives while its page is being filled waits for that
 * fill and gets the same compressed bytes ({@link PageCache.joinFill}) — before, each of
 * them compressed the page itself, 50 brotli runs of a 200 KB page a second under load.
 * A refill that renders the bytes its page already had keeps the compressed bodies; a page
 * whose bytes outlive one refill and are at most {@link BEST_QUALITY_MAX_BYTES} is
 * compressed once more at brotli's best quality (the home page: 2,920 → 2,649 bytes,
 * ~35 ms once per version instead of ~1 ms per fill), so pages that change every second
 * never pay for it.
 *
 * @module
 */

import {
  appendVary,
  COMPRESS_MIN_BYTES,
  encode,
  type Encoding,
  markEncoded,
  pickEncoding,
  zlibLoaded,
} from "./compress.ts";

/** Options of {@link PageCache}. */
export interface PageCacheOptions {
  /** Name of the session cookie; a request carrying it is signed in. */
  sessionCookie: string;
  /** How long an entry serves (ms); other instances' writes show within this. Default 1000. */
  ttlMs?: number;
  /** Most entries kept. Default 500. */
  maxEntries?: number;
  /** Most bytes kept: bodies and the copies made for hits. Default {@link PAGE_CACHE_BYTES}. */
  maxBytes?: number;
  /** Clock (ms) for expiry. Default `performance.now`. */
  now?: () => number;
}

/** The default byte bound of a {@link PageCache} (docs/decisions.md#memory). */
export const PAGE_CACHE_BYTES = 8 * 1024 * 1024;

interface Entry {
  /** Its cache key. */
  key: string;
  expires: number;
  /** The body's bytes and those of its variants: the entry's share of the bound. */
  bytes: number;
  status: number;
  headers: [string, string][];
  body: Uint8Array;
  /** Fills in a row that rendered exactly these bytes (1 for a new page version). */
  fills: number;
  /** What a hit answers, per encoding (`identity` uncompressed), made on first use. */
  variants: Partial<Record<Encoding | "identity", Variant>>;
}

/**
 * One encoding of an entry: a finished response that is never sent itself (a hit sends
 * its `clone()`), and whether its body is at the best compression.
 */
interface Variant {
  template: Response;
  best: boolean;
  /** Its body's length: its share of the cache's byte bound. */
  bytes: number;
}

/**
 * Largest page compressed at the best quality once its bytes outlive a refill: brotli 11
 * takes ~35 ms on the 26 KB home page but ~500 ms on a 200 KB question page (and gains
 * less there: 9.6 → 8.3 KB), which would stall every request behind it.
 */
export const BEST_QUALITY_MAX_BYTES = 64 * 1024;

const SKIP_PREFIXES = ["/api/", "/auth/", "/local-oauth/", "/_parley/"];

/** A cached page's response header that says where it came from (`hit` or `miss`). */
export const CACHE_HEADER = "x-parley-cache";

/**
 * A page cache for one app instance.
 *
 * @example
 * ```ts
 * const cache = new PageCache({ sessionCookie: "parley_session" });
 * const res = await cache.serve(
 *   new Request("http://localhost/"),
 *   () => Promise.resolve(new Response("<p>hi</p>", { headers: { "content-type": "text/html" } })),
 * );
 * ```
 */
export class PageCache {
  #entries = new Map<string, Entry>();
  /** The entries from before the last drop: a refill of the same bytes keeps their variants. */
  #retired = new Map<string, Entry>();
  /** When {@link PageCache.drop}'s retired entries stop being useful (one TTL after it). */
  #retiredUntil = 0;
  readonly #pending = new Map<string, Promise<Entry | null>>();
  readonly #ttl: number;
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  readonly #now: () => number;
  readonly #cookiePrefix: string;
  #bytes = 0;
  /** Bumped on every drop: a render that started before a drop is not stored. */
  #generation = 0;
  /** Hits and misses since start (for the bench and tests). */
  readonly stats = { hits: 0, misses: 0, drops: 0 };

  constructor(opts: PageCacheOptions) {
    this.#ttl = opts.ttlMs ?? 1000;
    this.#maxEntries = opts.maxEntries ?? 500;
    this.#maxBytes = opts.maxBytes ?? PAGE_CACHE_BYTES;
    this.#now = opts.now ?? (() => performance.now());
    this.#cookiePrefix = `${opts.sessionCookie}=`;
  }

  /** The cache key of a request, or null when it may not be served from the cache. */
  keyOf(req: Request): string | null {
    if (req.method !== "GET") return null;
    if (req.headers.has("authorization")) return null;
    const cookie = req.headers.get("cookie") ?? "";
    let theme = "";
    if (cookie !== "") {
      for (const part of cookie.split(";")) {
        const p = part.trim();
        if (p.startsWith(this.#cookiePrefix) && p.length > this.#cookiePrefix.length) return null;
        if (p.startsWith("parley_theme=")) theme = p.slice(13);
      }
    }
    const url = req.url;
    const pathStart = url.indexOf("/", url.indexOf("//") + 2);
    const path = pathStart === -1 ? "/" : url.slice(pathStart);
    for (const prefix of SKIP_PREFIXES) if (path.startsWith(prefix)) return null;
    if (path === "/api" || path.startsWith("/api?")) return null;
    return `${theme}\u0000${url}`;
  }

  /**
   * A fresh entry's response for `req` (compressed per its `Accept-Encoding`, as
   * lib/http/compress.ts would), or null when `req` must go through the app.
   */
  hit(req: Request): Response | null {
    if (this.#entries.size === 0) return null;
    const key = this.keyOf(req);
    if (key === null) return null;
    const entry = this.#entries.get(key);
    if (!entry || entry.expires <= this.#now()) return null;
    // A new instance's first hits that would compress, before node:zlib has loaded, go
    // through the app, which gzips them without it (compress.ts).
    if (!zlibLoaded() && this.#wantsEncoding(entry, req) !== null) return null;
    this.stats.hits++;
    return this.#answer(entry, req, "hit");
  }

  /**
   * When `req`'s page is being filled now (its entry expired or was dropped, and another
   * request is rendering it): that fill's response for `req`, as a hit, once it is done —
   * or null from the promise when what it rendered may not be shared. Null (no promise)
   * when no fill is under way.
   *
   * @example
   * ```ts
   * const cache = new PageCache({ sessionCookie: "parley_session" });
   * const req = new Request("http://localhost/");
   * const res = cache.hit(req) ?? await cache.joinFill(req);
   * ```
   */
  joinFill(req: Request): Promise<Response | null> | null {
    if (this.#pending.size === 0) return null;
    const key = this.keyOf(req);
    if (key === null) return null;
    const pending = this.#pending.get(key);
    if (!pending) return null;
    return pending.then((entry) => {
      if (!entry) return null;
      this.stats.hits++;
      return this.#answer(entry, req, "hit");
    });
  }

  /** Answer `req` from the cache, or through `render` (storing what may be shared). */
  async serve(req: Request, render: () => Promise<Response>): Promise<Response> {
    const key = this.keyOf(req);
    if (key === null) return await render();
    const now = this.#now();
    const hit = this.#entries.get(key);
    if (hit && hit.expires > now) {
      this.stats.hits++;
      return this.#answer(hit, req, "hit");
    }
    const pending = this.#pending.get(key);
    if (pending) {
      // Share the render already under way; a response that may not be shared is rendered
      // again for this caller.
      const entry = await pending;
      if (entry) {
        this.stats.hits++;
        return this.#answer(entry, req, "hit");
      }
      return await render();
    }
    this.stats.misses++;
    const generation = this.#generation;
    let resolve!: (e: Entry | null) => void;
    const shared = new Promise<Entry | null>((r) => resolve = r);
    this.#pending.set(key, shared);
    try {
      const res = await render();
      if (!this.#storable(res)) {
        resolve(null);
        return res;
      }
      const body = new Uint8Array(await res.arrayBuffer());
      const headers: [string, string][] = [];
      res.headers.forEach((v, k) => headers.push([k, v]));
      const entry: Entry = {
        key,
        expires: this.#now() + this.#ttl,
        bytes: body.byteLength,
        status: res.status,
        headers,
        body,
        fills: 1,
        variants: {},
      };
      this.#carryOver(key, entry);
      if (generation === this.#generation) this.#store(key, entry);
      resolve(entry);
      return this.#answer(entry, req, "miss");
    } catch (err) {
      resolve(null);
      throw err;
    } finally {
      if (this.#pending.get(key) === shared) this.#pending.delete(key);
    }
  }

  /** Drop every cached page (a write changed what pages show). */
  drop(): void {
    this.#generation++;
    // Renders under way started before the write: later requests must not join them.
    this.#pending.clear();
    if (this.#entries.size === 0) return;
    this.stats.drops++;
    this.#retired = this.#entries;
    this.#retiredUntil = this.#now() + this.#ttl;
    this.#entries = new Map();
    this.#bytes = 0;
  }

  /**
   * Called after every request through this instance: a successful write drops the cache,
   * so the next signed-out load shows it.
   */
  noteWrite(req: Request, res: Response): void {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return;
    if (res.status < 400) this.drop();
  }

  /** Entries held now. */
  get size(): number {
    return this.#entries.size;
  }

  #storable(res: Response): boolean {
    return res.status === 200 && !res.headers.has("set-cookie") &&
      /^(text\/html|application\/atom\+xml)\b/.test(res.headers.get("content-type") ?? "") &&
      !/\bno-store\b|\bprivate\b/.test(res.headers.get("cache-control") ?? "");
  }

  /** Bytes held now: bodies and the variants hits made of them. */
  get bytes(): number {
    return this.#bytes;
  }

  #store(key: string, entry: Entry): void {
    const old = this.#entries.get(key);
    if (old) {
      this.#bytes -= old.bytes;
      this.#entries.delete(key);
    }
    // Entries are filled in expiry order (one TTL for all): the expired ones are in front.
    const now = this.#now();
    if (this.#retired.size > 0 && now > this.#retiredUntil) this.#retired = new Map();
    for (const [k, e] of this.#entries) {
      if (e.expires > now) break;
      this.#entries.delete(k);
      this.#bytes -= e.bytes;
    }
    if (entry.bytes > this.#maxBytes / 4) return;
    this.#entries.set(key, entry);
    this.#bytes += entry.bytes;
    this.#evict();
  }

  /** Drop the oldest entries until both bounds hold. */
  #evict(): void {
    while (this.#entries.size > this.#maxEntries || this.#bytes > this.#maxBytes) {
      const [k, e] = this.#entries.entries().next().value!;
      this.#entries.delete(k);
      this.#bytes -= e.bytes;
    }
  }

  /**
   * When the page rendered the same status, headers and bytes as its previous entry (still
   * here, expired, or dropped by the last write): keep that entry's compressed variants,
   * and count how many fills the bytes have lasted.
   */
  #carryOver(key: string, entry: Entry): void {
    const old = this.#entries.get(key) ?? this.#retired.get(key);
    this.#retired.delete(key);
    if (!old || !sameResponse(old, entry)) return;
    entry.body = old.body;
    entry.fills = old.fills + 1;
    const best = wantsBest(entry);
    for (const [encoding, variant] of Object.entries(old.variants)) {
      // A variant made fast is made again at the best quality once the bytes proved stable.
      if (encoding === "identity" || variant.best === best) {
        entry.variants[encoding as Encoding | "identity"] = variant;
        entry.bytes += variant.bytes;
      }
    }
  }

  /** The encoding a hit on `entry` would need for `req` that it has not made yet, or null. */
  #wantsEncoding(entry: Entry, req: Request): Encoding | null {
    if (entry.body.byteLength < COMPRESS_MIN_BYTES) return null;
    const encoding = pickEncoding(req.headers.get("accept-encoding"));
    return encoding && !entry.variants[encoding] ? encoding : null;
  }

  /**
   * `entry`'s answer for `req`'s `Accept-Encoding`: a clone of its variant's response (a
   * variant made now counts against the byte bound while the entry is held).
   */
  #answer(entry: Entry, req: Request, how: "hit" | "miss"): Response {
    let encoding = entry.body.byteLength >= COMPRESS_MIN_BYTES
      ? pickEncoding(req.headers.get("accept-encoding"))
      : null;
    // Before node:zlib has loaded (a new instance's first responses) a page goes out as it
    // is; on the app's path compress.ts then gzips it without node:zlib.
    if (encoding && !entry.variants[encoding] && !zlibLoaded()) encoding = null;
    let variant = entry.variants[encoding ?? "identity"];
    if (!variant) {
      variant = entry.variants[encoding ?? "identity"] = variantOf(entry, encoding);
      entry.bytes += variant.bytes;
      if (this.#entries.get(entry.key) === entry) {
        this.#bytes += variant.bytes;
        this.#evict();
      }
    }
    const res = variant.template.clone();
    if (how === "miss") res.headers.set(CACHE_HEADER, "miss");
    return res;
  }
}

/** True when `a` and `b` are the same response: status, headers and body bytes. */
function sameResponse(a: Entry, b: Entry): boolean {
  if (a.status !== b.status || a.body.byteLength !== b.body.byteLength) return false;
  if (a.headers.length !== b.headers.length) return false;
  for (let i = 0; i < a.headers.length; i++) {
    if (a.headers[i][0] !== b.headers[i][0] || a.headers[i][1] !== b.headers[i][1]) return false;
  }
  return sameBytes(a.body, b.body);
}

/**
 * True when `a` and `b` hold the same bytes, compared a word at a time where both are
 * aligned (a 200 KB page in well under a millisecond, once per refill) — without
 * node:buffer, which would load Node compatibility into a new instance's start.
 */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  let i = 0;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const words = a.byteLength >>> 2;
    const wa = new Uint32Array(a.buffer, a.byteOffset, words);
    const wb = new Uint32Array(b.buffer, b.byteOffset, words);
    for (; i < words; i++) if (wa[i] !== wb[i]) return false;
    i = words << 2;
  }
  for (; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** True when `entry`'s bytes have outlived a refill and are small enough for the best quality. */
function wantsBest(entry: Entry): boolean {
  return entry.fills >= 2 && entry.body.byteLength <= BEST_QUALITY_MAX_BYTES;
}

/** A hit's response for `encoding` (null: uncompressed), as compress.ts would send it. */
function variantOf(entry: Entry, encoding: Encoding | null): Variant {
  const headers = new Headers(entry.headers);
  headers.set(CACHE_HEADER, "hit");
  appendVary(headers, "Accept-Encoding");
  const init = { status: entry.status, headers };
  if (!encoding) {
    // The identity response shares the entry's body: no bytes of its own.
    return { template: new Response(entry.body as BodyInit, init), best: false, bytes: 0 };
  }
  const best = wantsBest(entry);
  markEncoded(headers, encoding);
  const body = encode(entry.body, encoding, { best });
  return { template: new Response(body as BodyInit, init), best, bytes: body.byteLength };
}
