/**
 * The backfill of `["debates_by_time", …]` for debates created before that index: `/debates`
 * lists public debates from it, so without this a debate older than the index is never
 * listed. It runs as a periodic job of the runner (lib/jobs/runner.ts) that does its work
 * once: it walks every debate record in id order — ids start with their creation time —
 * and sets each one's index row (the same key and value `createDebate` writes, so a row
 * that exists is rewritten unchanged). Every batch commits its rows with the walk's
 * progress, under a check on that progress and the job's fence, so a run stopped anywhere
 * (shutdown, a lost lease) resumes after the last committed batch on any instance. Once
 * done it only reads its progress, once a day.
 *
 * Every debate gets its row, public or not: `/debates` filters by the owner's
 * `debateArchive` when it reads, so a debate whose owner turns public later appears then.
 *
 * @module
 */
import { commit, invertTime } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { JobKind } from "../jobs/runner.ts";
import type { DebateRecord } from "./store.ts";

/** The job kind's name (a periodic job: one record, id "main"). */
export const DEBATE_INDEX_BACKFILL_JOB = "debate-index-backfill";
/** Its progress record's name (`["backfills", name]`). */
export const DEBATE_INDEX_BACKFILL = "debates_by_time";
/** How often the finished job looks again (one read). */
export const BACKFILL_RECHECK_MS = 24 * 60 * 60_000;
/** Debates per batch (one index row each, one op per batch). */
const BATCH = 100;

/** Where a backfill stands. */
export interface BackfillProgress {
  /** The last id indexed (null: none yet). */
  after: string | null;
  /** Rows written so far. */
  indexed: number;
  /** When the walk reached the end (absent while it runs). */
  doneAt?: number;
}

/** Options of {@link backfillDebateTimeIndex}. */
export interface BackfillOptions {
  /** Adds the job's fence check to each op (none when called directly). */
  fence?: (op: Deno.AtomicOperation) => Deno.AtomicOperation;
  /** Stop after the batch in hand when this aborts. */
  signal?: AbortSignal;
  now?: () => number;
  /** Debates per batch (tests use small ones). */
  batch?: number;
}

/**
 * Index the debates the walk has not reached yet, batch by batch, until the end (then
 * marked done) or `signal` aborts. Returns the progress after the last committed batch.
 * Throws when a batch's commit fails: the progress moved or the lease was lost, and the
 * runner lets whoever holds the job go on.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const progress = await backfillDebateTimeIndex(kv);
 * progress.doneAt !== undefined; // true: every debate has its row
 * ```
 */
export async function backfillDebateTimeIndex(
  kv: Deno.Kv,
  { fence = (op) => op, signal, now = Date.now, batch = BATCH }: BackfillOptions = {},
): Promise<BackfillProgress> {
  const key = keys.backfill(DEBATE_INDEX_BACKFILL);
  for (;;) {
    const entry = await kv.get<BackfillProgress>(key);
    const progress = entry.value ?? { after: null, indexed: 0 };
    if (progress.doneAt !== undefined || signal?.aborted) return progress;
    const debates: DebateRecord[] = [];
    const iter = kv.list<DebateRecord>(
      progress.after === null
        ? { prefix: keys.debatesPrefix() }
        // "\0" after the last id: the first key past it.
        : { prefix: keys.debatesPrefix(), start: keys.debate(`${progress.after}\0`) },
      { limit: batch },
    );
    for await (const e of iter) debates.push(e.value);
    const next: BackfillProgress = {
      after: debates.at(-1)?.id ?? progress.after,
      indexed: progress.indexed + debates.length,
      ...(debates.length < batch ? { doneAt: now() } : {}),
    };
    const res = await commit(kv, (op) => {
      fence(op).check(entry).set(key, next);
      for (const d of debates) op.set(keys.debateByTime(invertTime(d.createdAt), d.id), d.id);
    });
    if (!res.ok) throw new Error("Debate index backfill: its progress moved or its lease was lost");
    if (next.doneAt !== undefined) return next;
  }
}

/**
 * The backfill as a periodic job kind: it runs at once on a store that never had it, and
 * resumes on any instance after a stop.
 *
 * @example
 * ```ts
 * import { jobRunner } from "@/lib/jobs/runner.ts";
 * declare const kv: Deno.Kv;
 * jobRunner(kv).register(debateIndexBackfillJobKind());
 * ```
 */
export function debateIndexBackfillJobKind(now: () => number = Date.now): JobKind {
  return {
    kind: DEBATE_INDEX_BACKFILL_JOB,
    every: BACKFILL_RECHECK_MS,
    run: async (ctx) => {
      await backfillDebateTimeIndex(ctx.kv, { fence: ctx.fence, signal: ctx.signal, now });
    },
  };
}
