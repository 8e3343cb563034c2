/**
 * Derived counters checked against a recount, with bounded memory and without clobbering
 * a live writer.
 *
 * 1. {@link Tally.snapshot} copies the stored counters (value and versionstamp) into a
 *    scratch store (./scratch.ts), before anything is recounted.
 * 2. The invariant's walk recounts: {@link Tally.add} (a count) or {@link Tally.raise} (a
 *    peak) per counter key, buffered and summed in the scratch store.
 * 3. {@link Tally.settle} walks both sides in key order. A counter that differs is read
 *    again: if its versionstamp moved since the snapshot a writer changed it during the
 *    walk (the recount may be stale, so it is left for the next run); otherwise it is a
 *    problem, and a repair writes the recount under a check of that versionstamp.
 *
 * Every write path moves a counter in the same atomic op as the entries it counts, so a
 * counter whose versionstamp did not move saw no such op during the walk, and the
 * recount is exact for it. (Vote groups merge their sums and skip a net change of zero:
 * a group that adds one vote and removes another on the same post during the walk can
 * leave such a counter looking unchanged; a second run settles it.)
 *
 * @module
 */
import { commit, counterValue, getAll } from "../../kv/atomic.ts";
import { compareKeys } from "./key_order.ts";
import type { FsckReport } from "./report.ts";
import { openScratch, type Scratch } from "./scratch.ts";

/** How a counter is stored: a `Deno.KvU64` moved with `sum`, or a plain number. */
export type CounterEncoding = "u64" | "number";

/** What {@link Tally.settle} compares and writes. */
export interface SettleOptions {
  invariant: string;
  /**
   * The problem's kind, one sentence ("vote counter differs from its voter entries"), or
   * one per counter key when a tally holds several families.
   */
  kind: string | ((key: Deno.KvKey) => string);
  /** Write the recount (a repair run). */
  repair: boolean;
  /** Progress label. */
  label?: string;
}

/** Options of {@link Tally.open}. */
export interface TallyOptions {
  encoding?: CounterEncoding;
  /**
   * `"equal"`: the counter must equal the recount. `"atLeast"`: a peak (`max`) counter
   * must be at least the recount; a repair raises it with `max`.
   */
  rule?: (key: Deno.KvKey) => "equal" | "atLeast";
}

/** Distinct counters buffered before a scratch write. */
const BUFFER = 400;

/** A counter that differs from its recount, as the snapshot saw it. */
interface Difference {
  key: Deno.KvKey;
  versionstamp: string | null;
  truth: number;
  atLeast: boolean;
}

/** Differences confirmed and fixed together (one check and one write each; KV allows 100). */
const SETTLE_BATCH = 90;

interface Snapshotted {
  v: number;
  vs: string;
}

/** A recount of one family of counters (see the module doc). */
export class Tally {
  readonly #scratch: Scratch;
  readonly #encoding: CounterEncoding;
  readonly #rule: (key: Deno.KvKey) => "equal" | "atLeast";
  #sums = new Map<string, [Deno.KvKey, number]>();
  #maxes = new Map<string, [Deno.KvKey, number]>();

  private constructor(scratch: Scratch, opts: TallyOptions) {
    this.#scratch = scratch;
    this.#encoding = opts.encoding ?? "u64";
    this.#rule = opts.rule ?? (() => "equal");
  }

  /**
   * A new, empty tally over its own scratch store; {@link Tally.close} removes it.
   *
   * @example
   * ```ts
   * declare const kv: Deno.Kv;
   * const tally = await Tally.open();
   * await tally.snapshot(kv, ["vote_counts"]);
   * await tally.add(["vote_counts", "question", "q-1", "up"]);
   * await tally.close();
   * ```
   */
  static async open(opts: TallyOptions = {}): Promise<Tally> {
    return new Tally(await openScratch(), opts);
  }

  /** Remove the scratch store. */
  async close(): Promise<void> {
    await this.#scratch.close();
  }

