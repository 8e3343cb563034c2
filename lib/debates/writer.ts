/**
 * The only door through which a debate's run writes to KV: its events (text deltas
 * batched), its messages and its end, each op carrying the fence of the debate's job —
 * the shared fenced writer of lib/jobs/event_writer.ts on the debate's log. Once another
 * instance holds the job every write fails and the run learns so from a
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
import { keys } from "../kv/keys.ts";
import {
  CHUNK_FLUSH_CHARS,
  CHUNK_FLUSH_MS,
  type FencedJob,
  JobEventWriter,
  LeaseLostError,
} from "../jobs/event_writer.ts";
import type { DebateEvent } from "./model.ts";

export { CHUNK_FLUSH_CHARS, CHUNK_FLUSH_MS, LeaseLostError };

/** One stored event (the SSE event's type and data). */
export interface StoredDebateEvent {
  type: DebateEvent["type"];
  data: unknown;
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
export class DebateWriter extends JobEventWriter<DebateEvent> {
  /**
   * @param job the run's fence and signal (lib/jobs/runner.ts `JobContext`)
   * @param seq the last stored event's sequence number
   */
  constructor(kv: Deno.Kv, readonly debateId: string, job: FencedJob, seq: number) {
    super(
      kv,
      `Debate ${debateId}`,
      {
        event: (n) => keys.debateEvent(debateId, n),
        head: keys.debateEventHead(debateId),
      },
      job,
      seq,
      {
        speakerOf: (e) => e.type === "chunk" ? e.data.role : null,
        textOf: (e) => e.type === "chunk" ? e.data.content : "",
        merge: (role, content) => ({ type: "chunk", data: { role, content } }) as DebateEvent,
      },
    );
  }
}
