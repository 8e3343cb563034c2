/**
 * Serving built assets from `.build/static/<buildId>/`, immutable under their build id.
 * JS and CSS go out as the `.br` or `.gz` the build wrote beside them, per
 * `Accept-Encoding`, with `Vary: Accept-Encoding`.
 *
 * @module
 */
import { appendVary, type Encoding, pickEncoding } from "./compress.ts";

/** Assets the build pre-compresses (lib/fresh/build.ts). */
const PRECOMPRESSED = new Set(["js", "css", "svg", "json", "map", "txt"]);
const SUFFIX: Record<Encoding, string> = { br: ".br", gzip: ".gz" };

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  json: "application/json",
  txt: "text/plain; charset=utf-8",
  woff2: "font/woff2",
  map: "application/json",
};

/**
 * The build's files read so far, by path: bounded by the build folder (~0.6 MB). A path
 * with no file is not remembered — the URL is the visitor's to choose, so remembering
 * misses would grow without end.
 */
const cache = new Map<string, Uint8Array>();

/**
 * The response for `/_parley/<buildId>/<file>`, or null when there is no such file.
 * `file` may not climb out of the build folder.
 */
export async function serveBuildAsset(
  buildDir: string,
  buildId: string,
  file: string,
  acceptEncoding: string | null = null,
): Promise<Response | null> {
  if (!/^[A-Za-z0-9_-]+$/.test(buildId)) return null;
  if (!file || file.split("/").some((p) => p === ".." || p === "." || p === "")) return null;
  const path = `${buildDir}/static/${buildId}/${file}`;
  const body = await readCached(path);
  if (!body) return null;
  const ext = file.slice(file.lastIndexOf(".") + 1).toLowerCase();
  const headers = new Headers({
    "content-type": TYPES[ext] ?? "application/octet-stream",
    "cache-control": "public, max-age=31536000, immutable",
  });
  if (!PRECOMPRESSED.has(ext)) return new Response(body as BodyInit, { headers });
  appendVary(headers, "Accept-Encoding");
  const encoding = pickEncoding(acceptEncoding);
  const encoded = encoding ? await readCached(path + SUFFIX[encoding]) : null;
  if (!encoding || !encoded) return new Response(body as BodyInit, { headers });
  headers.set("content-encoding", encoding);
  return new Response(encoded as BodyInit, { headers });
}

async function readCached(path: string): Promise<Uint8Array | null> {
  const known = cache.get(path);
  if (known) return known;
  try {
    const body = await Deno.readFile(path);
    cache.set(path, body);
    return body;
  } catch {
    return null;
  }
}
