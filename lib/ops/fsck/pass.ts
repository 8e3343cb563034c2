/**
 * One walk over a prefix of the store: each entry is judged against the few other keys
 * it implies (an index row against its record, a record against its index rows), a
 * hundred entries' reads batched at a time, so memory stays bounded at any store size.
 *
 * A suspect entry is read again — the entry and its implied keys in one `getMany`, one
 * snapshot — and judged again before it counts, so a write that landed between the walk
 * and its lookups is not a problem. A repair commits the verdicts' fixes in atomic ops
 * that check every key the judgements were drawn from: a live writer that changed any
 * of them makes the commit fail, and the entry is judged afresh (a few times, then left
 * for the next run) — a repair never writes over what a writer just did. The fixes of a
 * batch go out together in as few ops as KV's limits allow (one commit per fix made a
 * repair of a torn backup crawl); an op that fails a check is split into its entries.
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
   * The mutations (and any checks beyond the judged keys) that fix it; absent when it
   * cannot be derived and is only reported.
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
   * The keys an entry's judgement reads (at most 9: with the entry itself they are read
   * in one `getMany` when it is confirmed, and they are the checks of its repair).
   */
  reads(entry: Deno.KvEntry<T>): Deno.KvKey[];
  /** What is wrong with the entry given its reads (in `reads` order); none: fine. */
  judge(
    entry: Deno.KvEntry<T>,
    got: Deno.KvEntryMaybe<unknown>[],
  ): Verdict[] | Promise<Verdict[]>;
  /**
   * Called for every entry once judged, in walk order, with its reads: `standing` is
   * false when a verdict removes it. Tallies count here.
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
/** What one repair op may hold (KV allows 100 checks and 1000 mutations). */
const MAX_CHECKS = 96;
const MAX_MUTATIONS = 900;