  /**
   * Copy every stored counter under `prefix` (those `filter` keeps) into the scratch
   * store, with its versionstamp. Call it before the recount starts.
   */
  async snapshot(
    kv: Deno.Kv,
    prefix: Deno.KvKey,
    filter: (key: Deno.KvKey) => boolean = () => true,
  ): Promise<void> {
    let batch: [Deno.KvKey, Snapshotted][] = [];
    const flush = async () => {
      const rows = batch;
      batch = [];
      if (rows.length === 0) return;
      await commit(this.#scratch.kv, (op) => {
        for (const [key, s] of rows) op.set(["s", ...key], s);
      });
    };
    for await (const e of kv.list({ prefix }, { batchSize: 500 })) {
      if (!filter(e.key)) continue;
      batch.push([e.key, { v: this.#decode(e.value), vs: e.versionstamp }]);
      if (batch.length >= BUFFER) await flush();
    }
    await flush();
  }

  #decode(value: unknown): number {
    if (this.#encoding === "u64") return counterValue(value);
    return typeof value === "number" && Number.isFinite(value) ? value : 0;
  }

  /** Count `n` more for the counter at `key`. */
  async add(key: Deno.KvKey, n = 1): Promise<void> {
    const id = JSON.stringify(key);
    this.#sums.set(id, [key, (this.#sums.get(id)?.[1] ?? 0) + n]);
    if (this.#sums.size + this.#maxes.size >= BUFFER) await this.flush();
  }

  /** The peak counter at `key` must be at least `n`. */
  async raise(key: Deno.KvKey, n: number): Promise<void> {
    const id = JSON.stringify(key);
    this.#maxes.set(id, [key, Math.max(this.#maxes.get(id)?.[1] ?? 0, n)]);
    if (this.#sums.size + this.#maxes.size >= BUFFER) await this.flush();
  }

  /** Write what is buffered to the scratch store. */
  async flush(): Promise<void> {
    const sums = [...this.#sums.values()];
    const maxes = [...this.#maxes.values()];
    this.#sums = new Map();
    this.#maxes = new Map();
    if (sums.length + maxes.length === 0) return;
    await commit(this.#scratch.kv, (op) => {
      for (const [key, n] of sums) op.sum(["t", ...key], BigInt(n));
      for (const [key, n] of maxes) op.max(["t", ...key], BigInt(n));
    });
  }

  /**
   * Compare every snapshotted counter with its recount (a counter absent on one side is
   * 0 there), report each confirmed difference, and in a repair write the recount under
   * a check of the versionstamp the snapshot saw.
   */
  async settle(kv: Deno.Kv, report: FsckReport, opts: SettleOptions): Promise<void> {
    await this.flush();
    const s = this.#scratch.kv;
    const stored = s.list<Snapshotted>({ prefix: ["s"] }, { batchSize: 500 })[
      Symbol.asyncIterator
    ]();
    const counted = s.list<Deno.KvU64>({ prefix: ["t"] }, { batchSize: 500 })[
      Symbol.asyncIterator
    ]();
    let a = await stored.next();
    let b = await counted.next();
    const progress = report.progress(opts.label ?? opts.invariant);
    let n = 0;
    let differ: Difference[] = [];
    while (!a.done || !b.done) {
      const ak = a.done ? null : a.value.key.slice(1);
      const bk = b.done ? null : b.value.key.slice(1);
      const c = ak === null ? 1 : bk === null ? -1 : compareKeys(ak, bk);
      const key = (c <= 0 ? ak : bk)!;
      const snap = c <= 0 ? (a.value as Deno.KvEntry<Snapshotted>).value : null;
      const truth = c >= 0 ? Number((b.value as Deno.KvEntry<Deno.KvU64>).value.value) : 0;
      if (c <= 0) a = await stored.next();
      if (c >= 0) b = await counted.next();
      progress.update(++n);
      const value = snap?.v ?? 0;
      const atLeast = this.#rule(key) === "atLeast";
      if (atLeast ? value >= truth : value === truth) continue;
      differ.push({ key, versionstamp: snap?.vs ?? null, truth, atLeast });
      if (differ.length >= SETTLE_BATCH) {
        await this.#settleBatch(kv, report, opts, differ);
        differ = [];
      }
    }
    await this.#settleBatch(kv, report, opts, differ);
    progress.finish(n);
  }

  /** Confirm a batch of differences on a fresh read, report them, fix them in a repair. */
  async #settleBatch(
    kv: Deno.Kv,
    report: FsckReport,
    opts: SettleOptions,
    differ: Difference[],
  ): Promise<void> {
    if (differ.length === 0) return;
    // Read again: a counter a writer moved during the walk may have a stale recount.
    const now = await getAll(kv, differ.map((d) => d.key));
    const confirmed = differ.filter((d, i) => now[i].versionstamp === d.versionstamp);
    report.moved += differ.length - confirmed.length;
    const kindOf = (key: Deno.KvKey) => typeof opts.kind === "string" ? opts.kind : opts.kind(key);
    if (confirmed.length === 0) return;
    if (!opts.repair) {
      for (const d of confirmed) report.found(opts.invariant, kindOf(d.key), d.key);
      return;
    }
    // Distinct keys, one check and one write each: one op for the batch, or one each.
    const all = await commit(kv, (op) => confirmed.forEach((d) => this.#fix(op, d)));
    for (const d of confirmed) {
      const ok = all.ok || (await commit(kv, (op) => this.#fix(op, d))).ok;
      if (ok) report.found(opts.invariant, kindOf(d.key), d.key, true);
      else report.moved++;
    }
  }

  #fix(op: Deno.AtomicOperation, d: Difference): void {
    op.check({ key: d.key, versionstamp: d.versionstamp });
    if (d.atLeast) op.max(d.key, BigInt(d.truth));
    else if (d.truth === 0) op.delete(d.key);
    else op.set(d.key, this.#encode(d.truth));
  }

  #encode(n: number): unknown {
    return this.#encoding === "u64" ? new Deno.KvU64(BigInt(n)) : n;
  }
}

/**
 * Run `fn` with a new {@link Tally}, removed after whatever happens.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await withTally({}, async (tally) => {
 *   await tally.snapshot(kv, ["vote_counts"]);
 * });
 * ```
 */
export async function withTally<T>(
  opts: TallyOptions,
  fn: (tally: Tally) => Promise<T>,
): Promise<T> {
  const tally = await Tally.open(opts);
  try {
    return await fn(tally);
  } finally {
    await tally.close();
  }
}
