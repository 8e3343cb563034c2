/**
 * The `answer` notification to every follower of a question, as a job of the runner
 * (lib/jobs/runner.ts): created in the answer's own op, so a crash right after the commit
 * loses nothing, and run outside the request in batches of {@link FANOUT_BATCH}. Each
 * batch commits its notifications together with the job's cursor under the job's fence,
 * so a resumed fan-out continues after the last follower notified — nobody twice, nobody
 * left out, however many follow (no cap).
 *
 * The batches of every fan-out in a process take turns ({@link inTurn}): one batch writes
 * at a time, after the responses this process is making, then rests as long as it took
 * before the next batch (of any fan-out) starts. The store takes one writer at a time, so a
 * request's own commit waits behind at most one batch, of 25 recipients unless a backlog
 * waits, and the fan-outs take at most about half of the store's write time however many
 * answers start them at once. Measured (`BENCH_ONLY=growth`): 10,000 followers are
 * notified in about 2 s, well within the 30 s goal, and answers posted meanwhile keep
 * their p50 (docs/decisions.md#jobs has the figures, and what is left of their p99).
 *
 * @module
 */
import { perStore } from "../cache.ts";
import { untilIdle } from "../http/busy.ts";
import { commit, counterValue } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { JobContext, JobKind, JobRunner } from "../jobs/runner.ts";
import { afterCommit } from "../kv/after_commit.ts";
import { type NewNotification, notifyInOp, trimNotifications } from "./notifications.ts";
import { NOTIFICATIONS_KEPT } from "./stored.ts";

/** The job kind's name (the job id is the answer's message id). */
export const FANOUT_JOB = "fanout";
/**
 * Recipients per commit (3 mutations each: the notification, the unread counter and its
 * expiry day; far below KV's limit): {@link FANOUT_BATCH.least} times the batches waiting
 * for their turn, within these. One fan-out alone goes in small batches: a commit of 25
 * holds the store about 0.6 ms, one of 100 about 2 ms, and a request that comes meanwhile
 * waits for it (`BENCH_ONLY=growth`: answers posted while a fan-out to 10,000 runs had a
 * p50 1.5× a quiet answer's with batches of 100, within 10% of it with 25; the 10,000 were
 * notified in 1.9 s instead of 0.9). A backlog goes in larger ones, so a burst of
 * fan-outs still ends within seconds of the last.
 */
export const FANOUT_BATCH = { least: 25, most: 100 } as const;

/** Shortest and longest rest after a batch (ms): as long as the batch took, within these. */
export const FANOUT_REST_MS = { min: 2, max: 100 } as const;

/**
 * About one notification in this many that a fan-out sends also trims its recipient's
 * history to the newest {@link NOTIFICATIONS_KEPT} when they have more unread than that
 * (after the batch's commit, in its turn). Marking read trims too, but a follower of busy
 * questions who never reads would keep every notification for 90 days; this bounds their
 * history to about twice the limit (what was kept at their last read, then up to the limit
 * unread) at the cost of one `get` per 50 notifications (and a trim's list when it is due).
 */
export const FANOUT_TRIM_EVERY = 50;

/**
 * Before a batch: how long this process must have made no response (ms), and the longest
 * wait for that. Requests often come back to back (a client's next one within a
 * millisecond of the last answer): a batch started in such a gap holds the next one up.
 */
export const FANOUT_QUIET_MS = 2;
/** See {@link FANOUT_QUIET_MS}. */
export const FANOUT_YIELD_MS = 100;

/** Each store's turn: the end of the batch (and its rest) before the next one. */
const turns = perStore((): { tail: Promise<void>; waiting: number } => ({
  tail: Promise.resolve(),
  waiting: 0,
}));

/**
 * Run `batch` when every batch queued before it on this store has written and rested and
 * this process has made no response for {@link FANOUT_QUIET_MS} (or {@link FANOUT_YIELD_MS}
 * has passed), then rest as long as it took (within {@link FANOUT_REST_MS}) before the next
 * one starts. `batch` is told how many batches wait behind it.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const sent = await inTurn(kv, async (behind) => 25 * (1 + behind));
 * ```
 */
