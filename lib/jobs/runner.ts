/**
 * The one runner of work that outlives a request: debates, expert panels, the AI avatar,
 * follower fan-outs. A job is a kind (its step logic, registered once) and an id; its
 * lease (lib/jobs/lease.ts) is a fence every commit of the run checks, so whatever instance
 * holds the job is the only one whose writes land.
 *
 * - **Start**: the request that creates work writes the job's rows in its own op
 *   ({@link JobRunner.newJobOps}) and then {@link JobRunner.adopt}s it: the run starts here
 *   at once.
 * - **Resume**: {@link JobRunner.pass} lists `["jobs"]` and claims every due job whose
 *   lease lapsed (its instance died) or was released (its instance stopped); any instance
 *   can run a pass. A job claimed more than {@link MAX_CLAIMS} times after its first run is
 *   given up (the kind records why).
 * - **Triggers** (lib/jobs/triggers.ts): `Deno.cron` once a minute, incoming requests
 *   (throttled), and a timer while the process lives. No KV queues.
 * - **Renew**: a held lease is renewed every {@link RENEW_MS} and lapses {@link LEASE_MS}
 *   after the last renewal; a failed renewal means another instance has it (the run's
 *   signal aborts with {@link LeaseLost}) unless the job ended: a run's own last commit can
 *   finish it while the run still does what follows (lib/jobs/lease.ts `jobEnded`).
 * - **Shutdown**: {@link JobRunner.shutdown} aborts every run (reason {@link Shutdown}),
 *   releases every lease so another instance resumes at once, and waits briefly.
 *
 * Periodic jobs (`every`) are one record per kind (id `"main"`) that is never finished: a
 * run ends by setting its next due time, and the kind's `revision`; a record of another
 * revision, waiting, is made due at once by the next pass (the same one read).
 *
 * @module
 */
import {
  adoptJob,
  claimJob,
  fence,
  finishJobOps,
  jobEnded,
  type JobLease,
  type JobRecord,
  newJobOps,
  periodicJobRecord,
  releaseJob,
  renewJob,
  rescheduleJobOps,
} from "./lease.ts";
import { perStore } from "../cache.ts";
import { commit } from "../kv/atomic.ts";
import { FailureLog } from "../kv/failure_log.ts";
import { keys } from "../kv/keys.ts";

/** How long a lease holds without renewal. */
export const LEASE_MS = 6_000;
/** How often a holder renews. */
export const RENEW_MS = 2_000;
/** A job claimed this many times after its first run is given up. */
export const MAX_CLAIMS = 3;
/** The id of a periodic kind's one job. */
export const PERIODIC_ID = "main";

/** The abort reason of a run whose lease another instance took. */
export class LeaseLost extends Error {
  constructor(kind: string, id: string) {
    super(`Lost the lease of ${kind} job ${id}`);
    this.name = "LeaseLost";
  }
}

/** The abort reason of a run stopped by shutdown (its lease is released). */
export class Shutdown extends Error {
  constructor() {
    super("This instance is shutting down");
    this.name = "Shutdown";
  }
}

/** What a run gets. */
export interface JobContext<Local = unknown> {
  kv: Deno.Kv;
  id: string;
  lease: JobLease;
  /** Aborts on shutdown ({@link Shutdown}) or when the lease is lost ({@link LeaseLost}). */
  signal: AbortSignal;
  /** Add the fence check to an op: every commit of the run carries it. */
  fence(op: Deno.AtomicOperation): Deno.AtomicOperation;
  /**
   * Add the job's end to the op of its last write (one-off kinds): fence check and removal
   * of the job's rows. Without it the runner ends the job by itself after `run` returns.
   */
  finish(op: Deno.AtomicOperation): Deno.AtomicOperation;
  /** What {@link JobRunner.adopt} passed in-process (a listener), absent on a resume. */
  local?: Local;
}

