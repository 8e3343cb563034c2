/**
 * Group commit: concurrent writes that each need their own checked commit go out together
 * as ONE atomic op, with a per-item fallback.
 *
 * Why: the local store has one SQLite writer, and a write that waits for its own commit
 * leaves the process idle for most of that time (a crowd of votes on one question reached
 * about 0.3× of KV's raw `sum` commit rate, the process ~44% idle). Here at most
 * `maxInFlight` group commits are in flight per committer; items submitted meanwhile
 * gather, and the next group takes them, so a crowd of N writers costs about
 * N / group-size commits. (Two in flight keep a commit queued on the KV thread while the
 * other's result travels back: votes measured better with two than one, three no better.)
 *
 * How: {@link submit} queues an item; the committer's `build(op, items)` adds every item's
 * own `check`s and mutations to one op (merging what can merge: one `sum` of the total per
 * counter, one `max`) and returns each item's answer as if the op commits. If the commit
 * succeeds, every item gets its answer. If it fails a check (one item's key changed: the
 * same user twice at once, another instance), or `build`/the commit throws, no item of
 * the group was written, and each one runs alone through `single` (the caller's ordinary
 * read–check–write loop) — concurrently, off the lane — so each gets exactly the answer it
 * would have had alone, and one item's error rejects that item's caller only.
 *
 * Bounds (Deno KV refuses an op over 100 checks, 1000 mutations or 819,200 bytes):
 * - at most `maxItems` items per group (callers size it from their checks and mutations
 *   per item: votes use 32 items × ≤2 checks and ≤4 own mutations + ≤5 merged);
 * - at most `maxCost` of `costOf` per group (e.g. bytes of values written); an item over
 *   the bound alone still goes, alone;
 * - two items with the same `keyOf` never share a group nor are in two groups in flight
 *   (the later waits for the next): their checks and writes would be on the same keys;
 * - items with the same `laneOf` may share a group but are never in two groups in flight:
 *   a group that moves a value derived from the last committed one (a score-ordered index
 *   row, lib/community/answer_order.ts) is built after the previous such group committed
 *   and can start from what that one wrote (`committed` reports it, with the versionstamp);
 * - at most `maxInFlight` groups in flight (default 1).
 * Kept per process; nothing here is needed by another instance (a lost process loses only
 * uncommitted, unanswered items).
 *
 * @module
 */
import { withLockRetry } from "./retry.ts";

/** What a committer does with its items. */
export interface GroupSpec<T, R> {
  /** The store the groups commit to. */
  kv: Deno.Kv;
  /** Most items in one op. */
  maxItems: number;
  /** Items with the same key never share a group. */
  keyOf: (item: T) => string;
  /** Add each item's checks and mutations to `op`; each item's answer if the op commits. */
  build: (op: Deno.AtomicOperation, items: T[]) => Promise<R[]> | R[];
  /** The item alone (its own read–check–write loop), after its group failed. */
  single: (item: T) => Promise<R>;
  /** An item's share of `maxCost` (default 0). */
  costOf?: (item: T) => number;
  /** Most total cost in one op (default unbounded). */
  maxCost?: number;
  /** Groups in flight at once (default 1), never two with an item of the same key. */
  maxInFlight?: number;
  /** Items of one lane may share a group, never two groups in flight (null: no lane). */
  laneOf?: (item: T) => string | null;
  /** Told of every group committed: its items, their answers and the op's versionstamp. */
  committed?: (items: T[], answers: R[], versionstamp: string) => void;
}

interface Pending<T, R> {
  item: T;
  resolve: (r: R) => void;
  reject: (e: unknown) => void;
}

/** A group committer: its spec, the queue, and how many groups it has committed. */
export interface GroupCommitter<T, R> {
  spec: GroupSpec<T, R>;
  queue: Pending<T, R>[];
  /** Groups in flight, and the keys of their items. */
  inFlight: number;
  busy: Set<string>;
  /** Lanes of the groups in flight. */
  busyLanes: Set<string>;
  scheduled: boolean;
  /**
   * Groups committed so far. A read that started when this was `n` saw every group this
   * committer committed up to `n` (callers use it to tell whether a read is fresh).
   */
  committed: number;
  /** Groups that fell back to items alone (for tests and benchmarks). */
  fellBack: number;
  /** Sizes of the groups committed (the last 1,000, for tests and benchmarks). */
  sizes: number[];
}

