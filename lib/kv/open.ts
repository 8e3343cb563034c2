/**
 * Opening the store named by `KV_PATH` — or, on Deno Deploy without `KV_PATH`, the
 * platform's managed, replicated KV.
 *
 * Reads that may be eventual (DESIGN.md §9 "Deno Deploy"): see lib/kv/consistency.ts,
 * which lists every read that uses {@link https://docs.deno.com/deploy/kv/manual/operations | `consistency: "eventual"`}
 * and why; every other read — and every read that guards a write — is strong.
 *
 * @module
 */

/**
 * Open Deno KV at a file path, `:memory:`, or a KV Connect URL (`http(s)://…`, which
 * authenticates with `DENO_KV_ACCESS_TOKEN` from the environment). A file path's folder
 * is created first so a fresh checkout needs no manual step. `undefined` opens the
 * default database: on Deno Deploy the project's managed KV; elsewhere a SQLite file
 * under `DENO_DIR` (`location_data/`), which is where the deployment test points it.
 *
 * @example
 * ```ts
 * const kv = await openKv(":memory:");
 * kv.close();
 * ```
 */
export async function openKv(path: string | undefined): Promise<Deno.Kv> {
  if (path === undefined) return await Deno.openKv();
  if (path !== ":memory:" && !/^https?:\/\//.test(path)) {
    const slash = path.lastIndexOf("/");
    if (slash > 0) await Deno.mkdir(path.slice(0, slash), { recursive: true });
  }
  return await Deno.openKv(path === ":memory:" ? ":memory:" : path);
}
