/**
 * Helpers for the write patterns of docs/decisions.md#storage: optimistic multi-key writes, counters
 * that never conflict, and newest-first indexes.
 *
 * @module
 */
import { backoffMs, LOCK_RETRY_BUDGET_MS, withLockRetry } from "./retry.ts";

/** Raised when an optimistic write keeps losing its checks. */
export class ContentionError extends Error {
  constructor(attempts: number) {
    super(`KV write lost its optimistic checks ${attempts} times`);
    this.name = "ContentionError";
  }
}

/**
 * Commit an atomic op built by `build`, retrying on `database is locked`. Use it for
 * writes without checks (or whose failed check is an answer, not a retry).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await commit(kv, (op) => op.set(["a"], 1).set(["b"], 2));
 * ```
 */
export function commit(
  kv: Deno.Kv,
  build: (op: Deno.AtomicOperation) => Deno.AtomicOperation | void,
): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
  return withLockRetry(() => {
    const op = kv.atomic();
    build(op);
    return op.commit();
  });
}

/**
 * Read–check–write loop: `attempt` reads what it needs and returns an op carrying
 * `check`s on what it read plus its mutations, and a result; when a check fails
 * (another writer got there first) it runs again, within `budgetMs` (5 s by default),
 * then throws {@link ContentionError}.
 * Returning `{ op: null }` ends the loop without writing (an early answer).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const n = await updateAtomically(async () => {
 *   const cur = await kv.get<number>(["n"]);
 *   const next = (cur.value ?? 0) + 1;
 *   return { op: kv.atomic().check(cur).set(["n"], next), result: next };
 * });
 * ```
 */
export async function updateAtomically<T>(
  attempt: () => Promise<{ op: Deno.AtomicOperation | null; result: T }>,
  budgetMs = LOCK_RETRY_BUDGET_MS,
): Promise<T> {
  // A time budget (like the lock retry's), not a count: under many writers a key can stay
  // hot for a while, and a ContentionError is a 503 — rare, but never a 500.
  const deadline = performance.now() + budgetMs;
  for (let i = 1;; i++) {
    const { op, result } = await attempt();
    if (op === null) return result;
    const res = await withLockRetry(() => op.commit(), Math.max(0, deadline - performance.now()));
    if (res.ok) return result;
    if (performance.now() >= deadline) throw new ContentionError(i);
    // Jittered exponential backoff so racing writers spread out instead of colliding.
    if (i > 1) await new Promise((r) => setTimeout(r, backoffMs(i)));
  }
}

/**
 * Run `build` on `op` and return the checks it added. A writer that lets its caller add
 * checks and mutations to its op (a background job's lease token) records them this way,
 * so that when the commit fails it can tell, with {@link checksHold}, whether the caller's
 * state moved on (answer that) or only its own reads did (retry).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const fence: Deno.KvEntryMaybe<unknown>;
 * const op = kv.atomic();
 * const added = checksAddedBy(op, (o) => o.check(fence).set(["progress"], 1));
 * added.length; // 1
 * ```
 */
export function checksAddedBy(
  op: Deno.AtomicOperation,
  build: (op: Deno.AtomicOperation) => unknown,
): Deno.AtomicCheck[] {
  const added: Deno.AtomicCheck[] = [];
  const check = op.check;
  // Shadow `check` on this one op while `build` runs; chained calls return the op itself.
  op.check = function (this: Deno.AtomicOperation, ...checks: Deno.AtomicCheck[]) {
    added.push(...checks);
    return check.apply(this, checks);
  };
  try {
    build(op);
  } finally {
    Reflect.deleteProperty(op, "check");
  }
  return added;
}

/**
 * True when every check still holds: each key's versionstamp is the one the check names
 * (null: still absent). One `getMany` per 10 checks.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const checks: Deno.AtomicCheck[];
 * if (!(await checksHold(kv, checks))) console.log("the state moved on");
 * ```
 */
export async function checksHold(kv: Deno.Kv, checks: Deno.AtomicCheck[]): Promise<boolean> {
  const now = await getAll(kv, checks.map((c) => c.key));
  return now.every((e, i) => e.versionstamp === checks[i].versionstamp);
}

const U64_MOD = 1n << 64n;

