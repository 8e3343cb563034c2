/**
 * Periodic background work driven by KV queue messages — the same code on one machine
 * and on Deno Deploy, where an isolate that scales to zero runs no timers.
 *
 * Each job is a chain of queue messages. Its schedule record `["ticks", name]`
 * (`{token, next, owner}`) names the one message that may run it: the handler of a
 * message whose `token` is current sets a fresh token and `next = now + interval` and
 * enqueues the next message (`delay: interval`) in one atomic op checked against the
 * record, then runs the job. A duplicate, redelivered or superseded message carries an
 * old token and does nothing, so however many instances listen on one store, the job
 * runs once per interval.
 *
 * A chain can die: its message was taken by an instance that was then killed (the
 * SQLite backend hands it to another process only after ~60 s, DESIGN.md §5), or every
 * instance was down. Any instance then re-seeds it — a new token, checked against the
 * record, so only one re-seed wins — once the record is overdue by the grace period
 * ({@link SchedulerOptions.graceMs}). Instances look:
 *
 * - at start-up (Deploy runs this when an isolate starts; if the chain is alive a
 *   one-off "watch" message is enqueued for the moment it would be overdue),
 * - whenever they handle any job's message, for every job,
 * - on {@link Scheduler.nudge}, which `main.ts` calls as requests arrive (throttled to
 *   once a second): a request keeps an isolate alive anyway, so this is a trigger the
 *   platform allows and costs one `getMany` a second at most.
 *
 * No `setInterval`/`setTimeout` drives anything here.
 *
 * @module
 */
import { commit } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";

/** A periodic job. */
export interface PeriodicJob {
  /** Stable name: the schedule key `["ticks", name]`. */
  name: string;
  /** Time between runs (ms). */
  intervalMs: number;
  /** One run; `signal` aborts when the scheduler stops. Errors are logged. */
  run(signal: AbortSignal): Promise<unknown>;
}

/** The schedule record of a job. */
export interface TickRecord {
  /** The token of the one queue message that may run the job next. */
  token: string;
  /** When that message is due (Unix ms). */
  next: number;
  /** The instance that enqueued it. */
  owner: string;
}

/** The queue messages this module sends (other messages are ignored). */
export type JobMessage =
  | { kind: "parley.tick"; job: string; token: string }
  | { kind: "parley.watch"; job: string };

/** Options of {@link startScheduler}. */
export interface SchedulerOptions {
  /** This instance's name in the records (default: a fresh id). */
  owner?: string;
  /** Wall clock (default `Date.now`); queue delays are real time, so tests keep it real. */
  now?: () => number;
  /**
   * How overdue a record must be before another instance re-seeds the chain (default:
   * the job's interval, at least 1 s).
   */
  graceMs?: number;
  /** Least time between two {@link Scheduler.nudge} checks (default 1 s). */
  nudgeEveryMs?: number;
  /** Called after each run (tests count runs). */
  onRun?: (job: string, at: number) => void;
}

/** A running scheduler. */
export interface Scheduler {
  /** This instance's id in the schedule records. */
  owner: string;
  /** Re-seed overdue chains (throttled; never throws, never waits). */
  nudge(): void;
  /** Re-seed overdue chains now; resolves when done. */
  heal(): Promise<void>;
  /** Stop running jobs (a run in flight is aborted and awaited). Close KV after it. */
  stop(): Promise<void>;
}

const isJobMessage = (m: unknown): m is JobMessage =>
  typeof m === "object" && m !== null &&
  ((m as JobMessage).kind === "parley.tick" || (m as JobMessage).kind === "parley.watch") &&
  typeof (m as JobMessage).job === "string";

/**
 * Register the queue listener (Deno Deploy requires it at isolate start: call this
 * before serving) and make sure every job's chain exists.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const scheduler = await startScheduler(kv, [{
 *   name: "hello",
 *   intervalMs: 30_000,
 *   run: async () => console.log("tick"),
 * }]);
 * // on shutdown, before kv.close():
 * await scheduler.stop();
 * ```
 */
