/**
 * A roundtable as a job of the runner (lib/jobs/runner.ts), like a debate
 * (lib/debates/job.ts): the request that accepts it creates its job and runs it here;
 * when that instance dies or stops, any instance's resume pass claims the job and
 * continues after the last stored statement (a half-streamed one is generated again;
 * stored ones are never written twice, each being stored with its event under the job's
 * fence).
 *
 * @module
 */
import { giveUpWithError } from "../jobs/event_writer.ts";
import { commit } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { JobContext, JobKind } from "../jobs/runner.ts";
import type { LlmClient } from "../llm/types.ts";
import { roundtableWriter, runRoundtable } from "./engine.ts";
import type { RoundtableRecord } from "./model.ts";
import { failOps, listMessages, ROUNDTABLE_JOB } from "./store.ts";

export { ROUNDTABLE_JOB };

/** What the accepting request hands to the run in-process. */
export interface RoundtableLocal {
  /** Called once the run stops here, whatever the reason (frees the capacity slot). */
  onEnd?: () => void | Promise<void>;
}

/** What a roundtable run needs. */
export interface RoundtableJobServices {
  kv: Deno.Kv;
  llm?: LlmClient;
  now: () => number;
}

/** The message of a roundtable given up after too many interrupted runs. */
export const INTERRUPTED_TOO_OFTEN = "The roundtable was interrupted too often and was stopped.";

/**
 * The roundtable job kind.
 *
 * @example
 * ```ts
 * import { jobRunner } from "@/lib/jobs/runner.ts";
 * declare const services: RoundtableJobServices;
 * jobRunner(services.kv).register(roundtableJobKind(services));
 * ```
 */
export function roundtableJobKind(services: RoundtableJobServices): JobKind<RoundtableLocal> {
  return {
    kind: ROUNDTABLE_JOB,
    // An instance without a model leaves roundtables to others.
    canRun: () => services.llm !== undefined,
    run: (ctx) => runRoundtableJob(services, ctx),
    giveUp: (ctx) =>
      giveUpWithError<RoundtableRecord>(ctx, {
        recordKey: keys.roundtable(ctx.id),
        headKey: keys.roundtableEventHead(ctx.id),
        writer: (seq) => roundtableWriter(ctx.kv, ctx.id, ctx, seq),
        message: INTERRUPTED_TOO_OFTEN,
        settle: (op, record) => {
          if (record?.status === "in_progress") {
            failOps(op, record, INTERRUPTED_TOO_OFTEN, services.now());
          }
        },
      }),
  };
}

async function runRoundtableJob(
  services: RoundtableJobServices,
  ctx: JobContext<RoundtableLocal>,
): Promise<void> {
  const { kv, id, local } = ctx;
  try {
    const llm = services.llm;
    const [record, head] = await kv.getMany<[RoundtableRecord, number]>([
      keys.roundtable(id),
      keys.roundtableEventHead(id),
    ]);
    if (!llm || !record.value || record.value.status !== "in_progress") {
      await commit(kv, (op) => ctx.finish(op));
      return;
    }
    const resumed = await listMessages(kv, id);
    if (!local) console.log(`Resuming roundtable ${id} after message ${resumed.length}`);
    const writer = roundtableWriter(kv, id, ctx, head.value ?? 0);
    try {
      await runRoundtable(
        { kv, llm, now: services.now },
        { ...record.value, messageCount: resumed.length },
        writer,
        resumed,
        ctx.finish,
      );
    } finally {
      await writer.close().catch(() => {});
    }
  } finally {
    try {
      await local?.onEnd?.();
    } catch (err) {
      console.error("Roundtable end listener failed", err);
    }
  }
}
