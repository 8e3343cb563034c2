/**
 * Response compression per `Accept-Encoding` (docs/decisions.md#scale-out): brotli or gzip for
 * text responses over 1 KiB, with `Vary: Accept-Encoding` on every response that could
 * have been compressed. Never touched: `text/event-stream` (streams must flush event by
 * event), responses that already carry a `Content-Encoding` (the pre-compressed build
 * assets of lib/http/static.ts), `Cache-Control: no-transform`, HEAD, 204 and 304.
 *
 * Pages are rendered to a string anyway, so the body is compressed in one piece: brotli
 * at a quality that is quick per request (build assets get the slow, best quality once,
 * at build time — {@linkcode precompress}).
 *
 * `node:zlib` is imported after a new instance's first response ({@link loadZlib}, called by
 * main.ts once that response is sent; a second compressible response starts it here): on
 * Deno 2.9 the first `node:` module a process imports loads Node compatibility, ~20 ms of a
 * cold start (Deno 2.5 has it in its snapshot). Until it has loaded, responses are gzipped
 * by the built-in `CompressionStream` (under a millisecond for a page) — the same encoding
 * rules, only gzip where brotli would follow.
 *
 * @module
 */

/** The encodings Parley sends, best first. */
export type Encoding = "br" | "gzip";

/** Bodies shorter than this go out as they are: compression would not pay. */
export const COMPRESS_MIN_BYTES = 1024;

type Zlib = typeof import("node:zlib");

let zlib: Zlib | null = null;
let zlibLoading: Promise<Zlib> | null = null;
/** Compressible responses sent before node:zlib started loading. */
let coldResponses = 0;

/**
 * `node:zlib`, imported once (later calls share it); {@link encode} needs it loaded.
 *
 * @example
 * ```ts
 * await loadZlib();
 * const br = encode(new TextEncoder().encode("hello ".repeat(500)), "br");
 * ```
 */
export function loadZlib(): Promise<Zlib> {
  zlibLoading ??= import("node:zlib").then((m) => zlib = m).catch((err) => {
    zlibLoading = null;
    throw err;
  });
  return zlibLoading;
}

/**
 * True once `node:zlib` has loaded, so {@link encode} can run (a page cache hit that would
 * encode goes through the app until then).
 *
 * @example
 * ```ts
 * if (!zlibLoaded()) await loadZlib();
 * ```
 */
export function zlibLoaded(): boolean {
  return zlib !== null;
}

/**
 * Brotli quality per response: fast enough per request, most of the gain of 11. A page
 * compressed per request — a signed-in person's, never cached — spent 43% of its main
 * thread on brotli at quality 5: the 193 KB signed-in 30-answer question page took ~1.8 ms
 * to become 10,595 bytes, at 4 ~1.2 ms (from the rates) for 11,774 (+11% bytes); the page
 * served 240 → 283 req/s (`wrk`, 10 connections, alternating runs). Cached pages are sent
 * at 11 once their bytes prove stable (./page_cache.ts), so only per-request bodies make
 * this trade.
 */
const DYNAMIC_BROTLI_QUALITY = 4;

/**
 * The encoding to use for an `Accept-Encoding` header: `br` when accepted, else `gzip`,
 * else null. `q=0` refuses an encoding; `*` accepts those not named.
 *
 * @example
 * ```ts
 * pickEncoding("gzip, deflate, br"); // "br"
 * pickEncoding("gzip;q=1, br;q=0"); // "gzip"
 * pickEncoding(null); // null
 * ```
 */
export function pickEncoding(acceptEncoding: string | null): Encoding | null {
  if (!acceptEncoding) return null;
  // Browsers send a handful of distinct values: parse each once (bounded, as a client can
  // send any string).
  let picked = pickedEncodings.get(acceptEncoding);
  if (picked === undefined) {
    if (pickedEncodings.size >= PICKED_ENCODINGS_MAX) pickedEncodings.clear();
    const accepts = acceptance(acceptEncoding);
    picked = accepts("br") ? "br" : accepts("gzip") ? "gzip" : null;
    pickedEncodings.set(acceptEncoding, picked);
  }
  return picked;
}

