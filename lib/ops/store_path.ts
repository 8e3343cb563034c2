/**
 * Which store an operations task works on: `KV_PATH` as the app reads it (docs/decisions.md#configuration).
 *
 * @module
 */
import { DEFAULT_KV_PATH } from "../config.ts";

/**
 * The store the app would open: `KV_PATH`, else on Deno Deploy (`DENO_DEPLOYMENT_ID`) the
 * platform's database (`undefined`), else `./data/parley.kv`.
 *
 * @example
 * ```ts
 * storePath({ KV_PATH: "/tmp/parley.kv" }); // "/tmp/parley.kv"
 * storePath({}); // "./data/parley.kv"
 * ```
 */
export function storePath(env: Record<string, string | undefined>): string | undefined {
  return env.KV_PATH ?? (env.DENO_DEPLOYMENT_ID ? undefined : DEFAULT_KV_PATH);
}

/**
 * True when `path` names a local file that does not exist (opening it would create an
 * empty store: a backup of it would silently hold nothing).
 *
 * @example
 * ```ts
 * await isMissingFile("/no/such/store.kv"); // true
 * ```
 */
export async function isMissingFile(path: string | undefined): Promise<boolean> {
  // `:memory:` and a KV Connect URL (`http(s)://…`) are not files.
  if (path === undefined || path === ":memory:" || /^https?:\/\//.test(path)) return false;
  try {
    await Deno.stat(path);
    return false;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return true;
    throw err;
  }
}