/**
 * A committer for `spec`.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const adds = groupCommitter<number, number>({
 *   kv,
 *   maxItems: 32,
 *   keyOf: (n) => String(n),
 *   build: (op, items) => items.map((n) => (op.sum(["total"], BigInt(n)), n)),
 *   single: async (n) => (await kv.atomic().sum(["total"], BigInt(n)).commit(), n),
 * });
 * await Promise.all([submit(adds, 1), submit(adds, 2)]);
 * ```
 */
export function groupCommitter<T, R>(spec: GroupSpec<T, R>): GroupCommitter<T, R> {
  return {
    spec,
    queue: [],
    inFlight: 0,
    busy: new Set(),
    busyLanes: new Set(),
    scheduled: false,
    committed: 0,
    fellBack: 0,
    sizes: [],
  };
}

/**
 * Queue `item`; resolves with its answer once a group holding it committed (or once it
 * ran alone after its group failed).
 *
 * @example
 * ```ts
 * declare const votes: GroupCommitter<{ userId: string }, boolean>;
 * const ok = await submit(votes, { userId: "u1" });
 * ```
 */
export function submit<T, R>(g: GroupCommitter<T, R>, item: T): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    g.queue.push({ item, resolve, reject });
    if (!g.scheduled) {
      g.scheduled = true;
      // Start after the current microtasks: items submitted in the same turn share a group.
      queueMicrotask(() => {
        g.scheduled = false;
        pump(g);
      });
    }
  });
}

/** Start groups while fewer than `maxInFlight` are in flight and items wait. */
function pump<T, R>(g: GroupCommitter<T, R>): void {
  const most = g.spec.maxInFlight ?? 1;
  while (g.inFlight < most && g.queue.length) {
    const group = takeGroup(g);
    if (!group.length) return; // every waiting item's key is in flight
    const keys = group.map((p) => g.spec.keyOf(p.item));
    const lanes = lanesOf(g, group);
    for (const k of keys) g.busy.add(k);
    for (const l of lanes) g.busyLanes.add(l);
    g.inFlight++;
    runGroup(g, group).finally(() => {
      g.inFlight--;
      for (const k of keys) g.busy.delete(k);
      for (const l of lanes) g.busyLanes.delete(l);
      pump(g);
    });
  }
}

function lanesOf<T, R>(g: GroupCommitter<T, R>, group: Pending<T, R>[]): Set<string> {
  const lanes = new Set<string>();
  for (const p of group) {
    const l = g.spec.laneOf?.(p.item);
    if (l != null) lanes.add(l);
  }
  return lanes;
}

/**
 * Take the next group from the queue, within the bounds, in arrival order; an item whose
 * key is in this group or in one in flight, or whose lane is in a group in flight, waits.
 */
function takeGroup<T, R>(g: GroupCommitter<T, R>): Pending<T, R>[] {
  const { keyOf, maxItems, costOf, maxCost = Infinity } = g.spec;
  const group: Pending<T, R>[] = [];
  const rest: Pending<T, R>[] = [];
  const keys = new Set<string>();
  let cost = 0;
  for (const p of g.queue) {
    const key = keyOf(p.item);
    const lane = g.spec.laneOf?.(p.item) ?? null;
    const c = costOf?.(p.item) ?? 0;
    const fits = group.length < maxItems && !keys.has(key) && !g.busy.has(key) &&
      (lane === null || !g.busyLanes.has(lane)) && (group.length === 0 || cost + c <= maxCost);
    if (fits) {
      group.push(p);
      keys.add(key);
      cost += c;
    } else {
      rest.push(p);
    }
  }
  g.queue = rest;
  return group;
}

async function runGroup<T, R>(g: GroupCommitter<T, R>, group: Pending<T, R>[]): Promise<void> {
  const { kv, build } = g.spec;
  try {
    const op = kv.atomic();
    const answers = await build(op, group.map((p) => p.item));
    const res = await withLockRetry(() => op.commit());
    if (res.ok) {
      g.committed++;
      g.sizes.push(group.length);
      if (g.sizes.length > 1000) g.sizes.splice(0, g.sizes.length - 1000);
      try {
        g.spec.committed?.(group.map((p) => p.item), answers, res.versionstamp);
      } catch (err) {
        // The group is written: a failing observer must not send its items round again.
        console.error("group commit: the committed hook failed", err);
      }
      group.forEach((p, i) => p.resolve(answers[i]));
      return;
    }
  } catch {
    // Nothing of the group was written; each item runs alone below and meets its own error.
  }
  g.fellBack++;
  // Alone, concurrently and off the lane: the next group need not wait for them.
  for (const p of group) {
    Promise.resolve().then(() => g.spec.single(p.item)).then(p.resolve, p.reject);
  }
}