export async function startScheduler(
  kv: Deno.Kv,
  jobs: PeriodicJob[],
  opts: SchedulerOptions = {},
): Promise<Scheduler> {
  const owner = opts.owner ?? crypto.randomUUID();
  const now = opts.now ?? Date.now;
  const byName = new Map(jobs.map((j) => [j.name, j]));
  const grace = (job: PeriodicJob) => opts.graceMs ?? Math.max(job.intervalMs, 1_000);
  const controller = new AbortController();
  const running = new Map<string, Promise<void>>();
  const healing = new Set<Promise<unknown>>();
  let stopped = false;
  let lastNudge = -Infinity;

  /** Start a new chain for `job` unless its record is current; returns nothing. */
  const ensure = async (
    job: PeriodicJob,
    entry: Deno.KvEntryMaybe<TickRecord>,
    atStart = false,
  ) => {
    const t = now();
    const cur = entry.value;
    if (cur && t <= cur.next + grace(job)) {
      if (atStart) {
        // Alive elsewhere: look again when it would be overdue (a one-off message).
        const delay = Math.max(0, cur.next + grace(job) - t) + 50;
        await kv.enqueue({ kind: "parley.watch", job: job.name } satisfies JobMessage, { delay });
      }
      return;
    }
    const token = crypto.randomUUID();
    const res = await commit(kv, (op) =>
      op.check(entry)
        .set(keys.tick(job.name), { token, next: t, owner } satisfies TickRecord)
        .enqueue({ kind: "parley.tick", job: job.name, token } satisfies JobMessage))
      .catch(() => ({ ok: false }));
    if (res.ok && cur) console.log(`Background job ${job.name}: restarted an overdue schedule`);
  };

  const heal = async (atStart = false) => {
    if (stopped) return;
    const entries = await kv.getMany<TickRecord[]>(jobs.map((j) => keys.tick(j.name)));
    await Promise.all(jobs.map((j, i) => ensure(j, entries[i], atStart)));
  };
  const track = (p: Promise<unknown>) => {
    const q = p.catch((err) => {
      if (!stopped) console.error("Background jobs: schedule check failed", err);
    });
    healing.add(q);
    q.finally(() => healing.delete(q));
    return q;
  };

  const runJob = (job: PeriodicJob): Promise<void> => {
    // A run still going on this instance (a slow tick) is not started twice.
    const busy = running.get(job.name);
    if (busy) return busy;
    const p = (async () => {
      try {
        await job.run(controller.signal);
        opts.onRun?.(job.name, now());
      } catch (err) {
        if (!stopped) console.error(`Background job ${job.name} failed`, err);
      }
    })().finally(() => running.delete(job.name));
    running.set(job.name, p);
    return p;
  };

  const onMessage = async (msg: unknown) => {
    if (!isJobMessage(msg) || stopped) return;
    const job = byName.get(msg.job);
    if (!job) return;
    if (msg.kind === "parley.watch") return void await track(heal());
    const entry = await kv.get<TickRecord>(keys.tick(job.name));
    if (entry.value?.token !== msg.token) return; // superseded or repeated: not ours
    const token = crypto.randomUUID();
    const res = await commit(kv, (op) =>
      op.check(entry)
        .set(
          keys.tick(job.name),
          { token, next: now() + job.intervalMs, owner } satisfies TickRecord,
        )
        .enqueue({ kind: "parley.tick", job: job.name, token } satisfies JobMessage, {
          delay: job.intervalMs,
        }));
    if (!res.ok) return; // another handler advanced it first
    // While here, restart any other chain that died with its instance.
    void track(heal());
    // Awaited, so a Deploy isolate stays up for the run.
    await runJob(job);
  };

  // Registered before anything else: Deno Deploy wants the listener at isolate start.
  const listening = kv.listenQueue(onMessage).catch((err) => {
    if (!stopped) console.error("Background jobs: queue listener ended", err);
  });
  await track(heal(true));

  return {
    owner,
    nudge() {
      const t = now();
      if (stopped || t - lastNudge < (opts.nudgeEveryMs ?? 1_000)) return;
      lastNudge = t;
      void track(heal());
    },
    heal: () => track(heal()).then(() => {}),
    async stop() {
      if (stopped) return;
      stopped = true;
      controller.abort();
      await Promise.allSettled([...running.values(), ...healing]);
      // `listening` ends when the caller closes KV.
      void listening;
    },
  };
}
