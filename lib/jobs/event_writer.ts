/**
 * The only door through which a job's run writes its resumable event log
 * (lib/kv/event_log.ts) and its results to KV: text deltas batched, every other event
 * stored in order, each op carrying the fence of the run's job (lib/jobs/runner.ts). Once
 * another instance holds the job — this one stalled, was partitioned, or released it at
 * shutdown — every write fails and the run learns so from a {@link LeaseLostError} and
 * stops. Debates (lib/debates/writer.ts) and roundtables (lib/roundtables/) write through it.
 *
 * @module
 */
import { commit } from "../kv/atomic.ts";
import { appendEvents, type EventLogKeys } from "../kv/event_log.ts";

/** A text batch is stored once it holds this many characters… */
export const CHUNK_FLUSH_CHARS = 120;
/** …or this long after its first delta. */
export const CHUNK_FLUSH_MS = 150;

/** An event of a log: its SSE type and data. */
export interface LogEvent {
  type: string;
  data: unknown;
}

/** Thrown into a run whose job another instance holds now: stop without writing. */
export class LeaseLostError extends Error {
  constructor(id: string) {
    super(`Lost the job of ${id}`);
    this.name = "LeaseLostError";
  }
}

/** How a writer batches text deltas: which events are deltas, by whom, and how to merge. */
export interface ChunkRule<E extends LogEvent> {
  /** The speaker of a delta event, or null for any other event. */
  speakerOf(event: E): string | null;
  /** The text of a delta event. */
  textOf(event: E): string;
  /** One event holding `text`, all of `speaker`'s consecutive deltas. */
  merge(speaker: string, text: string): E;
}

/** The job's side a writer needs: its fence and its stop signal. */
export interface FencedJob {
  fence(op: Deno.AtomicOperation): Deno.AtomicOperation;
  signal: AbortSignal;
}

/**
 * Writes a run's events and results under its job's fence; see the module doc.
 *
 * @example
 * ```ts
 * import type { JobContext } from "@/lib/jobs/runner.ts";
 * declare const ctx: JobContext;
 * const log = { event: (n: number) => ["ev", ctx.id, n], head: ["ev_head", ctx.id] };
 * const writer = new JobEventWriter<{ type: string; data: string }>(ctx.kv, ctx.id, log, ctx, 0, {
 *   speakerOf: () => null,
 *   textOf: () => "",
 *   merge: (_s, text) => ({ type: "chunk", data: text }),
 * });
 * writer.emit({ type: "hello", data: "" });
 * await writer.close();
 * ```
 */
export class JobEventWriter<E extends LogEvent> {
  #lost = false;
  #closed = false;
  #chain: Promise<unknown> = Promise.resolve();
  #pending: { speaker: string; text: string } | null = null;
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #listeners: ((event: E) => void)[] = [];

  /**
   * @param id what the log belongs to (named in messages)
   * @param log where the events are stored
   * @param job the run's fence and signal (lib/jobs/runner.ts `JobContext`)
   * @param seq the last stored event's sequence number
   * @param chunks which events are text deltas and how they batch
   */
  constructor(
    readonly kv: Deno.Kv,
    readonly id: string,
    private readonly log: EventLogKeys,
    private readonly job: FencedJob,
    private seq: number,
    private readonly chunks: ChunkRule<E>,
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
  listen(listener: (event: E) => void): void {
    this.#listeners.push(listener);
  }

  #tell(event: E): void {
    for (const l of this.#listeners) {
      try {
        l(event);
      } catch (err) {
        // A listener's failure (a client gone) never stops the run.
        console.error(`${this.id}: event listener failed`, err);
      }
    }
  }