/**
 * Add `delta` (negative allowed) to a counter inside `op` with `sum`, which never
 * conflicts with other writers: negative deltas wrap modulo 2^64, which is exactly
 * two's-complement subtraction, so one key serves both directions.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await kv.atomic().sum(["c"], 0n).commit(); // or:
 * const op = kv.atomic(); addToCounter(op, ["votes", "q1", "up"], -1); await op.commit();
 * ```
 */
export function addToCounter(
  op: Deno.AtomicOperation,
  key: Deno.KvKey,
  delta: number,
): Deno.AtomicOperation {
  const d = BigInt(delta);
  return op.sum(key, ((d % U64_MOD) + U64_MOD) % U64_MOD);
}

/** Decode a counter value written by {@link addToCounter} (missing → 0). */
export function counterValue(value: unknown): number {
  if (!(value instanceof Deno.KvU64)) return 0;
  const v = value.value;
  return Number(v >= 1n << 63n ? v - U64_MOD : v);
}

/**
 * `getMany` over any number of keys (it takes 10 per call; the calls run in parallel),
 * results in the order of `list`.
 *
 * @example
 * ```ts
 * import type { QuestionRecord } from "@/lib/community/questions/model.ts";
 * import { keys } from "@/lib/kv/keys.ts";
 * declare const ids: string[];
 * declare const kv: Deno.Kv;
 * const entries = await getAll<QuestionRecord>(kv, ids.map(keys.question));
 * ```
 */
export async function getAll<T>(kv: Deno.Kv, list: Deno.KvKey[]): Promise<Deno.KvEntryMaybe<T>[]> {
  const chunks: Deno.KvKey[][] = [];
  for (let i = 0; i < list.length; i += 10) chunks.push(list.slice(i, i + 10));
  const results = await Promise.all(chunks.map((c) => kv.getMany<T[]>(c)));
  return results.flat();
}

/**
 * Read one or more counters in a single round trip.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const [up, down] = await readCounters(kv, [["q", "up"], ["q", "down"]]);
 * ```
 */
export async function readCounters(kv: Deno.Kv, keys: Deno.KvKey[]): Promise<number[]> {
  return (await getAll(kv, keys)).map((e) => counterValue(e.value));
}

/** Largest timestamp an index key can invert. */
const TIME_CEILING = 9_999_999_999_999;

/**
 * Inverted time for newest-first index keys: ascending key order lists the newest first.
 * Fixed width is not needed (KV orders numbers numerically), only monotonic inversion.
 *
 * @example
 * ```ts
 * declare const id: string;
 * const key = ["questions_by_time", invertTime(Date.now()), id];
 * ```
 */
export function invertTime(ms: number): number {
  return TIME_CEILING - ms;
}

/** A paging cursor that KV does not recognise (made up, or from another list). */
export class InvalidCursorError extends Error {
  constructor() {
    super("Invalid cursor");
    this.name = "InvalidCursorError";
  }
}

/** Options for {@link listNewestFirst}. */
export interface ListPageOptions {
  limit: number;
  cursor?: string;
}

/**
 * One page of a newest-first index (keys built with {@link invertTime}) plus the cursor
 * of the next page (undefined at the end).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const { values, cursor } = await listNewestFirst<string>(kv, ["q_by_time"], { limit: 20 });
 * ```
 */
export async function listNewestFirst<T>(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  { limit, cursor }: ListPageOptions,
): Promise<{ values: T[]; keys: Deno.KvKey[]; cursor?: string }> {
  // KV cursors are base64; anything else (a hand-edited URL) is refused before KV sees it.
  if (cursor !== undefined && !/^[A-Za-z0-9+/_=-]{1,1000}$/.test(cursor)) {
    throw new InvalidCursorError();
  }
  // Ask for one extra entry to learn whether a next page exists; the cursor to resume
  // from is the one after the last entry returned, not after the look-ahead.
  const iter = kv.list<T>({ prefix }, { limit: limit + 1, cursor });
  const values: T[] = [];
  const keys: Deno.KvKey[] = [];
  let afterLast: string | undefined;
  let more = false;
  try {
    for await (const e of iter) {
      if (values.length === limit) {
        more = true;
        break;
      }
      values.push(e.value);
      keys.push(e.key);
      afterLast = iter.cursor;
    }
  } catch (err) {
    // KV rejects a cursor it did not issue for this prefix with a TypeError.
    if (cursor && err instanceof TypeError && values.length === 0) {
      throw new InvalidCursorError();
    }
    throw err;
  }
  return { values, keys, cursor: more ? afterLast : undefined };
}