export async function inTurn<T>(kv: Deno.Kv, batch: (behind: number) => Promise<T>): Promise<T> {
  const turn = turns(kv);
  const before = turn.tail;
  const done = Promise.withResolvers<void>();
  turn.tail = done.promise;
  turn.waiting++;
  await before;
  await untilIdle(FANOUT_YIELD_MS, FANOUT_QUIET_MS);
  turn.waiting--;
  const started = performance.now();
  try {
    return await batch(turn.waiting);
  } finally {
    const took = performance.now() - started;
    const rest = Math.min(FANOUT_REST_MS.max, Math.max(FANOUT_REST_MS.min, took));
    setTimeout(done.resolve, rest);
  }
}

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
 * The fan-out job kind. `random` (in [0, 1)) picks the recipients whose history is
 * trimmed ({@link FANOUT_TRIM_EVERY}).
 *
 * @example
 * ```ts
 * import { jobRunner } from "@/lib/jobs/runner.ts";
 * declare const kv: Deno.Kv;
 * jobRunner(kv).register(fanoutJobKind(Date.now));
 * ```
 */
export function fanoutJobKind(now: () => number, random: () => number = Math.random): JobKind {
  return {
    kind: FANOUT_JOB,
    run: async (ctx) => {
      for (;;) {
        if (ctx.signal.aborted) return;
        const step = await inTurn(
          ctx.kv,
          (behind) => batchOnce(ctx, now, random, batchSize(behind)),
        );
        if (step !== "more") return;
      }
    },
  };
}

/** Recipients of the next batch when `behind` batches wait for their turn after it. */
function batchSize(behind: number): number {
  return Math.min(FANOUT_BATCH.most, FANOUT_BATCH.least * (1 + behind));
}

/** One batch of a fan-out job: `"more"` while followers remain, `"end"` otherwise. */
async function batchOnce(
  ctx: JobContext,
  now: () => number,
  random: () => number,
  size: number,
): Promise<"more" | "end"> {
  const { kv, id } = ctx;
  const entry = await kv.get<FanoutState>(keys.fanoutJob(id));
  const state = entry.value;
  if (!state) {
    await commit(kv, (op) => ctx.finish(op));
    return "end";
  }
  const prefix = keys.followsPrefix(state.n.questionId);
  const page = await Array.fromAsync(kv.list(
    state.cursor ? { prefix, start: [...state.cursor, ""] } : { prefix },
    { limit: size },
  ));
  const skip = new Set(state.skip);
  const at = now();
  const last = page.at(-1);
  const sentTo: string[] = [];
  const res = await commit(kv, (op) => {
    ctx.fence(op).check(entry);
    sentTo.length = 0;
    for (const e of page) {
      const userId = e.key[2] as string;
      if (!skip.has(userId) && notifyInOp(op, userId, state.n, at)) sentTo.push(userId);
    }
    const sent = sentTo.length;
    if (page.length < size) {
      ctx.finish(op).delete(keys.fanoutJob(id));
    } else {
      op.set(
        keys.fanoutJob(id),
        { ...state, cursor: last!.key, sent: state.sent + sent } satisfies FanoutState,
      );
    }
  });
  if (!res.ok) return "end"; // not ours any more: the new holder continues from the cursor
  for (const userId of sentTo) {
    if (random() * FANOUT_TRIM_EVERY >= 1) continue;
    await afterCommit("notification history", async () => {
      // Only someone with more unread than are kept can have too many: whoever reads
      // notifications is trimmed as they do (./notifications.ts `markRead`).
      const unread = await kv.get<Deno.KvU64>(keys.notificationUnread(userId));
      if (counterValue(unread.value) > NOTIFICATIONS_KEPT) await trimNotifications(kv, userId);
    });
  }
  return page.length < size ? "end" : "more";
}
