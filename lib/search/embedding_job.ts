/**
 * The embeddings job: a periodic job of the runner (lib/jobs/runner.ts) that fills what the
 * writes left (./embed_on_write.ts gives up after its bound, or the model was down):
 *
 * - **Pending markers**: walks `["embedding_pending"]` in batches of
 *   {@link EMBEDDING_BATCH} — one model call per batch — and writes each vector with its
 *   marker's delete, checking the question is unchanged (./question_vectors.ts).
 * - **Backfill**: questions written before this feature (or embedded by another model or
 *   at another size) have neither a fitting vector nor a marker; a cursor pass over
 *   `["questions"]` gives them markers, {@link BACKFILL_PAGE} at a time, the cursor saved in
 *   the same op, so any instance resumes where the last stopped. A new model or size starts
 *   the pass over.
 * - **Backoff**: when the model fails (down, timing out, refusing every text), the run
 *   stops and the next runs skip the model for 30 s, doubling up to 30 min; the first
 *   success resets it. A text the model itself refuses (too long, say) is retried
 *   {@link MAX_TEXT_FAILURES} times, then its marker is dropped with a log line.
 *
 * Every commit carries the run's fence, so only the job's holder writes.
 *
 * @module
 */
import { commit, getAll } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { sha256Hex } from "../ids.ts";
import type { JobKind } from "../jobs/runner.ts";
import type { Services } from "../services.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import { type Embedder, embeddingRejected } from "./embeddings.ts";
import { embedOnWrites } from "./embed_on_write.ts";
import {
  embeddedTextOf,
  embedPendingQuestions,
  type PendingEmbedding,
  type QuestionVector,
  vectorFits,
} from "./question_vectors.ts";

/** The job kind's name (one periodic job, id `main`). */
export const EMBEDDING_JOB = "embeddings";
/** How often the job runs, in ms. */
export const EMBEDDING_JOB_EVERY_MS = 30_000;
/** Texts per model call. */
export const EMBEDDING_BATCH = 32;
/** Questions the backfill looks at per step (one list, one op of markers). */
export const BACKFILL_PAGE = 100;
/** Times the model may refuse one text before its marker is dropped. */
export const MAX_TEXT_FAILURES = 3;
/** First wait after a model failure, in ms; doubled per failure in a row. */
export const BACKOFF_BASE_MS = 30_000;
/** Longest wait after model failures, in ms. */
export const BACKOFF_MAX_MS = 30 * 60_000;
/** Longest a run keeps working before it yields to the next one, in ms. */
export const RUN_BUDGET_MS = 20_000;

/** The job's state under `["embedding_job"]`. */
export interface EmbeddingJobState {
  /** Model failures in a row (0 after a success). */
  failures: number;
  /** Time (ms) before which runs skip the model. */
  retryAt: number;
  /** The backfill pass, for one model and size. */
  backfill: { model: string; dims: number; cursor?: string; done: boolean };
}

/** Options of {@link runEmbeddingPass}. */
export interface EmbeddingPassOptions {
  /** The clock of the backoff (default `Date.now`). */
  now?: () => number;
  /** Stops the pass between steps (shutdown, a lost lease). */
  signal?: AbortSignal;
  /** Adds the job's fence to every commit. */
  fence?: (op: Deno.AtomicOperation) => Deno.AtomicOperation;
  /** Longest the pass keeps working, in ms (default {@link RUN_BUDGET_MS}). */
  budgetMs?: number;
  /** Texts per model call (default {@link EMBEDDING_BATCH}). */
  batchSize?: number;
  /** Questions per backfill step (default {@link BACKFILL_PAGE}). */
  pageSize?: number;
}

/** What one pass did. */
export interface EmbeddingPassReport {
  /** Vectors written. */
  embedded: number;
  /** Markers removed without a model call (text unchanged, question gone). */
  settled: number;
  /** Markers the backfill wrote. */
  marked: number;
  /** Markers dropped after the model refused their text too often. */
  gaveUp: number;
  /** True when the pass did not call the model because of an earlier failure. */
  backingOff: boolean;
  /** The model's failure that stopped this pass (safe to log). */
  modelError?: string;
  /** True once the backfill has looked at every question. */
  backfillDone: boolean;
}

function freshBackfill(embedder: Embedder): EmbeddingJobState["backfill"] {
  return { model: embedder.model, dims: embedder.dims, done: false };
}