/** A kind of job: its step logic. */
export interface JobKind<Local = unknown> {
  kind: string;
  /** Periodic: one job of this kind, run every `every` ms. */
  every?: number;
  /**
   * Periodic kinds: the version of what a run does. A pass that finds the kind's record
   * left by another revision, waiting for its next run, makes it due at once — so new work
   * (a migration's new step) starts at the first pass after an upgrade, not up to `every`
   * later.
   */
  revision?: number;
  /** Do (or continue) the work. Commits carry `ctx.fence`; stop when `ctx.signal` aborts. */
  run(ctx: JobContext<Local>): Promise<void>;
  /** Record that the job was given up after too many claims (under `ctx.fence`). */
  giveUp?(ctx: JobContext<Local>): Promise<void>;
  /** False when this instance cannot run the kind (no model): others will. */
  canRun?(): boolean;
}

/** Options of {@link JobRunner}. */
export interface RunnerOptions {
  /** This instance's name in leases (default: a fresh id). */
  owner?: string;
  /** The clock (default `Date.now`). */
  now?: () => number;
  leaseMs?: number;
  renewMs?: number;
  maxClaims?: number;
  /** Least time between two {@link JobRunner.nudge} passes (default 1 s). */
  nudgeEveryMs?: number;
}

interface Held {
  lease: JobLease;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * The job runner of one process and store.
 *
 * @example
 * ```ts
 * import { commit } from "@/lib/kv/atomic.ts";
 * declare const kv: Deno.Kv;
 * const runner = new JobRunner(kv);
 * runner.register({
 *   kind: "greeting",
 *   // Every commit of the run carries the fence; the last one ends the job with it.
 *   run: async (ctx) => {
 *     await commit(kv, (op) => ctx.finish(op).set(["greetings", ctx.id], "hello"));
 *   },
 * });
 * await commit(kv, (op) => runner.newJobOps(op, "greeting", "1").set(["asked", "1"], true));
 * await runner.adopt("greeting", "1");
 * await runner.waitIdle();
 * await runner.shutdown();
 * ```
 */
export class JobRunner {
  readonly owner: string;
  readonly now: () => number;
  readonly leaseMs: number;
  readonly renewMs: number;
  readonly maxClaims: number;
  #kinds = new Map<string, JobKind<never>>();
  #held = new Map<string, Held>();
  #passing: Promise<string[]> | null = null;
  #stopping = false;
  #lastNudge = -Infinity;
  #nudgeEveryMs: number;
  #timer: ReturnType<typeof setInterval> | undefined;
  /** Repeating failures (a full or read-only store) of passes and renewals, logged once. */
  #failures = new FailureLog();

  constructor(readonly kv: Deno.Kv, opts: RunnerOptions = {}) {
    this.owner = opts.owner ?? crypto.randomUUID();
    this.now = opts.now ?? Date.now;
    this.leaseMs = opts.leaseMs ?? LEASE_MS;
    this.renewMs = opts.renewMs ?? RENEW_MS;
    this.maxClaims = opts.maxClaims ?? MAX_CLAIMS;
    this.#nudgeEveryMs = opts.nudgeEveryMs ?? 1_000;
  }

