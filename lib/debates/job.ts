/**
 * A debate as a job of the runner (lib/jobs/runner.ts): the request that accepts a debate
 * creates its job and runs it here with the request's stream listening; when that instance
 * dies or stops, any instance's resume pass claims the job and continues from the last
 * stored complete message (a half-streamed message is generated again; stored ones are
 * never written twice, each being stored with its event under the job's fence).
 *
 * The debate's own resume data is `["debates_running", id]` ({@link RunningDebate}: the
 * validated request and the opponent), written with the debate, deleted in its last op.
 *
 * @module
 */
import { giveUpWithError } from "../jobs/event_writer.ts";
import { commit } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { JobContext, JobKind } from "../jobs/runner.ts";
import type { LlmClient } from "../llm/types.ts";
import type { DebateEvent } from "./model.ts";
import { type AcceptedDebate, runDebate, type RunningDebate } from "./engine.ts";
import { personaById } from "./personas.ts";
import { type DebateRecord, failDebateOps, listMessages } from "./store.ts";
import { DebateWriter } from "./writer.ts";

/** The job kind's name. */
export const DEBATE_JOB = "debate";

/** What the accepting request hands to the run in-process. */
export interface DebateLocal {
  accepted: AcceptedDebate;
  /** Hears every event as it is emitted (the request's own stream). */
  listen?: (event: DebateEvent) => void;
  /** Called once the run stops here, whatever the reason (frees the capacity slot). */
  onEnd?: () => void | Promise<void>;
}

/** What a debate run needs. */
export interface DebateJobServices {
  kv: Deno.Kv;
  llm?: LlmClient;
  now: () => number;
}

/** The message of a debate given up after too many interrupted runs. */
export const INTERRUPTED_TOO_OFTEN = "The debate was interrupted too often and was stopped.";

/**
 * The debate job kind.
 *
 * @example
 * ```ts
 * import { jobRunner } from "@/lib/jobs/runner.ts";
 * declare const services: DebateJobServices;
 * jobRunner(services.kv).register(debateJobKind(services));
 * ```
 */
export function debateJobKind(services: DebateJobServices): JobKind<DebateLocal> {
  return {
    kind: DEBATE_JOB,
    // An instance without a model leaves debates to others.
    canRun: () => services.llm !== undefined,
    run: (ctx) => runDebateJob(services, ctx),
    giveUp: (ctx) =>
      giveUpWithError<DebateRecord>(ctx, {
        recordKey: keys.debate(ctx.id),
        headKey: keys.debateEventHead(ctx.id),
        writer: (seq) => new DebateWriter(ctx.kv, ctx.id, ctx, seq),
        message: INTERRUPTED_TOO_OFTEN,
        settle: (op, record) => {
          if (record?.status === "in_progress") {
            failDebateOps(op, record, INTERRUPTED_TOO_OFTEN, services.now());
          } else op.delete(keys.debateRunning(ctx.id));
        },
      }),
  };
}

async function runDebateJob(
  services: DebateJobServices,
  ctx: JobContext<DebateLocal>,
): Promise<void> {
  const { kv, id, local } = ctx;
  try {
    const llm = services.llm;
    const [record, running, head] = await kv.getMany<[DebateRecord, RunningDebate, number]>([
      keys.debate(id),
      keys.debateRunning(id),
      keys.debateEventHead(id),
    ]);
    const opponent = running.value && personaById(running.value.opponentId);
    if (!llm || !record.value || record.value.status !== "in_progress" || !opponent) {
      // Ended meanwhile (or unreadable): drop the resume data with the job.
      await commit(kv, (op) => ctx.finish(op).delete(keys.debateRunning(id)));
      return;
    }
    const resumed = local ? [] : await listMessages(kv, id);
    if (!local) console.log(`Resuming debate ${id} after message ${resumed.length}`);
    const accepted: AcceptedDebate = local?.accepted ?? {
      record: { ...record.value, messageCount: resumed.length },
      opponent,
      request: running.value!.request,
    };
    const writer = new DebateWriter(kv, id, ctx, head.value ?? 0);
    if (local?.listen) writer.listen(local.listen);
    try {
      await runDebate({ kv, llm, now: services.now }, accepted, writer, resumed, ctx.finish);
    } finally {
      await writer.close().catch(() => {});
    }
  } finally {
    try {
      await local?.onEnd?.();
    } catch (err) {
      console.error("Debate end listener failed", err);
    }
  }
}
