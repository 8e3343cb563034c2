/**
 * The only door through which a debate's run writes to KV: its events (text deltas
 * batched), its messages and its end, each op carrying the fence of the debate's job
 * (lib/jobs/runner.ts). Once another instance holds the job — this one stalled, was
 * partitioned, or released it at shutdown — every write fails and the run learns so from a
 * {@link LeaseLostError} and stops.
 *
 * Events are stored as `["debate_events", id, seq]` (seq 1, 2, …) with the head
 * `["debate_event_head", id]` set in the same op; followers watch the head.
 *
 * Write budget of one 10-message debate (KV ops, each one atomic commit):
 * 1 create (record, index, job, head) + 1 `init` + per turn 1 `start`, the text deltas
 * in batches (a batch is written once it holds {@link CHUNK_FLUSH_CHARS} characters or
 * {@link CHUNK_FLUSH_MS} after its first delta, so ≤ ~7 a second and usually 2–6 per
 * 200-character turn) and 1 `message` (the message and its event together) + 1
 * `synthesizing` + 1 end (synthesis, done, record, counters, the job's end) — about 60–90
 * commits — plus the job runner's lease renewal every 2 s while it runs.
 *
 * @module
 */
import { commit } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { DebateEvent } from "./model.ts";

/** A text batch is stored once it holds this many characters… */
export const CHUNK_FLUSH_CHARS = 120;
/** …or this long after its first delta. */
export const CHUNK_FLUSH_MS = 150;

/** One stored event (the SSE event's type and data). */
export interface StoredDebateEvent {
  type: DebateEvent["type"];
  data: unknown;
}

/** Thrown into a run whose job another instance holds now: stop without writing. */
export class LeaseLostError extends Error {
  constructor(debateId: string) {
    super(`Lost the job of debate ${debateId}`);
    this.name = "LeaseLostError";
  }
}

/** A listener of the events a writer emits (raw, before batching), in order. */
export type EventListener = (event: DebateEvent) => void;

/**
 * Writes a debate's events and results under its job's fence; see the module doc.
 *
 * @example
 * ```ts
 * import type { JobContext } from "@/lib/jobs/runner.ts";
 * declare const ctx: JobContext;
 * const writer = new DebateWriter(ctx.kv, ctx.id, ctx, 0);
 * writer.emit({ type: "synthesizing", data: {} });
 * await writer.close();
 * ```
 */
export class DebateWriter {
  #lost = false;
  #closed = false;
  #chain: Promise<unknown> = Promise.resolve();
  #pending: { role: string; text: string } | null = null;
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #listeners: EventListener[] = [];

  /**
   * @param job the run's fence and signal (lib/jobs/runner.ts `JobContext`)
   * @param seq the last stored event's sequence number
   */
  constructor(
    readonly kv: Deno.Kv,
    readonly debateId: string,
    private readonly job: {
      fence(op: Deno.AtomicOperation): Deno.AtomicOperation;
      signal: AbortSignal;
    },
    private seq: number,
  ) {}

  /** True once the run may no longer write (another instance holds it, or shutdown). */
  get lost(): boolean {
    return this.#lost || this.job.signal.aborted;
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
    if (this.lost || this.#closed) return;
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
    if (this.lost) throw new LeaseLostError(this.debateId);
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
      if (this.lost) throw new LeaseLostError(this.debateId);
      const first = this.seq + 1;
      const res = await commit(this.kv, (op) => {
        this.job.fence(op);
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

  #lose(): void {
    if (!this.lost) console.warn(`Debate ${this.debateId}: another instance holds it now`);
    this.#lost = true;
  }

  /** The run ended: store what is pending and wait for queued writes. */
  async close(): Promise<void> {
    this.#flush();
    this.#closed = true;
    await this.#chain;
  }
}
