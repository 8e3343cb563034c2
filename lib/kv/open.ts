/**
 * Opening the store named by `KV_PATH`.
 *
 * @module
 */

/**
 * Open Deno KV at a file path, `:memory:`, or a KV Connect URL (`http(s)://…`, which
 * authenticates with `DENO_KV_ACCESS_TOKEN` from the environment). A file path's folder
 * is created first so a fresh checkout needs no manual step.
 *
 * @example
 * ```ts
 * const kv = await openKv(":memory:");
 * kv.close();
 * ```
 */
export async function openKv(path: string): Promise<Deno.Kv> {
  if (path !== ":memory:" && !/^https?:\/\//.test(path)) {
    const slash = path.lastIndexOf("/");
    if (slash > 0) await Deno.mkdir(path.slice(0, slash), { recursive: true });
  }
  return await Deno.openKv(path === ":memory:" ? ":memory:" : path);
}
