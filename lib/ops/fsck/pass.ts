/**
 * One walk over a prefix of the store: each entry is judged against the few other keys
 * it implies (an index row against its record, a record against its index rows), a
 * hundred entries' reads batched at a time, so memory stays bounded at any store size.
 *
 * A suspect entry is read again — the entry and its implied keys in one `getMany`, one
 * snapshot — and judged again before it counts, so a write that landed between the walk
 * and its lookups is not a problem. A repair commits the verdicts' fixes in one atomic op
 * that checks every key the judgement was drawn from: a live writer that changed any of
 * them makes the commit fail, and the entry is judged afresh (a few times, then left for
 * the next run) — a repair never writes over what a writer just did.
 *
 * @module
 */
import { commit, getAll } from "../../kv/atomic.ts";
import type { FsckReport } from "./report.ts";

/** One thing wrong with an entry. */
export interface Verdict {
  /** The kind of problem, one sentence: "question without its time-feed row". */
  kind: string;
  /**
   * The mutations that fix it (the repair adds the checks); absent when it cannot be
   * derived and is only reported.
   */
  fix?: (op: Deno.AtomicOperation) => void;
  /** The fix deletes the walked entry (it no longer counts toward a tally). */
  removes?: boolean;
  /** The key to show as the example (default: the walked entry's). */
  key?: Deno.KvKey;
}

/** What a pass walks and how it judges. */
export interface PassSpec<T> {
  invariant: string;
  /** Progress label. */
  label: string;
  prefix: Deno.KvKey;
  /** Entries to leave out of the walk. */
  filter?: (key: Deno.KvKey) => boolean;
  /**
   * The keys an entry's judgement reads (at most 9: with the entry itself they are the
   * checks of its repair, and KV allows 10).
   */
  reads(entry: Deno.KvEntry<T>): Deno.KvKey[];
  /** What is wrong with the entry given its reads (in `reads` order); none: fine. */
  judge(
    entry: Deno.KvEntry<T>,
    got: Deno.KvEntryMaybe<unknown>[],
  ): Verdict[] | Promise<Verdict[]>;
  /**
   * Called for every entry once judged, with its reads: `standing` is false when a
   * verdict removes it. Tallies count here.
   */
  counted?(
    entry: Deno.KvEntry<T>,
    got: Deno.KvEntryMaybe<unknown>[],
    standing: boolean,
  ): void | Promise<void>;
}

/** Entries whose reads go out together. */
const BATCH = 100;
/** Tries to confirm and fix one entry while writers keep changing it. */
const TRIES = 3;

/**
 * Walk `spec.prefix`, report each confirmed problem and, when `repair`, fix it.
 *
 * @example
 * ```ts
 * import { FsckReport } from "./report.ts";
 * declare const kv: Deno.Kv;
 * await runPass(kv, new FsckReport(), false, {
 *   invariant: "questions",
 *   label: "time feed",
 *   prefix: ["questions_by_time"],
 *   reads: (e) => [["questions", e.value as string]],
 *   judge: (_e, [q]) => q.value ? [] : [{ kind: "row of a missing question", removes: true }],
 * });
 * ```
 */
export async function runPass<T>(
  kv: Deno.Kv,
  report: FsckReport,
  repair: boolean,
  spec: PassSpec<T>,
): Promise<void> {
  const progress = report.progress(`${spec.invariant} ${spec.label}`);
  let seen = 0;
  let batch: Deno.KvEntry<T>[] = [];
  const flush = async () => {
    const entries = batch;
    batch = [];
    if (entries.length === 0) return;
    const wanted = entries.map((e) => spec.reads(e));
    const got = await getAll(kv, wanted.flat());
    let at = 0;
    for (let i = 0; i < entries.length; i++) {
      const mine = got.slice(at, at + wanted[i].length);
      at += wanted[i].length;
      const verdicts = await spec.judge(entries[i], mine);
      if (verdicts.length === 0) await spec.counted?.(entries[i], mine, true);
      else await settle(kv, report, repair, spec, entries[i].key);
    }
    seen += entries.length;
    progress.update(seen);
  };
  for await (const e of kv.list<T>({ prefix: spec.prefix }, { batchSize: 500 })) {
    if (spec.filter && !spec.filter(e.key)) continue;
    batch.push(e);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  progress.finish(seen);
}

/** Read an entry and its implied keys in one snapshot. */
async function snapshot<T>(
  kv: Deno.Kv,
  spec: PassSpec<T>,
  key: Deno.KvKey,
): Promise<{ entry: Deno.KvEntry<T>; got: Deno.KvEntryMaybe<unknown>[] } | null> {
  let entry = await kv.get<T>(key);
  for (let i = 0; i < TRIES && entry.versionstamp !== null; i++) {
    const reads = spec.reads(entry as Deno.KvEntry<T>);
    const [again, ...got] = await kv.getMany<unknown[]>([key, ...reads]);
    // The implied keys depend on the entry's value: when it moved, read again.
    if (again.versionstamp === entry.versionstamp) {
      return { entry: again as Deno.KvEntry<T>, got };
    }
    entry = again as Deno.KvEntryMaybe<T>;
  }
  return null;
}

/** Confirm a suspect entry on a fresh snapshot, report it, and fix it in a repair. */
async function settle<T>(
  kv: Deno.Kv,
  report: FsckReport,
  repair: boolean,
  spec: PassSpec<T>,
  key: Deno.KvKey,
): Promise<void> {
  for (let i = 0; i < TRIES; i++) {
    const read = await snapshot(kv, spec, key);
    if (!read) return; // gone (a writer deleted it): nothing to judge
    const { entry, got } = read;
    const verdicts = await spec.judge(entry, got);
    if (verdicts.length === 0) {
      await spec.counted?.(entry, got, true);
      return;
    }
    const fixes = verdicts.filter((v) => v.fix);
    let fixed = false;
    if (repair && fixes.length > 0) {
      const res = await commit(kv, (op) => {
        op.check(entry, ...got);
        for (const v of fixes) v.fix!(op);
      });
      if (!res.ok) continue; // a writer changed what the verdict was drawn from
      fixed = true;
    }
    for (const v of verdicts) report.found(spec.invariant, v.kind, v.key ?? key, fixed && !!v.fix);
    await spec.counted?.(entry, got, !verdicts.some((v) => v.removes));
    return;
  }
  report.moved++;
}
