/**
 * Building a question's vote-ordered answer rows (lib/community/answer_order.ts) for a
 * question older than them, as a job of the runner (lib/jobs/runner.ts): the first
 * `?sort=votes` read that finds them missing asks for it, any instance runs it, a stopped
 * run is resumed elsewhere. The backfill is idempotent, so a resumed run just starts over.
 * Until it is done, `sort=votes` ranks every answer from its counters: slower, never wrong.
 *
 * @module
 */
import { commit } from "../kv/atomic.ts";
import { type JobKind, jobRunner } from "../jobs/runner.ts";
import { backfillAnswerOrder } from "./answer_order.ts";

/** The job kind's name (the job id is the question id). */
export const ANSWER_ORDER_JOB = "answer-order";

/**
 * The backfill job kind.
 *
 * @example
 * ```ts
 * import { jobRunner } from "@/lib/jobs/runner.ts";
 * declare const kv: Deno.Kv;
 * jobRunner(kv).register(answerOrderJobKind());
 * ```
 */
export function answerOrderJobKind(): JobKind {
  return {
    kind: ANSWER_ORDER_JOB,
    run: async (ctx) => {
      let p = await backfillAnswerOrder(ctx.kv, ctx.id);
      while (!p.done && !ctx.signal.aborted) {
        p = await backfillAnswerOrder(ctx.kv, ctx.id, { cursor: p.cursor });
      }
    },
  };
}

/**
 * Ask for the backfill of `questionId` (once: a job already there is left alone) and run
 * it here. Never throws.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await requestAnswerOrder(kv, "q-1");
 * ```
 */
export async function requestAnswerOrder(kv: Deno.Kv, questionId: string): Promise<void> {
  try {
    const jobs = jobRunner(kv);
    if (!jobs.has(ANSWER_ORDER_JOB)) return;
    const res = await commit(kv, (op) => jobs.newJobOps(op, ANSWER_ORDER_JOB, questionId));
    if (res.ok) await jobs.adopt(ANSWER_ORDER_JOB, questionId);
  } catch (err) {
    console.error(`Answer order of ${questionId}: could not start its backfill`, err);
  }
}
