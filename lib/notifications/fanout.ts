/**
 * The `answer` notification to every follower of a question, as a job of the runner
 * (lib/jobs/runner.ts): created in the answer's own op, so a crash right after the commit
 * loses nothing, and run outside the request in batches of {@link FANOUT_BATCH}. Each
 * batch commits its notifications together with the job's cursor under the job's fence,
 * so a resumed fan-out continues after the last follower notified — nobody twice, nobody
 * left out, however many follow (no cap).
 *
 * @module
 */
import { commit } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { JobKind, JobRunner } from "../jobs/runner.ts";
import { type NewNotification, notifyInOp } from "./notifications.ts";

/** The job kind's name (the job id is the answer's message id). */
export const FANOUT_JOB = "fanout";
/** Recipients per commit (2 mutations each, far below KV's limit). */
export const FANOUT_BATCH = 100;

/** `["fanout_jobs", messageId]`: what to send, to whom not, and how far it got. */
export interface FanoutState {
  n: NewNotification;
  /** Notified in the answer's op, or the actor: not again. */
  skip: string[];
  /** The last follow key notified (the list resumes after it); null before the first. */
  cursor: Deno.KvKey | null;
  sent: number;
}

/**
 * Add a fan-out of `n` to the question's followers (but `skip`) to the op of the answer.
 *
 * @example
 * ```ts
 * import { jobRunner } from "@/lib/jobs/runner.ts";
 * import type { NewNotification } from "@/lib/notifications/notifications.ts";
 * declare const kv: Deno.Kv;
 * declare const op: Deno.AtomicOperation;
 * declare const n: NewNotification;
 * fanoutOps(op, jobRunner(kv), "msg-1", n, new Set(["u_1"]));
 * ```
 */
export function fanoutOps(
  op: Deno.AtomicOperation,
  jobs: JobRunner,
  messageId: string,
  n: NewNotification,
  skip: Set<string>,
): void {
  jobs.newJobOps(op, FANOUT_JOB, messageId);
  op.set(
    keys.fanoutJob(messageId),
    { n, skip: [...skip], cursor: null, sent: 0 } satisfies FanoutState,
  );
}

/**
 * The fan-out job kind.
 *
 * @example
 * ```ts
 * import { jobRunner } from "@/lib/jobs/runner.ts";
 * declare const kv: Deno.Kv;
 * jobRunner(kv).register(fanoutJobKind(Date.now));
 * ```
 */
export function fanoutJobKind(now: () => number): JobKind {
  return {
    kind: FANOUT_JOB,
    run: async (ctx) => {
      const { kv, id } = ctx;
      for (;;) {
        if (ctx.signal.aborted) return;
        const entry = await kv.get<FanoutState>(keys.fanoutJob(id));
        const state = entry.value;
        if (!state) {
          await commit(kv, (op) => ctx.finish(op));
          return;
        }
        const prefix = keys.followsPrefix(state.n.questionId);
        const page = await Array.fromAsync(kv.list(
          state.cursor ? { prefix, start: [...state.cursor, ""] } : { prefix },
          { limit: FANOUT_BATCH },
        ));
        const skip = new Set(state.skip);
        const at = now();
        const last = page.at(-1);
        const res = await commit(kv, (op) => {
          ctx.fence(op).check(entry);
          let sent = 0;
          for (const e of page) {
            const userId = e.key[2] as string;
            if (!skip.has(userId) && notifyInOp(op, userId, state.n, at)) sent++;
          }
          if (page.length < FANOUT_BATCH) {
            ctx.finish(op).delete(keys.fanoutJob(id));
          } else {
            op.set(
              keys.fanoutJob(id),
              { ...state, cursor: last!.key, sent: state.sent + sent } satisfies FanoutState,
            );
          }
        });
        if (!res.ok) return; // not ours any more: the new holder continues from the cursor
        if (page.length < FANOUT_BATCH) return;
      }
    },
  };
}
