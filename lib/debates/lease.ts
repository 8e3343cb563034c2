/**
 * Who runs a debate, and the only door through which its run writes to KV.
 *
 * A debate's work is claimed with a lease in KV (`["debate_lease", id]` `{owner, until}`),
 * renewed every {@link RENEW_MS} and valid for {@link LEASE_MS}. Every write of the run —
 * its events, its messages, its end — goes through a {@link DebateWriter} whose atomic ops
 * check the lease's versionstamp, so once another instance claimed an expired lease the
 * old holder (a paused or partitioned process) can no longer write a thing: it learns so
 * from a {@link LeaseLostError} and stops. The lease is the fencing token.
 *
 * Events are stored as `["debate_events", id, seq]` (seq 1, 2, …) with the head
 * `["debate_event_head", id]` set in the same op; followers watch the head.
 *
 * Write budget of one 10-message debate (KV ops, each one atomic commit):
 * 1 create (record, index, lease, head) + 1 `init` + per turn 1 `start`, the text deltas
 * in batches (a batch is written once it holds {@link CHUNK_FLUSH_CHARS} characters or
 * {@link CHUNK_FLUSH_MS} after its first delta, so ≤ ~7 a second and usually 2–6 per
 * 200-character turn) and 1 `message` (the message and its event together) + 1
 * `synthesizing` + 1 end (synthesis, done, record, counters) — about 60–90 commits —
 * plus one lease renewal every 2 s while it runs.
 *
 * @module
 */
import { commit } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { DebateEvent } from "./model.ts";

/** How long a lease is valid without renewal. */
export const LEASE_MS = 6_000;
/** How often the holder renews it. */
export const RENEW_MS = 2_000;
/** A text batch is stored once it holds this many characters… */
export const CHUNK_FLUSH_CHARS = 120;
/** …or this long after its first delta. */
export const CHUNK_FLUSH_MS = 150;

/** This process's name as a lease owner. */
export const INSTANCE_ID: string = crypto.randomUUID();

/** The lease value. */
export interface DebateLease {
  owner: string;
  /** Unix ms after which another instance may claim the debate. */
  until: number;
}

/** One stored event (the SSE event's type and data). */
export interface StoredDebateEvent {
  type: DebateEvent["type"];
  data: unknown;
}

/** Thrown into a run whose lease another instance took over: stop without writing. */
export class LeaseLostError extends Error {
  constructor(debateId: string) {
    super(`Lost the lease of debate ${debateId}`);
    this.name = "LeaseLostError";
  }
}

/** A listener of the events a writer emits (raw, before batching), in order. */
export type EventListener = (event: DebateEvent) => void;

/**
 * The lease rows of a new debate, to be added to the op that creates it.
 *
 * @example
 * ```ts
 * import { createDebate, type DebateRecord } from "@/lib/debates/store.ts";
 * declare const kv: Deno.Kv;
 * declare const record: DebateRecord;
 * await createDebate(kv, record, undefined, (op) => newDebateLeaseOps(op, record.id, Date.now()));
 * ```
 */
export function newDebateLeaseOps(
  op: Deno.AtomicOperation,
  debateId: string,
  now: number,
  owner = INSTANCE_ID,
): void {
  op.set(keys.debateLease(debateId), { owner, until: now + LEASE_MS } satisfies DebateLease)
    .set(keys.debateEventHead(debateId), 0);
}

/**
 * Writes a debate's events and results under its lease; see the module doc.
 * Create one with {@link adoptDebate} (a debate this process just created) or
 * {@link claimDebate} (a debate whose lease expired).
 */
export class DebateWriter {
  #lost = false;
  #closed = false;
  #chain: Promise<unknown> = Promise.resolve();
  #pending: { role: string; text: string } | null = null;
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #listeners: EventListener[] = [];

  constructor(
    readonly kv: Deno.Kv,
    readonly debateId: string,
    readonly owner: string,
    private leaseVersion: string,
    private seq: number,
    private readonly now: () => number,
  ) {
    this.#heartbeat = setInterval(() => this.#renew(), RENEW_MS);
  }

  /** True once another instance took the debate over. */
  get lost(): boolean {
    return this.#lost;
  }

  /** The last stored event's sequence number. */
  get lastSeq(): number {
    return this.seq;
  }

  /** Receive every event as it is emitted or committed. */
  listen(listener: EventListener): void {
    this.#listeners.push(listener);
  }