/**
 * One pass of the job: markers first, then backfill steps, until nothing is left, the
 * budget is spent or the model fails.
 *
 * @example
 * ```ts
 * import type { Embedder } from "@/lib/search/embeddings.ts";
 * declare const kv: Deno.Kv;
 * declare const embedder: Embedder;
 * const report = await runEmbeddingPass(kv, embedder);
 * console.log(report.embedded, report.backfillDone);
 * ```
 */
export async function runEmbeddingPass(
  kv: Deno.Kv,
  embedder: Embedder,
  opts: EmbeddingPassOptions = {},
): Promise<EmbeddingPassReport> {
  const now = opts.now ?? Date.now;
  const fence = opts.fence ?? ((op: Deno.AtomicOperation) => op);
  const budgetMs = opts.budgetMs ?? RUN_BUDGET_MS;
  const batchSize = opts.batchSize ?? EMBEDDING_BATCH;
  const pageSize = opts.pageSize ?? BACKFILL_PAGE;
  const started = performance.now();
  const report: EmbeddingPassReport = {
    embedded: 0,
    settled: 0,
    marked: 0,
    gaveUp: 0,
    backingOff: false,
    backfillDone: false,
  };
  const stored = (await kv.get<EmbeddingJobState>(keys.embeddingJob())).value;
  const state: EmbeddingJobState = stored ??
    { failures: 0, retryAt: 0, backfill: freshBackfill(embedder) };
  if (state.backfill.model !== embedder.model || state.backfill.dims !== embedder.dims) {
    state.backfill = freshBackfill(embedder); // another model: every vector is made again
  }
  report.backfillDone = state.backfill.done;
  if (state.retryAt > now()) {
    report.backingOff = true;
    return report;
  }
  const save = () => commit(kv, (op) => fence(op).set(keys.embeddingJob(), state));
  const going = () => !opts.signal?.aborted && performance.now() - started < budgetMs;

  let cursor: string | undefined;
  let calledModel = false;
  while (going()) {
    const batch = await listPending(kv, batchSize, cursor);
    if (batch.ids.length > 0) {
      cursor = batch.cursor;
      try {
        await embedBatch(kv, embedder, batch.ids, fence, report, opts.signal);
        calledModel = true;
      } catch (err) {
        if (opts.signal?.aborted) return report;
        state.failures++;
        state.retryAt = now() +
          Math.min(BACKOFF_BASE_MS * 2 ** (state.failures - 1), BACKOFF_MAX_MS);
        report.modelError = err instanceof Error ? err.message : String(err);
        await save();
        return report;
      }
      continue;
    }
    if (state.backfill.done) break;
    const marked = await backfillStep(kv, embedder, state, pageSize, fence);
    report.marked += marked;
    report.backfillDone = state.backfill.done;
    if (marked > 0) cursor = undefined; // the new markers may sort before the walk's place
  }
  if (calledModel && state.failures > 0) {
    state.failures = 0;
    state.retryAt = 0;
    await save();
  } else if (!stored) await save();
  return report;
}

/** One page of pending question ids, after `cursor`. */
async function listPending(
  kv: Deno.Kv,
  limit: number,
  cursor: string | undefined,
): Promise<{ ids: string[]; cursor?: string }> {
  const iter = kv.list<PendingEmbedding>({ prefix: keys.embeddingPendingPrefix() }, {
    limit,
    cursor,
  });
  const ids: string[] = [];
  let after = cursor;
  for await (const e of iter) {
    ids.push(e.key[1] as string);
    // Read per entry: once the list is exhausted, KV's cursor is "" (the start again).
    after = iter.cursor;
  }
  return { ids, cursor: after };
}

/**
 * Embed one batch. When the model refuses it, each text is tried alone, and a text it
 * refuses while it embeds a plain probe text counts a failure against that question; when
 * it refuses even the probe, the fault is the model's (the failure is thrown: backoff).
 */