  /**
   * Emit an event that needs no other write with it. Deltas are batched per
   * {@link CHUNK_FLUSH_CHARS}/{@link CHUNK_FLUSH_MS}; storage happens in the background,
   * in order.
   */
  emit(event: E): void {
    if (this.lost || this.#closed) return;
    this.#tell(event);
    const speaker = this.chunks.speakerOf(event);
    if (speaker !== null) {
      if (this.#pending && this.#pending.speaker !== speaker) this.#flush();
      if (!this.#pending) {
        this.#pending = { speaker, text: "" };
        this.#flushTimer = setTimeout(() => this.#flush(), CHUNK_FLUSH_MS);
      }
      this.#pending.text += this.chunks.textOf(event);
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
   * @throws {LeaseLostError} when another instance holds the job now.
   */
  async commit(
    events: E[],
    build: (op: Deno.AtomicOperation) => void = () => {},
  ): Promise<void> {
    if (this.lost) throw new LeaseLostError(this.id);
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
    this.#enqueue([this.chunks.merge(pending.speaker, pending.text)]).catch(() => {});
  }

  #enqueue(events: E[], build?: (op: Deno.AtomicOperation) => void): Promise<void> {
    const run = this.#chain.then(async () => {
      if (this.lost) throw new LeaseLostError(this.id);
      const res = await commit(this.kv, (op) => {
        this.job.fence(op);
        appendEvents(op, this.log, this.seq, events.map((e) => ({ type: e.type, data: e.data })));
        build?.(op);
      });
      if (!res.ok) {
        this.#lose();
        throw new LeaseLostError(this.id);
      }
      this.seq += events.length;
    });
    this.#chain = run.catch(() => {});
    return run;
  }

  #lose(): void {
    if (!this.lost) console.warn(`${this.id}: another instance holds it now`);
    this.#lost = true;
  }

  /** The run ended: store what is pending and wait for queued writes. */
  async close(): Promise<void> {
    this.#flush();
    this.#closed = true;
    await this.#chain;
  }
}

/** The final `error` event every run's log can end with. */
export interface ErrorEvent {
  type: "error";
  data: { message: string };
}

/** What {@link giveUpWithError} writes with: a run's writer whose events include `error`. */
export interface ErrorEventWriter {
  commit(events: ErrorEvent[], build?: (op: Deno.AtomicOperation) => void): Promise<void>;
  close(): Promise<void>;
}

/** What {@link giveUpWithError} needs of a run that is given up. */
export interface GivenUpRun<R> {
  /** The run's record and its event log's head. */
  recordKey: Deno.KvKey;
  headKey: Deno.KvKey;
  /** The run's writer, continuing its log after `seq`. */
  writer(seq: number): ErrorEventWriter;
  /** The sentence of the final `error` event. */
  message: string;
  /** What the same op writes to the record (it may be gone or no longer running). */
  settle(op: Deno.AtomicOperation, record: R | null): void;
}

/**
 * End a job the runner gives up on (interrupted too often): one fenced commit appends an
 * `error` event to its log, settles its record and finishes the job.
 *
 * @example
 * ```ts
 * import type { JobContext } from "@/lib/jobs/runner.ts";
 * declare const ctx: JobContext;
 * declare const writer: (seq: number) => ErrorEventWriter;
 * await giveUpWithError<{ status: string }>(ctx, {
 *   recordKey: ["run", ctx.id],
 *   headKey: ["run_head", ctx.id],
 *   writer,
 *   message: "The run was interrupted too often and was stopped.",
 *   settle: (op, record) => record && op.set(["run", ctx.id], { status: "failed" }),
 * });
 * ```
 */
export async function giveUpWithError<R>(
  ctx: FencedJob & {
    kv: Deno.Kv;
    finish(op: Deno.AtomicOperation): Deno.AtomicOperation;
  },
  run: GivenUpRun<R>,
): Promise<void> {
  const [record, head] = await ctx.kv.getMany<[R, number]>([run.recordKey, run.headKey]);
  const writer = run.writer(head.value ?? 0);
  await writer.commit([{ type: "error", data: { message: run.message } }], (op) => {
    run.settle(op, record.value);
    ctx.finish(op);
  }).finally(() => writer.close());
}