  #tell(event: DebateEvent): void {
    for (const l of this.#listeners) {
      try {
        l(event);
      } catch (err) {
        // A listener's failure (a client gone) never stops the debate.
        console.error("Debate event listener failed", err);
      }
    }
  }

  /**
   * Emit an event that needs no other write with it (init, start, chunk, synthesizing).
   * Chunks are batched per {@link CHUNK_FLUSH_CHARS}/{@link CHUNK_FLUSH_MS}; storage
   * happens in the background, in order.
   */
  emit(event: DebateEvent): void {
    if (this.#lost || this.#closed) return;
    this.#tell(event);
    if (event.type === "chunk") {
      const { role, content } = event.data;
      if (this.#pending && this.#pending.role !== role) this.#flush();
      if (!this.#pending) {
        this.#pending = { role, text: "" };
        this.#flushTimer = setTimeout(() => this.#flush(), CHUNK_FLUSH_MS);
      }
      this.#pending.text += content;
      if (this.#pending.text.length >= CHUNK_FLUSH_CHARS) this.#flush();
      return;
    }
    this.#flush();
    this.#enqueue([event]).catch(() => {});
  }

  /**
   * Store `events` together with the writes of `build` in one op checked against the
   * lease, after every event emitted before; the events reach listeners once stored.
   *
   * @throws {LeaseLostError} when another instance holds the debate now.
   */
  async commit(
    events: DebateEvent[],
    build: (op: Deno.AtomicOperation) => void = () => {},
  ): Promise<void> {
    if (this.#lost) throw new LeaseLostError(this.debateId);
    this.#flush();
    await this.#enqueue(events, build);
    for (const e of events) this.#tell(e);
  }

  #flush(): void {
    clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    const pending = this.#pending;
    this.#pending = null;
    if (!pending || !pending.text) return;
    this.#enqueue([
      { type: "chunk", data: { role: pending.role, content: pending.text } } as DebateEvent,
    ]).catch(() => {});
  }

  #enqueue(
    events: DebateEvent[],
    build?: (op: Deno.AtomicOperation) => void,
  ): Promise<void> {
    const run = this.#chain.then(async () => {
      if (this.#lost) throw new LeaseLostError(this.debateId);
      const first = this.seq + 1;
      const res = await commit(this.kv, (op) => {
        op.check({ key: keys.debateLease(this.debateId), versionstamp: this.leaseVersion });
        events.forEach((e, i) =>
          op.set(
            keys.debateEvent(this.debateId, first + i),
            {
              type: e.type,
              data: e.data,
            } satisfies StoredDebateEvent,
          )
        );
        op.set(keys.debateEventHead(this.debateId), this.seq + events.length);
        build?.(op);
      });
      if (!res.ok) {
        this.#lose();
        throw new LeaseLostError(this.debateId);
      }
      this.seq += events.length;
    });
    this.#chain = run.catch(() => {});
    return run;
  }

  #renew(): void {
    this.#chain = this.#chain.then(async () => {
      if (this.#lost || this.#closed) return;
      const lease: DebateLease = { owner: this.owner, until: this.now() + LEASE_MS };
      const res = await commit(
        this.kv,
        (op) =>
          op.check({ key: keys.debateLease(this.debateId), versionstamp: this.leaseVersion })
            .set(keys.debateLease(this.debateId), lease),
      );
      if (res.ok) this.leaseVersion = res.versionstamp;
      else this.#lose();
    }).catch((err) => {
      // KV closed or unreachable: the lease will lapse and another instance resumes.
      console.error(`Debate ${this.debateId}: could not renew its lease`, err);
    });
  }

  #lose(): void {
    if (!this.#lost) console.warn(`Debate ${this.debateId}: another instance took it over`);
    this.#lost = true;
    clearInterval(this.#heartbeat);
  }

  /** Stop renewing (the run ended); waits for queued writes. */
  async close(): Promise<void> {
    this.#flush();
    this.#closed = true;
    clearInterval(this.#heartbeat);
    await this.#chain;
  }
}

/**
 * A writer for a debate this process just created with {@link newDebateLeaseOps}.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const writer = await adoptDebate(kv, "debate_1700000000000_k3j9x0qa2m", Date.now);
 * ```
 * @throws {LeaseLostError} when the lease is not (or no longer) this process's.
 */
export async function adoptDebate(
  kv: Deno.Kv,
  debateId: string,
  now: () => number,
  owner = INSTANCE_ID,
): Promise<DebateWriter> {
  const [lease, head] = await kv.getMany<[DebateLease, number]>([
    keys.debateLease(debateId),
    keys.debateEventHead(debateId),
  ]);
  if (!lease.value || lease.value.owner !== owner || !lease.versionstamp) {
    throw new LeaseLostError(debateId);
  }
  return new DebateWriter(kv, debateId, owner, lease.versionstamp, head.value ?? 0, now);
}

/**
 * Claim a debate whose lease expired (or is missing); null when someone holds it.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const writer = await claimDebate(kv, "debate_1700000000000_k3j9x0qa2m", Date.now);
 * ```
 */
export async function claimDebate(
  kv: Deno.Kv,
  debateId: string,
  now: () => number,
  owner = INSTANCE_ID,
): Promise<DebateWriter | null> {
  // A stalled holder may still write until its lease is taken: then try again.
  for (let attempt = 0; attempt < 5; attempt++) {
    const [lease, head] = await kv.getMany<[DebateLease, number]>([
      keys.debateLease(debateId),
      keys.debateEventHead(debateId),
    ]);
    const at = now();
    if (lease.value && lease.value.until > at) return null;
    // Checking the head too: a late write of the old holder cannot slip in between.
    const res = await commit(
      kv,
      (op) =>
        op.check(lease).check(head).set(
          keys.debateLease(debateId),
          {
            owner,
            until: at + LEASE_MS,
          } satisfies DebateLease,
        ),
    );
    if (res.ok) {
      return new DebateWriter(kv, debateId, owner, res.versionstamp, head.value ?? 0, now);
    }
  }
  return null;
}
