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
 * and each compressed or Blob copy a hit made of it — and an expired entry is let go at
 * the next store rather than when the bounds push it out, so in practice the cache holds
 * the pages filled in the last `ttlMs`, and never more than `maxBytes`.
 *
 * Where it sits (lib/app.ts): {@link PageCache.serve} wraps the route *outside* the
 * security headers, so an entry holds the finished response; {@link PageCache.hit} answers
 * at the front of the chain, before routing, headers and compression run, and keeps each
 * entry's brotli/gzip body beside it, so a hit never compresses again.
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
  expires: number;
  /** The body's bytes and those of its variants: the entry's share of the bound. */
  bytes: number;
  status: number;
  headers: [string, string][];
  body: Uint8Array;
  /**
   * What a hit answers, per encoding (`identity` uncompressed), made on the first hit that
   * asks for it: the body as a Blob and the final header list. A Blob body is not copied
   * per response, and a header list needs no `Headers` built per hit; measured on a
   * 100 KB page, `new Response` took ~7 µs so against 40–110 µs from a buffer.
   */
  variants: Partial<Record<Encoding | "identity", { body: Blob; headers: [string, string][] }>>;
}

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
  readonly #entries = new Map<string, Entry>();
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
    this.stats.hits++;
    const encoding = entry.body.byteLength >= COMPRESS_MIN_BYTES
      ? pickEncoding(req.headers.get("accept-encoding"))
      : null;
    let variant = entry.variants[encoding ?? "identity"];
    if (!variant) {
      variant = entry.variants[encoding ?? "identity"] = variantOf(entry, encoding);
      entry.bytes += variant.body.size;
      this.#bytes += variant.body.size;
      this.#evict();
    }
    return new Response(variant.body, { status: entry.status, headers: variant.headers });
  }

  /** Answer `req` from the cache, or through `render` (storing what may be shared). */
  async serve(req: Request, render: () => Promise<Response>): Promise<Response> {
    const key = this.keyOf(req);
    if (key === null) return await render();
    const now = this.#now();
    const hit = this.#entries.get(key);
    if (hit && hit.expires > now) {
      this.stats.hits++;
      return this.#respond(hit, "hit");
    }
    const pending = this.#pending.get(key);
    if (pending) {
      // Share the render already under way; a response that may not be shared is rendered
      // again for this caller.
      const entry = await pending;
      if (entry) {
        this.stats.hits++;
        return this.#respond(entry, "hit");
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
        expires: this.#now() + this.#ttl,
        bytes: body.byteLength,
        status: res.status,
        headers,
        body,
        variants: {},
      };
      if (generation === this.#generation) this.#store(key, entry);
      resolve(entry);
      return this.#respond(entry, "miss");
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
    this.#entries.clear();
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

  #respond(entry: Entry, how: "hit" | "miss"): Response {
    const headers = new Headers(entry.headers);
    headers.set(CACHE_HEADER, how);
    return new Response(entry.body as BodyInit, { status: entry.status, headers });
  }
}

/** A hit's body and headers for `encoding` (null: uncompressed), as compress.ts would send. */
function variantOf(
  entry: Entry,
  encoding: Encoding | null,
): { body: Blob; headers: [string, string][] } {
  const headers = new Headers(entry.headers);
  headers.set(CACHE_HEADER, "hit");
  appendVary(headers, "Accept-Encoding");
  if (!encoding) return { body: new Blob([entry.body as BlobPart]), headers: [...headers] };
  markEncoded(headers, encoding);
  return { body: new Blob([encode(entry.body, encoding) as BlobPart]), headers: [...headers] };
}
