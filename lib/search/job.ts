/**
 * The `search` job (periodic, on the runner of lib/jobs/runner.ts): reindexes questions a
 * crash left marked (lib/search/reindex.ts), then continues the backfill — a resumable pass
 * over every question, newest first, that indexes the ones without a search document
 * (questions stored before the index existed). The pass's cursor is committed under the
 * job's fence, so a resumed run continues where the last one stopped.
 *
 * @module
 */
import { commit, getAll } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { JobContext, JobKind } from "../jobs/runner.ts";
import { docKey } from "./index.ts";
import { reindexQuestion } from "./reindex.ts";

/** The job kind's name. */
export const SEARCH_JOB = "search";
/** How often a pass runs (ms). */
export const SEARCH_JOB_EVERY_MS = 5_000;
/** Questions looked at per backfill step (each step commits its cursor). */
export const BACKFILL_STEP = 50;

/** `["search_backfill"]`: the last question key the pass looked at, and whether it ended. */
export interface BackfillState {
  cursor: string | null;
  done: boolean;
}

/** Reindex every marked question (a bounded number per run). */
async function drainMarks(ctx: JobContext, limit: number): Promise<number> {
  let n = 0;
  for await (const e of ctx.kv.list({ prefix: keys.searchDirtyPrefix() }, { limit })) {
    if (ctx.signal.aborted) break;
    await reindexQuestion(ctx.kv, e.key[1] as string);
    n++;
  }
  return n;
}

/**
 * One step of the backfill: up to {@link BACKFILL_STEP} questions after the cursor; those
 * without a document are indexed. Returns false once the pass has ended.
 */
export async function backfillStep(
  kv: Deno.Kv,
  fence: (op: Deno.AtomicOperation) => Deno.AtomicOperation,
): Promise<boolean> {
  const state = (await kv.get<BackfillState>(keys.searchBackfill())).value ??
    { cursor: null, done: false };
  if (state.done) return false;
  const ids: string[] = [];
  const page = kv.list<string>({ prefix: keys.questionsByTimePrefix() }, {
    limit: BACKFILL_STEP,
    cursor: state.cursor ?? undefined,
  });
  for await (const e of page) ids.push(e.value);
  const cursor = page.cursor;
  const all = await getAll(kv, ids.map((id) => docKey("question", id)));
  for (let i = 0; i < ids.length; i++) if (all[i].value === null) await reindexQuestion(kv, ids[i]);
  const done = ids.length < BACKFILL_STEP;
  if (done) await dropLegacyPostings(kv);
  await commit(
    kv,
    (op) =>
      fence(op).set(
        keys.searchBackfill(),
        { cursor: done ? null : cursor, done } satisfies BackfillState,
      ),
  );
  return !done;
}

/** Delete the previous index's postings, a batch per commit. */
async function dropLegacyPostings(kv: Deno.Kv): Promise<void> {
  for (;;) {
    const batch: Deno.KvKey[] = [];
    for await (const e of kv.list({ prefix: keys.legacySearchPostings() }, { limit: 500 })) {
      batch.push(e.key);
    }
    if (batch.length === 0) return;
    await commit(kv, (op) => batch.forEach((k) => op.delete(k)));
  }
}

/**
 * The search job kind.
 *
 * @example
 * ```ts
 * import { jobRunner } from "@/lib/jobs/runner.ts";
 * declare const kv: Deno.Kv;
 * jobRunner(kv).register(searchJobKind());
 * ```
 */
export function searchJobKind(everyMs: number = SEARCH_JOB_EVERY_MS): JobKind {
  return {
    kind: SEARCH_JOB,
    every: everyMs,
    run: async (ctx) => {
      await drainMarks(ctx, 200);
      // A bounded slice of the backfill per run, so a big store shares the runner.
      for (let i = 0; i < 20 && !ctx.signal.aborted; i++) {
        if (!(await backfillStep(ctx.kv, ctx.fence))) break;
      }
    },
  };
}
