/**
 * Coalesced runs: concurrent callers with the same key share one run of some work (the
 * follow-ups of a like: the author's peak and badges, the post's upvote notice).
 *
 * {@link coalesce} adds an item to the key's open batch and resolves once a run that took
 * that item has finished. While a run for a key is in flight, new items gather in the
 * next batch, which starts when the run before it ends: one run per key at a time, and
 * a crowd of N callers costs about two runs instead of N (no contention between them
 * either). Every caller still waits for work that started after its call, so what it
 * reads next reflects its own item. A failed run rejects the callers of that batch only.
 * Kept per process; nothing here is needed by another instance.
 *
 * Not a group commit (lib/kv/group_commit.ts puts many items' checks and writes in one
 * atomic op): the work here is any async function, and it may read and commit as it likes.
 *
 * @module
 */

interface Batch<T> {
  items: T[];
  done: Promise<void>;
}

interface KeyRuns<T> {
  open: Batch<T> | null;
  tail: Promise<unknown>;
}

/** Runs of `work` on batches of items, one run per key at a time. */
export interface Coalescer<T> {
  /** The keys with a run in flight or a batch waiting. */
  keys: Map<string, KeyRuns<T>>;
  work: (key: string, items: T[]) => Promise<void>;
}

/**
 * A coalescer whose runs call `work(key, items)`.
 *
 * @example
 * ```ts
 * const c = coalescer<number>(async (key, items) => console.log(key, items.length));
 * await Promise.all([coalesce(c, "a", 1), coalesce(c, "a", 2)]);
 * ```
 */
export function coalescer<T>(work: (key: string, items: T[]) => Promise<void>): Coalescer<T> {
  return { keys: new Map(), work };
}

/**
 * Add `item` to `key`'s open batch; resolves when a run that included it has finished.
 *
 * @example
 * ```ts
 * const c = coalescer<string>(async (_key, voters) => console.log(voters));
 * await coalesce(c, "author-1", "voter-7");
 * ```
 */
export function coalesce<T>(c: Coalescer<T>, key: string, item: T): Promise<void> {
  let runs = c.keys.get(key);
  if (!runs) c.keys.set(key, runs = { open: null, tail: Promise.resolve() });
  if (runs.open) {
    runs.open.items.push(item);
    return runs.open.done;
  }
  const l = runs;
  const batch: Batch<T> = { items: [item], done: Promise.resolve() };
  batch.done = l.tail.then(() => {
    // From here on, new items start the next batch.
    if (l.open === batch) l.open = null;
    return c.work(key, batch.items);
  });
  l.open = batch;
  const tail = batch.done.catch(() => {});
  l.tail = tail;
  tail.then(() => {
    if (l.tail === tail && !l.open && c.keys.get(key) === l) c.keys.delete(key);
  });
  return batch.done;
}