async function embedBatch(
  kv: Deno.Kv,
  embedder: Embedder,
  ids: string[],
  fence: (op: Deno.AtomicOperation) => Deno.AtomicOperation,
  report: EmbeddingPassReport,
  signal: AbortSignal | undefined,
): Promise<void> {
  const tally = (out: Awaited<ReturnType<typeof embedPendingQuestions>>) => {
    report.embedded += out.embedded.length;
    report.settled += out.settled.length;
  };
  try {
    tally(await embedPendingQuestions(kv, embedder, ids, { fence, signal }));
    return;
  } catch (err) {
    if (!embeddingRejected(err)) throw err;
  }
  const refused: string[] = [];
  for (const id of ids) {
    try {
      tally(await embedPendingQuestions(kv, embedder, [id], { fence, signal }));
    } catch (err) {
      if (!embeddingRejected(err)) throw err;
      refused.push(id);
    }
  }
  if (refused.length === 0) return;
  // Throws when the model refuses a plain text too: then nothing is the texts' fault.
  await embedder.embed(["Parley question"], { signal });
  for (const id of refused) {
    const marker = await kv.get<PendingEmbedding>(keys.embeddingPending(id));
    if (!marker.value) continue;
    const failures = (marker.value.failures ?? 0) + 1;
    const giveUp = failures >= MAX_TEXT_FAILURES;
    const res = await commit(kv, (op) => {
      fence(op).check(marker);
      if (giveUp) op.delete(keys.embeddingPending(id));
      else op.set(keys.embeddingPending(id), { failures } satisfies PendingEmbedding);
    });
    if (res.ok && giveUp) {
      report.gaveUp++;
      console.warn(
        `Embeddings job: the model refused question ${id}'s text ${failures} times; it stays without a vector until it is edited`,
      );
    }
  }
}

/**
 * One backfill step: the next page of questions; those live, without a marker and
 * without a vector of this model and text get a marker, in one op with the moved cursor.
 * Returns how many it marked.
 */
async function backfillStep(
  kv: Deno.Kv,
  embedder: Embedder,
  state: EmbeddingJobState,
  pageSize: number,
  fence: (op: Deno.AtomicOperation) => Deno.AtomicOperation,
): Promise<number> {
  const iter = kv.list<QuestionRecord>({ prefix: keys.questionsPrefix() }, {
    limit: pageSize,
    cursor: state.backfill.cursor,
  });
  const live: QuestionRecord[] = [];
  let seen = 0;
  let after = state.backfill.cursor;
  for await (const e of iter) {
    seen++;
    after = iter.cursor; // per entry: an exhausted list's cursor is "" (the start again)
    const q = e.value;
    if (q.deletedAt === undefined && q.hiddenAt === undefined) live.push(q);
  }
  const around = await getAll<unknown>(
    kv,
    live.flatMap((q) => [keys.embeddingPending(q.id), keys.questionVector(q.id)]),
  );
  const toMark: string[] = [];
  for (const [i, q] of live.entries()) {
    if (around[i * 2].versionstamp !== null) continue; // already pending
    const vec = around[i * 2 + 1].value as QuestionVector | null;
    if (vectorFits(vec, embedder) && vec.text === await sha256Hex(embeddedTextOf(q))) continue;
    toMark.push(q.id);
  }
  if (seen < pageSize) state.backfill = { ...state.backfill, cursor: undefined, done: true };
  else state.backfill = { ...state.backfill, cursor: after };
  const res = await commit(kv, (op) => {
    fence(op).set(keys.embeddingJob(), state);
    for (const id of toMark) {
      op.set(keys.embeddingPending(id), { failures: 0 } satisfies PendingEmbedding);
    }
  });
  if (!res.ok) throw new Error("Embeddings job: the backfill's commit lost its fence");
  return toMark.length;
}

/**
 * The embeddings job kind. Registering it also gives the store's writes their embedder
 * (./embed_on_write.ts): both come from `services.embedder`, absent when no model is
 * configured (the job then never runs here).
 *
 * @example
 * ```ts
 * import { jobRunner } from "@/lib/jobs/runner.ts";
 * import type { Services } from "@/lib/services.ts";
 * declare const services: Services;
 * jobRunner(services.kv).register(embeddingJobKind(services));
 * ```
 */
export function embeddingJobKind(services: Services): JobKind {
  embedOnWrites(services.kv, services.embedder);
  return {
    kind: EMBEDDING_JOB,
    every: EMBEDDING_JOB_EVERY_MS,
    canRun: () => services.embedder !== undefined,
    run: async (ctx) => {
      const embedder = services.embedder;
      if (!embedder) return;
      const report = await runEmbeddingPass(ctx.kv, embedder, {
        now: services.now,
        signal: ctx.signal,
        fence: ctx.fence,
      });
      if (report.modelError) {
        console.warn(
          `Embeddings job: the model failed (${report.modelError}); retrying in a while`,
        );
      }
    },
  };
}
