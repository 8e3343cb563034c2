/**
 * The fenced lease of one background job: who runs it, until when, and the token every
 * commit of the run checks.
 *
 * Two keys per job:
 *
 * - `["jobs", kind, id]` {@link JobRecord}: the job exists (the resume pass lists this
 *   prefix), who claimed it last and how often. Its versionstamp is the **fence**: it
 *   changes only when the job is claimed, released or finished, so every commit of a run
 *   that carries {@link JobLease.fence} fails once anyone else holds the job, and a stale
 *   holder (a paused or partitioned process) cannot write a thing.
 * - `["job_lease", kind, id]` {@link LeaseTerm}: until when the holder keeps it. Renewing
 *   writes only this key (under the fence), so renewals never invalidate the fence the
 *   run's own commits are built with, and need no ordering against them.
 *
 * A released job (`released: true`, the holder stopped on purpose: shutdown) is claimed at
 * once and the claim does not count toward the re-claim cap; a lapsed one (the holder
 * died) counts.
 *
 * @module
 */
import { commit } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";

/** `["jobs", kind, id]`. */
export interface JobRecord {
  /** The instance that claimed it last. */
  owner: string;
  /** Claims after the first run: a crash-looping job is given up past a cap. */
  claims: number;
  /** Not to be run before this time (Unix ms): periodic jobs set their next run here. */
  due: number;
  /** The holder let it go on purpose (shutdown): the next claim is not a re-claim. */
  released: boolean;
  /**
   * A periodic job's: the kind's `revision` its last run was done by (absent before kinds
   * had one). A pass finds a record of another revision due at once.
   */
  revision?: number;
}

/** `["job_lease", kind, id]`. */
export interface LeaseTerm {
  owner: string;
  /** Unix ms; 0 once released. */
  until: number;
}

/** A held lease: the fence every commit of the run checks. */
export interface JobLease {
  readonly kind: string;
  readonly id: string;
  readonly owner: string;
  /** The versionstamp of the job record when this holder claimed it. */
  readonly fence: string;
  /** Claims so far (0 on the first run). */
  readonly claims: number;
}

/**
 * Add the fence check to `op`: it commits only while `lease` still holds the job.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const lease: JobLease;
 * const op = kv.atomic();
 * fence(op, lease);
 * op.set(["debate_messages", lease.id, 3], "…");
 * ```
 */
export function fence(op: Deno.AtomicOperation, lease: JobLease): Deno.AtomicOperation {
  return op.check({ key: keys.job(lease.kind, lease.id), versionstamp: lease.fence });
}

/**
 * The rows of a job created and held by `owner`, added to the op that creates the work
 * (a debate, a panel), so the work and its job appear together.
 *
 * @example
 * ```ts
 * declare const op: Deno.AtomicOperation;
 * newJobOps(op, "debate", "debate_1", "instance-a", Date.now(), 6_000);
 * ```
 */
export function newJobOps(
  op: Deno.AtomicOperation,
  kind: string,
  id: string,
  owner: string,
  now: number,
  leaseMs: number,
): Deno.AtomicOperation {
  return op
    .check({ key: keys.job(kind, id), versionstamp: null })
    .set(keys.job(kind, id), { owner, claims: 0, due: now, released: false } satisfies JobRecord)
    .set(keys.jobLease(kind, id), { owner, until: now + leaseMs } satisfies LeaseTerm);
}

/** Why {@link claimJob} took nothing. */
export type ClaimRefusal = "missing" | "not_due" | "held";

/**
 * Claim the job when it is due and nobody holds it (never held, released, or lapsed).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const got = await claimJob(kv, "panel", "q-1", "instance-b", Date.now(), 6_000);
 * if (got.ok) console.log(got.lease.claims);
 * ```
 */
export async function claimJob(
  kv: Deno.Kv,
  kind: string,
  id: string,
  owner: string,
  now: number,
  leaseMs: number,
): Promise<{ ok: true; lease: JobLease } | { ok: false; reason: ClaimRefusal }> {
  const [rec, term] = await kv.getMany<[JobRecord, LeaseTerm]>([
    keys.job(kind, id),
    keys.jobLease(kind, id),
  ]);
  if (!rec.value) return { ok: false, reason: "missing" };
  if (rec.value.due > now) return { ok: false, reason: "not_due" };
  if (term.value && term.value.until > now) return { ok: false, reason: "held" };
  const claims = rec.value.released ? rec.value.claims : rec.value.claims + 1;
  const res = await commit(kv, (op) =>
    op.check(rec).check(term)
      .set(keys.job(kind, id), { ...rec.value!, owner, claims, released: false } as JobRecord)
      .set(keys.jobLease(kind, id), { owner, until: now + leaseMs } satisfies LeaseTerm));
  if (!res.ok) return { ok: false, reason: "held" };
  return { ok: true, lease: { kind, id, owner, fence: res.versionstamp, claims } };
}

