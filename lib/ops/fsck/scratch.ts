/**
 * A scratch store: a KV file in a temporary folder, for totals that must be gathered in
 * an order other than the store's (up-votes per author while walking votes per post).
 * SQLite keeps it on disk, so fsck's memory stays bounded at any store size; the folder
 * is removed when the scratch store is closed.
 *
 * @module
 */

/** An open scratch store. */
export interface Scratch {
  kv: Deno.Kv;
  /** Close the store and remove its folder. */
  close(): Promise<void>;
}

/**
 * Open a fresh, empty scratch store.
 *
 * @example
 * ```ts
 * const scratch = await openScratch();
 * try {
 *   await scratch.kv.set(["n"], 1);
 * } finally {
 *   await scratch.close();
 * }
 * ```
 */
export async function openScratch(): Promise<Scratch> {
  const dir = await Deno.makeTempDir({ prefix: "parley-fsck-" });
  const kv = await Deno.openKv(`${dir}/scratch.kv`);
  return {
    kv,
    close: async () => {
      kv.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