/** Most `Accept-Encoding` values whose pick is remembered. */
const PICKED_ENCODINGS_MAX = 64;
const pickedEncodings = new Map<string, Encoding | null>();

/** Whether an `Accept-Encoding` header accepts an encoding (`q=0` refuses, `*` stands in). */
function acceptance(acceptEncoding: string): (encoding: Encoding) => boolean {
  const q = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";").map((s) => s.trim());
    if (!name) continue;
    const qParam = params.find((p) => p.startsWith("q="));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  return (e) => (q.get(e) ?? q.get("*") ?? 0) > 0;
}

/**
 * True for a content type worth compressing: text, JSON, JavaScript, XML, SVG — never
 * `text/event-stream`.
 *
 * @example
 * ```ts
 * isCompressibleType("text/html; charset=utf-8"); // true
 * isCompressibleType("text/event-stream"); // false
 * ```
 */
export function isCompressibleType(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(";")[0].trim().toLowerCase();
  if (type === "text/event-stream") return false;
  return type.startsWith("text/") || type === "application/json" ||
    type.endsWith("+json") || type.endsWith("+xml") || type === "application/javascript" ||
    type === "application/xml" || type === "image/svg+xml";
}

/**
 * Compress bytes with `encoding`; `best` spends build-time effort (brotli 11, gzip 9).
 * Throws until {@link loadZlib} has resolved.
 *
 * @example
 * ```ts
 * await loadZlib();
 * const br = encode(new TextEncoder().encode("hello ".repeat(500)), "br");
 * ```
 */
export function encode(data: Uint8Array, encoding: Encoding, { best = false } = {}): Uint8Array {
  if (!zlib) throw new Error("encode() needs node:zlib: await loadZlib() first");
  const { brotliCompressSync, constants, gzipSync } = zlib;
  if (encoding === "br") {
    return new Uint8Array(brotliCompressSync(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: best ? 11 : DYNAMIC_BROTLI_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }));
  }
  return new Uint8Array(gzipSync(data, { level: best ? 9 : 6 }));
}

/** Add `value` to a comma-separated header unless it is there already. */
export function appendVary(headers: Headers, value: string): void {
  const current = headers.get("vary");
  if (!current) return headers.set("vary", value);
  const names = current.split(",").map((s) => s.trim().toLowerCase());
  if (names.includes("*") || names.includes(value.toLowerCase())) return;
  headers.set("vary", `${current}, ${value}`);
}

/**
 * `res` compressed for `req` when the rules above allow it, else `res` itself (with
 * `Vary: Accept-Encoding` added when its type is compressible).
 *
 * @example
 * ```ts
 * const req = new Request("http://localhost/", { headers: { "accept-encoding": "br" } });
 * const res = await compressResponse(req, new Response("<p>hi</p>".repeat(400), {
 *   headers: { "content-type": "text/html; charset=utf-8" },
 * }));
 * res.headers.get("content-encoding"); // "br"
 * ```
 */