  /** Register a kind (once per name; a second registration is ignored). */
  register<Local>(kind: JobKind<Local>): this {
    if (!this.#kinds.has(kind.kind)) this.#kinds.set(kind.kind, kind as JobKind<never>);
    return this;
  }

  /** True once `kind` is registered. */
  has(kind: string): boolean {
    return this.#kinds.has(kind);
  }

  /** Add a new job held by this instance to `op` (commit it, then {@link adopt}). */
  newJobOps(op: Deno.AtomicOperation, kind: string, id: string): Deno.AtomicOperation {
    return newJobOps(op, kind, id, this.owner, this.now(), this.leaseMs);
  }

  /**
   * Start a job this instance created (its op committed). False when it is not ours (a
   * pass here or elsewhere got it first, or it ended).
   */
  async adopt<Local>(kind: string, id: string, local?: Local): Promise<boolean> {
    const key = `${kind}/${id}`;
    if (this.#stopping) return false;
    const lease = await adoptJob(this.kv, kind, id, this.owner);
    if (!lease) return false;
    const prev = this.#held.get(key);
    if (prev) {
      // Still running that very job: not twice.
      if (prev.lease.fence === lease.fence) return false;
      // A run that ended the job in its last write is still settling here, and this is a
      // new job for the same id (created after that end): start it once that run has.
      await prev.done;
      if (this.#stopping || this.#held.has(key)) return false;
    }
    this.#start(lease, local);
    return true;
  }

  /** True while this process runs the job. */
  isRunning(kind: string, id: string): boolean {
    return this.#held.has(`${kind}/${id}`);
  }

  /** How many jobs (of `kind`, or all) run in this process. */
  running(kind?: string): number {
    if (!kind) return this.#held.size;
    return [...this.#held.values()].filter((h) => h.lease.kind === kind).length;
  }

  /**
   * One resume pass: make sure every periodic kind has its job, then claim every due job
   * that nobody holds and run it here. Concurrent calls share one pass. Returns the jobs
   * taken (`kind/id`).
   */
  pass(): Promise<string[]> {
    if (this.#stopping) return Promise.resolve([]);
    this.#passing ??= this.#pass().finally(() => this.#passing = null);
    return this.#passing;
  }

  /**
   * A pass at most once per `nudgeEveryMs` (requests call this); never throws or waits. A
   * failing store (full, read-only) fails every pass: that is logged once, not per pass.
   */
  nudge(): void {
    const t = performance.now();
    if (this.#stopping || t - this.#lastNudge < this.#nudgeEveryMs) return;
    this.#lastNudge = t;
    void this.tryPass();
  }

  /**
   * {@link pass}, its failure logged instead of thrown (once per outage of the store, not
   * once per pass: lib/kv/failure_log.ts); `[]` when it failed. Timers and cron use it.
   */
  async tryPass(): Promise<string[]> {
    try {
      const taken = await this.pass();
      this.#failures.succeeded("Job runner: pass");
      return taken;
    } catch (err) {
      this.#failures.failed("Job runner: pass", err);
      return [];
    }
  }

  /** Run a pass every `ms` while the process lives (the timer does not keep it alive). */
  startTimer(ms = RENEW_MS): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => this.nudge(), ms);
    Deno.unrefTimer(this.#timer);
  }

  /** Wait until no job (of `kind`, or any) runs here, or `ms` passed. */
  async waitIdle(ms = 10_000, kind?: string): Promise<void> {
    const deadline = performance.now() + ms;
    while (performance.now() < deadline) {
      const runs = [...this.#held.values()].filter((h) => !kind || h.lease.kind === kind);
      if (runs.length === 0) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.allSettled(runs.map((h) => h.done)),
        new Promise((r) => timer = setTimeout(r, Math.max(1, deadline - performance.now()))),
      ]);
      clearTimeout(timer);
    }
  }

  /**
   * Stop: no new runs; every run aborts, its lease is released (another instance resumes
   * it at once), then at most `waitMs` for the runs to settle. Close KV after it.
   */
  async shutdown(waitMs = 1_000): Promise<void> {
    this.#stopping = true;
    clearInterval(this.#timer);
    const held = [...this.#held.values()];
    for (const h of held) h.controller.abort(new Shutdown());
    // Releasing moves each fence: a run still writing can no longer land anything.
    await Promise.allSettled(held.map((h) => releaseJob(this.kv, h.lease)));
    await this.waitIdle(waitMs);
    await this.#passing?.catch(() => {});
  }

  async #pass(): Promise<string[]> {
    const now = this.now();
    const periodic = [...this.#kinds.values()].filter((k) => k.every !== undefined);
    if (periodic.length > 0) {
      const recs = await this.kv.getMany<JobRecord[]>(
        periodic.map((k) => keys.job(k.kind, PERIODIC_ID)),
      );
      await Promise.all(periodic.map((k, i) => {
        const rec = recs[i].value;
        // A record of another revision is rewritten only while it waits for its next run:
        // a run in progress holds a lease fenced on the record, and reschedules it itself.
        if (rec && (k.revision === rec.revision || rec.due <= now)) return null;
        const due = periodicJobRecord(rec?.owner ?? this.owner, now, k.revision);
        return commit(this.kv, (op) => op.check(recs[i]).set(keys.job(k.kind, PERIODIC_ID), due));
      }));
    }
    const taken: string[] = [];
    for await (const e of this.kv.list<JobRecord>({ prefix: keys.jobsPrefix() }, { limit: 1000 })) {
      if (this.#stopping) break;
      const [, kindName, id] = e.key as [string, string, string];
      const kind = this.#kinds.get(kindName);
      if (!kind || this.#held.has(`${kindName}/${id}`)) continue;
      if (e.value.due > now || (kind.canRun && !kind.canRun())) continue;
      const got = await claimJob(this.kv, kindName, id, this.owner, this.now(), this.leaseMs);
      if (!got.ok) continue;
      if (got.lease.claims > 0 && !e.value.released) {
        console.log(`Job runner: resuming ${kindName} ${id} (claim ${got.lease.claims})`);
      }
      this.#start(got.lease);
      taken.push(`${kindName}/${id}`);
    }
    return taken;
  }

  #start(lease: JobLease, local?: unknown): void {
    const kind = this.#kinds.get(lease.kind);
    if (!kind) throw new Error(`No job kind "${lease.kind}" is registered`);
    const key = `${lease.kind}/${lease.id}`;
    const controller = new AbortController();
    const ctx: JobContext<never> = {
      kv: this.kv,
      id: lease.id,
      lease,
      signal: controller.signal,
      fence: (op) => fence(op, lease),
      finish: (op) => finishJobOps(op, lease),
      local: local as never,
    };
    const renew = setInterval(() => {
      renewJob(this.kv, lease, this.now(), this.leaseMs).then(async (ok) => {
        this.#failures.succeeded("Job runner: lease renewal");
        if (ok || controller.signal.aborted) return;
        // The run's own last commit may have ended the job while the run goes on.
        if (await jobEnded(this.kv, lease)) return clearInterval(renew);
        if (controller.signal.aborted) return;
        console.warn(`Job runner: ${key} was taken over by another instance`);
        controller.abort(new LeaseLost(lease.kind, lease.id));
      }).catch((err) => {
        // KV unreachable or full: the lease lapses and another instance (or a pass here,
        // once the store works) resumes the job. One line per outage, not per renewal.
        if (!controller.signal.aborted) this.#failures.failed("Job runner: lease renewal", err);
      });
    }, this.renewMs);
    const done = (async () => {
      try {
        if (lease.claims > this.maxClaims) {
          console.warn(`Job runner: giving up ${key} after ${lease.claims} claims`);
          await kind.giveUp?.(ctx);
        } else {
          await kind.run(ctx);
        }
        if (controller.signal.aborted) return; // released (shutdown) or lost: not ours to end
        await commit(
          this.kv,
          (op) =>
            kind.every !== undefined
              ? rescheduleJobOps(op, lease, this.now() + kind.every, kind.revision)
              : finishJobOps(op, lease),
        );
      } catch (err) {
        if (controller.signal.aborted) return;
        // Left to lapse: another claim (counted) retries it, up to the cap.
        console.error(`Job runner: ${key} failed`, err);
      } finally {
        clearInterval(renew);
        if (this.#held.get(key)?.controller === controller) this.#held.delete(key);
      }
    })();
    this.#held.set(key, { lease, controller, done });
  }
}

const runners = perStore((kv, opts?: RunnerOptions) => new JobRunner(kv, opts));

/**
 * The process's runner for a store (one per `Deno.Kv`), created on first use.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const runner = jobRunner(kv);
 * runner.nudge();
 * ```
 */
export function jobRunner(kv: Deno.Kv, opts?: RunnerOptions): JobRunner {
  return runners(kv, opts);
}
