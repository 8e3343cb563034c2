/**
 * Serving built assets from `.build/static/<buildId>/`, immutable under their build id.
 *
 * @module
 */

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

const cache = new Map<string, Uint8Array | null>();

/**
 * The response for `/_parley/<buildId>/<file>`, or null when there is no such file.
 * `file` may not climb out of the build folder.
 */
export async function serveBuildAsset(
  buildDir: string,
  buildId: string,
  file: string,
): Promise<Response | null> {
  if (!/^[A-Za-z0-9_-]+$/.test(buildId)) return null;
  if (!file || file.split("/").some((p) => p === ".." || p === "." || p === "")) return null;
  const path = `${buildDir}/static/${buildId}/${file}`;
  let body = cache.get(path);
  if (body === undefined) {
    try {
      body = await Deno.readFile(path);
    } catch {
      body = null;
    }
    cache.set(path, body);
  }
  if (!body) return null;
  const ext = file.slice(file.lastIndexOf(".") + 1).toLowerCase();
  return new Response(body as BodyInit, {
    headers: {
      "content-type": TYPES[ext] ?? "application/octet-stream",
      "cache-control": "public, max-age=31536000, immutable",
    },
  });
}
