/**
 * Commit with a bounded retry: several processes sharing one SQLite file stay correct,
 * but `commit()` can throw `database is locked` (measured, docs/decisions.md#storage).
 *
 * The bound is time, not a count: under 3 processes × 90 writers a lock can be held by
 * other writers for a second or more, and 8 quick attempts ran out (a 500 after a few
 * thousand requests). A commit now retries with jittered exponential backoff capped at
 * {@link MAX_BACKOFF_MS} for up to {@link LOCK_RETRY_BUDGET_MS}; only then is the lock
 * error rethrown (the app answers it 503 with `Retry-After`, never 500).
 *
 * @module
 */

/** How long one commit may keep retrying a lock before the error is rethrown. */
export const LOCK_RETRY_BUDGET_MS = 5_000;
/** Longest pause between two tries. */
export const MAX_BACKOFF_MS = 100;

/** True for the transient SQLite lock errors worth retrying. */
export function isLockError(err: unknown): boolean {
  const msg = err instanceof Error ? err.message : String(err);
  return /database is locked|database is busy|SQLITE_BUSY/i.test(msg);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The pause before try `i + 1` (1-based `i`): full jitter over an exponential ceiling
 * (2, 4, 8 … ms, capped at {@link MAX_BACKOFF_MS}), so racing writers spread out.
 *
 * @example
 * ```ts
 * backoffMs(3); // somewhere in [0, 16)
 * ```
 */
export function backoffMs(i: number, random: () => number = Math.random): number {
  return random() * Math.min(MAX_BACKOFF_MS, 2 ** i);
}

/**
 * Run `attempt` until it returns without a lock error, for at most `budgetMs`
 * ({@link LOCK_RETRY_BUDGET_MS}), sleeping a jittered exponential backoff between tries.
 * `attempt` builds and commits a fresh atomic op each time (an op cannot be committed
 * twice).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const res = await withLockRetry(() => kv.atomic().set(["k"], 1).commit());
 * ```
 */
export async function withLockRetry<T>(
  attempt: () => Promise<T>,
  budgetMs = LOCK_RETRY_BUDGET_MS,
): Promise<T> {
  const deadline = performance.now() + budgetMs;
  for (let i = 1;; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isLockError(err) || performance.now() >= deadline) throw err;
      await sleep(backoffMs(i));
    }
  }
}
