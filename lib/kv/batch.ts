/**
 * Group-commit helper: concurrent callers with the same key share one run of the work.
 *
 * {@link batched} adds an item to the key's open batch and resolves once a run that took
 * that item has finished. While a run for a key is in flight, new items gather in the
 * next batch, which starts when the run before it ends: one run per key at a time, and
 * a crowd of N callers costs about two runs instead of N (no contention between them
 * either). Every caller still waits for work that started after its call, so what it
 * reads next reflects its own item. A failed run rejects the callers of that batch only.
 * Kept per process; nothing here is needed by another instance.
 *
 * @module
 */

interface Batch<T> {
  items: T[];
  done: Promise<void>;
}

interface Lane<T> {
  open: Batch<T> | null;
  tail: Promise<unknown>;
}

/** A family of batches (one lane per key) running `work` on each batch's items. */
export interface Batcher<T> {
  lanes: Map<string, Lane<T>>;
  work: (key: string, items: T[]) => Promise<void>;
}

/**
 * A batcher whose runs call `work(key, items)`.
 *
 * @example
 * ```ts
 * const b = batcher<number>(async (key, items) => console.log(key, items.length));
 * await Promise.all([batched(b, "a", 1), batched(b, "a", 2)]);
 * ```
 */
export function batcher<T>(work: (key: string, items: T[]) => Promise<void>): Batcher<T> {
  return { lanes: new Map(), work };
}

/**
 * Add `item` to `key`'s open batch; resolves when a run that included it has finished.
 *
 * @example
 * ```ts
 * const b = batcher<string>(async (_key, voters) => console.log(voters));
 * await batched(b, "author-1", "voter-7");
 * ```
 */
export function batched<T>(b: Batcher<T>, key: string, item: T): Promise<void> {
  let lane = b.lanes.get(key);
  if (!lane) b.lanes.set(key, lane = { open: null, tail: Promise.resolve() });
  if (lane.open) {
    lane.open.items.push(item);
    return lane.open.done;
  }
  const l = lane;
  const batch: Batch<T> = { items: [item], done: Promise.resolve() };
  batch.done = l.tail.then(() => {
    // From here on, new items start the next batch.
    if (l.open === batch) l.open = null;
    return b.work(key, batch.items);
  });
  l.open = batch;
  const tail = batch.done.catch(() => {});
  l.tail = tail;
  tail.then(() => {
    if (l.tail === tail && !l.open && b.lanes.get(key) === l) b.lanes.delete(key);
  });
  return batch.done;
}
