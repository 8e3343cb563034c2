/**
 * Commit with a bounded retry: several processes sharing one SQLite file stay correct,
 * but `commit()` can throw `database is locked` (measured, DESIGN.md §5).
 *
 * @module
 */

/** How many attempts a commit gets before the lock error is rethrown. */
export const MAX_COMMIT_ATTEMPTS = 8;

/** True for the transient SQLite lock errors worth retrying. */
export function isLockError(err: unknown): boolean {
  const msg = err instanceof Error ? err.message : String(err);
  return /database is locked|database is busy|SQLITE_BUSY/i.test(msg);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Run `attempt` until it returns without a lock error, at most {@link MAX_COMMIT_ATTEMPTS}
 * times, sleeping an exponentially growing, jittered delay between tries. `attempt` builds
 * and commits a fresh atomic op each time (an op cannot be committed twice).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const res = await withLockRetry(() => kv.atomic().set(["k"], 1).commit());
 * ```
 */
export async function withLockRetry<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 1;; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isLockError(err) || i >= MAX_COMMIT_ATTEMPTS) throw err;
      const base = Math.min(200, 5 * 2 ** i);
      await sleep(base / 2 + Math.random() * base);
    }
  }
}
