/**
 * Work after a commit (badges, cache drops, a peak counter) must never fail the request
 * whose write already committed (docs/decisions.md#storage): a client that sees a 5xx would retry and
 * duplicate. {@link afterCommit} runs such work, logs a failure and swallows it; the work
 * itself is idempotent and redone by the next write that needs it (badges are re-derived
 * from the counters on every qualifying write).
 *
 * @module
 */

/**
 * Run `work`; a thrown error is logged under `what` and swallowed.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await afterCommit("badges", () => kv.set(["badge"], 1));
 * ```
 */
export async function afterCommit(what: string, work: () => unknown): Promise<void> {
  try {
    await work();
  } catch (err) {
    console.error(`after-commit work failed (${what}); the write stands:`, err);
  }
}