export async function compressResponse(req: Request, res: Response): Promise<Response> {
  // `res.body` is read last, only before compressing: the getter turns a string or bytes
  // body into a ReadableStream, and `Deno.serve` then streams it (a resource and chunked
  // writes) instead of sending it in one go — the cost of every small JSON answer.
  if (req.method === "HEAD" || res.status === 204 || res.status === 304) return res;
  if (res.headers.has("content-encoding")) return res;
  if (!isCompressibleType(res.headers.get("content-type"))) return res;
  if (/\bno-transform\b/i.test(res.headers.get("cache-control") ?? "")) return res;
  const length = Number(res.headers.get("content-length") ?? NaN);
  const encoding = pickEncoding(req.headers.get("accept-encoding"));
  if (!encoding || length < COMPRESS_MIN_BYTES) {
    // In place when the headers are mutable (a copy costs a Response per request); a
    // fetched response's are not, and it is copied.
    try {
      appendVary(res.headers, "Accept-Encoding");
      return res;
    } catch {
      const out = new Response(res.body, res);
      appendVary(out.headers, "Accept-Encoding");
      return out;
    }
  }
  // The body is read without touching `res.body` (its getter would make a stream of a
  // string body), and the answer takes `res.headers` as its init: copying them with
  // `new Headers(res.headers)` iterated them pair by pair, ~20 µs for a dozen headers —
  // more than the rest of a small JSON answer's trip through the app.
  const body = new Uint8Array(await res.arrayBuffer());
  const init = { status: res.status, statusText: res.statusText, headers: res.headers };
  if (body.length < COMPRESS_MIN_BYTES) {
    return withVary(new Response(body.length > 0 ? body as BodyInit : null, init));
  }
  if (!zlib) return await beforeZlib(req, body, init);
  return encoded(new Response(encode(body, encoding) as BodyInit, init), encoding);
}

/** `res` with `Vary: Accept-Encoding` (its headers are its own, mutable). */
function withVary(res: Response): Response {
  appendVary(res.headers, "Accept-Encoding");
  return res;
}

/** `res`, whose body is compressed with `encoding`, described so ({@link markEncoded}). */
function encoded(res: Response, encoding: Encoding): Response {
  markEncoded(res.headers, encoding);
  return withVary(res);
}

/**
 * A new instance's compressible response while `node:zlib` has not loaded: gzip from the
 * built-in `CompressionStream` when accepted (else the body as it is), and `node:zlib`
 * imported once this response is on its way (the module doc says why).
 */
async function beforeZlib(
  req: Request,
  body: Uint8Array,
  init: ResponseInit,
): Promise<Response> {
  // The server imports node:zlib once the first response has been sent (main.ts, where a
  // timer started sooner would cost the first response Node's timers); a second response
  // before then starts it here, so every server gets there.
  if (!zlibLoading && coldResponses++ > 0) setTimeout(() => loadZlib().catch(() => {}), 0);
  if (!acceptance(req.headers.get("accept-encoding") ?? "")("gzip")) {
    return withVary(new Response(body as BodyInit, init));
  }
  const stream = new Blob([body as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
  const gzipped = await new Response(stream).arrayBuffer();
  return encoded(new Response(gzipped, init), "gzip");
}

/**
 * Make `headers` describe a body compressed with `encoding` (what every compressed
 * answer carries, here and from the page cache): `Content-Encoding`, no `Content-Length`
 * of the other bytes, a weak ETag (a strong validator names exact bytes).
 *
 * @example
 * ```ts
 * const headers = new Headers({ etag: '"v1"', "content-length": "5000" });
 * markEncoded(headers, "br");
 * headers.get("etag"); // 'W/"v1"'
 * ```
 */
export function markEncoded(headers: Headers, encoding: Encoding): void {
  headers.set("content-encoding", encoding);
  headers.delete("content-length");
  const etag = headers.get("etag");
  if (etag && !etag.startsWith("W/")) headers.set("etag", `W/${etag}`);
}

/**
 * Write `<file>.br` and `<file>.gz` beside a built asset (best quality), when it is big
 * enough to gain; returns the encodings written. Used by the build (lib/fresh/build.ts);
 * lib/http/static.ts serves the variants per `Accept-Encoding`.
 *
 * @example
 * ```ts
 * const written = await precompress(".build/static/abc123/client.js");
 * ```
 */
export async function precompress(path: string): Promise<Encoding[]> {
  await loadZlib();
  const data = await Deno.readFile(path);
  if (data.length < COMPRESS_MIN_BYTES) return [];
  const written: Encoding[] = [];
  for (const [encoding, ext] of [["br", "br"], ["gzip", "gz"]] as const) {
    const out = encode(data, encoding, { best: true });
    if (out.length >= data.length) continue;
    await Deno.writeFile(`${path}.${ext}`, out);
    written.push(encoding);
  }
  return written;
}