/**
 * The lease of a job this instance just created with {@link newJobOps}; null when the
 * record is not (or no longer) this owner's.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const lease = await adoptJob(kv, "debate", "debate_1", "instance-a");
 * ```
 */
export async function adoptJob(
  kv: Deno.Kv,
  kind: string,
  id: string,
  owner: string,
): Promise<JobLease | null> {
  const rec = await kv.get<JobRecord>(keys.job(kind, id));
  if (!rec.value || rec.value.owner !== owner || rec.value.released || !rec.versionstamp) {
    return null;
  }
  return { kind, id, owner, fence: rec.versionstamp, claims: rec.value.claims };
}

/**
 * Extend the lease to `now + leaseMs`; false when the fence moved (another holder).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const lease: JobLease;
 * if (!await renewJob(kv, lease, Date.now(), 6_000)) console.log("lost it");
 * ```
 */
export async function renewJob(
  kv: Deno.Kv,
  lease: JobLease,
  now: number,
  leaseMs: number,
): Promise<boolean> {
  const res = await commit(kv, (op) =>
    fence(op, lease).set(
      keys.jobLease(lease.kind, lease.id),
      { owner: lease.owner, until: now + leaseMs } satisfies LeaseTerm,
    ));
  return res.ok;
}

/**
 * After a renewal found the fence moved: true when the job ended rather than changed hands —
 * it is finished (its record is gone) or its holder let it go (a periodic run's reschedule).
 * A run may end its job in its own last commit and still be doing what follows it (a
 * fan-out's trims), so a renewal in between fails without anyone else holding the job.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const lease: JobLease;
 * if (!await renewJob(kv, lease, Date.now(), 6_000) && !await jobEnded(kv, lease)) {
 *   console.log("another instance holds it");
 * }
 * ```
 */
export async function jobEnded(kv: Deno.Kv, lease: JobLease): Promise<boolean> {
  const rec = await kv.get<JobRecord>(keys.job(lease.kind, lease.id));
  return !rec.value || (rec.value.owner === lease.owner && rec.value.released);
}

/**
 * Let the job go now (shutdown): any instance may claim it at once, without it counting as
 * a re-claim. Moves the fence, so this holder's later commits fail. False when it was not
 * held any more.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const lease: JobLease;
 * await releaseJob(kv, lease);
 * ```
 */
export async function releaseJob(kv: Deno.Kv, lease: JobLease): Promise<boolean> {
  const key = keys.job(lease.kind, lease.id);
  const rec = await kv.get<JobRecord>(key);
  if (!rec.value || rec.versionstamp !== lease.fence) return false;
  const res = await commit(kv, (op) =>
    fence(op, lease)
      .set(key, { ...rec.value!, released: true } satisfies JobRecord)
      .set(keys.jobLease(lease.kind, lease.id), { owner: lease.owner, until: 0 }));
  return res.ok;
}

/**
 * Add the end of a one-off job to `op` (its last write): the fence check and the removal
 * of both rows, so the job's result and its end commit together.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const lease: JobLease;
 * const op = kv.atomic();
 * finishJobOps(op, lease);
 * ```
 */
export function finishJobOps(op: Deno.AtomicOperation, lease: JobLease): Deno.AtomicOperation {
  return fence(op, lease)
    .delete(keys.job(lease.kind, lease.id))
    .delete(keys.jobLease(lease.kind, lease.id));
}

/**
 * A periodic job's record while it waits for its run at `due`: released (its next claim is
 * not a re-claim), no claims counted, and the kind's `revision` when it has one.
 *
 * @example
 * ```ts
 * periodicJobRecord("instance-a", Date.now() + 30_000, 5).revision; // 5
 * ```
 */
export function periodicJobRecord(owner: string, due: number, revision?: number): JobRecord {
  const record: JobRecord = { owner, claims: 0, due, released: true };
  if (revision !== undefined) record.revision = revision;
  return record;
}

/**
 * Add the end of one run of a periodic job to `op`: the next run is due at `next`, and the
 * lease is let go (not a re-claim). `revision` is the kind's, recorded with it.
 *
 * @example
 * ```ts
 * declare const op: Deno.AtomicOperation;
 * declare const lease: JobLease;
 * rescheduleJobOps(op, lease, Date.now() + 30_000);
 * ```
 */
export function rescheduleJobOps(
  op: Deno.AtomicOperation,
  lease: JobLease,
  next: number,
  revision?: number,
): Deno.AtomicOperation {
  return fence(op, lease)
    .set(keys.job(lease.kind, lease.id), periodicJobRecord(lease.owner, next, revision))
    .set(keys.jobLease(lease.kind, lease.id), { owner: lease.owner, until: 0 });
}