/** An entry judged on a fresh snapshot. */
interface Judged<T> {
  entry: Deno.KvEntry<T>;
  got: Deno.KvEntryMaybe<unknown>[];
  verdicts: Verdict[];
}

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
    const reads: Deno.KvEntryMaybe<unknown>[][] = [];
    let at = 0;
    for (const w of wanted) {
      reads.push(got.slice(at, at + w.length));
      at += w.length;
    }
    const verdicts = await Promise.all(entries.map((e, i) => spec.judge(e, reads[i])));
    const suspects = entries.filter((_, i) => verdicts[i].length > 0).map((e) => e.key);
    const settled = await settleAll(kv, report, repair, spec, suspects);
    for (let i = 0; i < entries.length; i++) {
      if (verdicts[i].length === 0) {
        await spec.counted?.(entries[i], reads[i], true);
        continue;
      }
      const s = settled.get(entries[i].key);
      if (s) await spec.counted?.(s.entry, s.got, !s.verdicts.some((v) => v.removes));
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

/** Read an entry and its implied keys in one snapshot, and judge it. */
async function judgeFresh<T>(
  kv: Deno.Kv,
  spec: PassSpec<T>,
  key: Deno.KvKey,
): Promise<Judged<T> | null> {
  let entry = await kv.get<T>(key);
  for (let i = 0; i < TRIES && entry.versionstamp !== null; i++) {
    const reads = spec.reads(entry as Deno.KvEntry<T>);
    const [again, ...got] = await kv.getMany<unknown[]>([key, ...reads]);
    // The implied keys depend on the entry's value: when it moved, read again.
    if (again.versionstamp === entry.versionstamp) {
      const fresh = again as Deno.KvEntry<T>;
      return { entry: fresh, got, verdicts: await spec.judge(fresh, got) };
    }
    entry = again as Deno.KvEntryMaybe<T>;
  }
  return null; // gone (a writer deleted it), or changing too fast to judge
}

/** A key as a string, for sets of keys. */
function keyId(key: Deno.KvKey): string {
  return JSON.stringify(
    key,
    (_k, v) => typeof v === "bigint" ? `${v}n` : v instanceof Uint8Array ? [...v] : v,
  );
}

/** What a fix's op holds: its size, and the keys it checks, writes and moves commutatively. */
interface Footprint {
  checks: number;
  mutations: number;
  checked: Set<string>;
  written: Set<string>;
  /** Keys only moved with `sum`/`max`, which commute with other such moves. */
  moved: Set<string>;
}

/** The footprint of an entry's fix, taken by running it on a stand-in op. */
function footprintOf<T>(j: Judged<T>): Footprint {
  const f: Footprint = {
    checks: 0,
    mutations: 0,
    checked: new Set(),
    written: new Set(),
    moved: new Set(),
  };
  const op: Record<string, unknown> = {};
  op.check = (...checks: Deno.AtomicCheck[]) => {
    for (const c of checks) f.checked.add(keyId(c.key));
    f.checks += checks.length;
    return op;
  };
  const mutation = (into: Set<string>) => (key: Deno.KvKey) => {
    into.add(keyId(key));
    f.mutations++;
    return op;
  };
  op.set = mutation(f.written);
  op.delete = mutation(f.written);
  op.sum = op.min = op.max = mutation(f.moved);
  addFix(op as unknown as Deno.AtomicOperation, j);
  for (const k of f.written) f.moved.delete(k);
  return f;
}

function meets(a: Set<string>, b: Set<string>): boolean {
  for (const k of a) if (b.has(k)) return true;
  return false;
}

/**
 * True when two fixes can share an op: neither writes a key the other checks, writes or
 * moves, and neither moves a key the other checks (two fixes of one batch may both have
 * judged a head free and claimed the position after it).
 */
function disjoint(a: Footprint, b: Footprint): boolean {
  return !meets(a.written, b.checked) && !meets(a.written, b.written) &&
    !meets(a.written, b.moved) && !meets(b.written, a.checked) && !meets(b.written, a.moved) &&
    !meets(a.moved, b.checked) && !meets(b.moved, a.checked);
}

/** One fix's op: checks on what it was judged from, then its verdicts' fixes. */
function addFix<T>(op: Deno.AtomicOperation, j: Judged<T>): void {
  op.check(j.entry, ...j.got);
  for (const v of j.verdicts) v.fix?.(op);
}

function record<T>(report: FsckReport, spec: PassSpec<T>, j: Judged<T>, fixed: boolean): void {
  for (const v of j.verdicts) {
    report.found(spec.invariant, v.kind, v.key ?? j.entry.key, fixed && !!v.fix);
  }
}

/**
 * Confirm the suspects on fresh snapshots, report them, and in a repair fix them: in
 * shared ops first, then — for an op that lost a check — one by one, judged afresh.
 * Returns the judgement each suspect ended with (absent: gone or left unjudged).
 */
async function settleAll<T>(
  kv: Deno.Kv,
  report: FsckReport,
  repair: boolean,
  spec: PassSpec<T>,
  suspects: Deno.KvKey[],
): Promise<Map<Deno.KvKey, Judged<T>>> {
  const out = new Map<Deno.KvKey, Judged<T>>();
  if (suspects.length === 0) return out;
  const fresh = await Promise.all(suspects.map(async (key) => {
    const j = await judgeFresh(kv, spec, key);
    // A check writes nothing to catch a race with: it asks twice. Some judgements read a
    // key or two after their snapshot (a reply's root, a feed row), and a writer between
    // those reads could show a moment that is no problem; two in a row are not a moment.
    if (repair || !j || j.verdicts.length === 0) return j;
    return await judgeFresh(kv, spec, key);
  }));
  const toFix: { key: Deno.KvKey; j: Judged<T>; f: Footprint }[] = [];
  suspects.forEach((key, i) => {
    const j = fresh[i];
    if (!j) return;
    out.set(key, j);
    if (j.verdicts.length === 0) return; // fine after all: a write landed meanwhile
    if (!repair || !j.verdicts.some((v) => v.fix)) return record(report, spec, j, false);
    toFix.push({ key, j, f: footprintOf(j) });
  });
  // Shared ops, as large as KV allows, of fixes that touch different keys.
  const alone: typeof toFix = [];
  let rest = toFix;
  while (rest.length > 0) {
    const group: typeof toFix = [];
    const later: typeof toFix = [];
    let checks = 0;
    let mutations = 0;
    for (const item of rest) {
      const fits = checks + item.f.checks <= MAX_CHECKS &&
        mutations + item.f.mutations <= MAX_MUTATIONS &&
        group.every((g) => disjoint(g.f, item.f));
      if (group.length > 0 && !fits) {
        later.push(item);
        continue;
      }
      group.push(item);
      checks += item.f.checks;
      mutations += item.f.mutations;
    }
    rest = later;
    const res = group.length > 1
      ? await commit(kv, (op) => group.forEach((g) => addFix(op, g.j)))
      : { ok: false };
    if (res.ok) { for (const g of group) record(report, spec, g.j, true); }
    else alone.push(...group);
  }
  for (const { key, j } of alone) {
    const done = await fixAlone(kv, report, spec, key, j);
    if (done) out.set(key, done);
    else out.delete(key);
  }
  return out;
}

/** Fix one entry in an op of its own, judging it afresh after a lost check. */
async function fixAlone<T>(
  kv: Deno.Kv,
  report: FsckReport,
  spec: PassSpec<T>,
  key: Deno.KvKey,
  first: Judged<T>,
): Promise<Judged<T> | null> {
  let j: Judged<T> | null = first;
  for (let i = 0; i < TRIES && j; i++) {
    if (j.verdicts.length === 0) return j;
    const current: Judged<T> = j;
    const res = await commit(kv, (op) => addFix(op, current));
    if (res.ok) {
      record(report, spec, current, true);
      return current;
    }
    j = await judgeFresh(kv, spec, key); // a writer changed what it was judged from
  }
  if (j) report.moved++;
  return null;
}
