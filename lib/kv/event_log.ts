/**
 * A resumable event log in KV: events stored under `event(seq)` (1, 2, …) with a `head` key holding the
 * last seq, set in the same atomic op; readers replay after a sequence number and follow
 * live by watching the head, from any instance. Used by the debates (lib/debates/events.ts)
 * and the AI expert panel (lib/panel); each event goes out as an SSE message with
 * `id: <seq>` (lib/http/sse.ts writes the frames).
 *
 * @module
 */
import { createEventStream, formatSse, SSE_RETRY_MS, type SseMessage } from "../http/sse.ts";

/** One stored event. */
export interface StoredEvent {
  type: string;
  data: unknown;
}

/** A stored event with its sequence number. */
export type SequencedStoredEvent = StoredEvent & { seq: number };

function sequencedMessage(e: SequencedStoredEvent): SseMessage {
  return { id: e.seq, event: e.type, data: JSON.stringify(e.data) };
}

/**
 * One event in the resumable framing (`id: <seq>`, `event:`, `data:`).
 *
 * @example
 * ```ts
 * formatSequenced({ seq: 3, type: "done", data: {} }); // 'id: 3\nevent: done\ndata: {}\n\n'
 * ```
 */
export function formatSequenced(e: SequencedStoredEvent): string {
  return formatSse(sequencedMessage(e));
}

/** Where one log lives. */
export interface EventLogKeys {
  event(seq: number): Deno.KvKey;
  head: Deno.KvKey;
}

/**
 * Add `events` after `lastSeq` to `op` (the caller checks whatever guards the write).
 * Returns the new last seq.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const log = { event: (n: number) => ["ev", "x", n], head: ["ev_head", "x"] };
 * const op = kv.atomic();
 * appendEvents(op, log, 0, [{ type: "hello", data: {} }]);
 * await op.commit();
 * ```
 */
export function appendEvents(
  op: Deno.AtomicOperation,
  log: EventLogKeys,
  lastSeq: number,
  events: StoredEvent[],
): number {
  events.forEach((e, i) => op.set(log.event(lastSeq + 1 + i), { type: e.type, data: e.data }));
  op.set(log.head, lastSeq + events.length);
  return lastSeq + events.length;
}

/** The stored events with seq > `after`, in order (at most `limit`). */
export async function readLog(
  kv: Deno.Kv,
  log: EventLogKeys,
  after: number,
  limit = 500,
): Promise<SequencedStoredEvent[]> {
  const out: SequencedStoredEvent[] = [];
  const iter = kv.list<StoredEvent>({
    start: log.event(after + 1),
    end: log.event(Number.MAX_SAFE_INTEGER),
  }, { limit });
  for await (const e of iter) out.push({ ...e.value, seq: e.key[e.key.length - 1] as number });
  return out;
}

/** Options of {@link followLog}. */
export interface FollowOptions {
  /** Event types after which the stream ends. */
  endTypes: string[];
  /** Ends the stream (client gone, shutdown). */
  signal?: AbortSignal;
  /** Re-read this often when nothing changed (default 10 s); `idle()` may end the stream. */
  idleMs?: number;
  /**
   * Called when idle; return true to end the stream, or an event to send last (without
   * an id: it is not in the log) and end.
   */
  idle?: () => Promise<boolean | StoredEvent>;
  /** Rewrites a batch read from the very start (after 0) before it is sent. */
  fromStart?: (events: SequencedStoredEvent[]) => SequencedStoredEvent[];
  /** Starts the message logged when the follower fails (default "Event log"). */
  logPrefix?: string;
  /** Called once when the stream ends, whatever ended it (its slot is given back there). */
  onEnd?: () => void;
}

/**
 * The SSE body of a follower: `retry:`, the replay after `after`, then live events until
 * an end type, the signal, or `idle()` says so.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const log = { event: (n: number) => ["ev", "x", n], head: ["ev_head", "x"] };
 * const body = followLog(kv, log, 0, { endTypes: ["done"] });
 * ```
 */
export function followLog(
  kv: Deno.Kv,
  log: EventLogKeys,
  after: number,
  opts: FollowOptions,
): ReadableStream<Uint8Array> {
  const stream = createEventStream({ signal: opts.signal, onEnd: opts.onEnd });
  let watcher: ReadableStreamDefaultReader<unknown> | null = null;
  stream.ended.addEventListener("abort", () => watcher?.cancel().catch(() => {}));
  const follow = async () => {
    let last = after;
    let reachedEnd = false;
    const pump = async () => {
      for (;;) {
        const batch = await readLog(kv, log, last);
        if (batch.length === 0) return;
        for (const e of last === 0 && opts.fromStart ? opts.fromStart(batch) : batch) {
          stream.write(sequencedMessage(e));
          if (opts.endTypes.includes(e.type)) reachedEnd = true;
        }
        last = batch[batch.length - 1].seq;
        if (reachedEnd) return;
      }
    };
    try {
      stream.write({ retry: SSE_RETRY_MS });
      await pump();
      if (!reachedEnd) {
        watcher = kv.watch([log.head]).getReader();
        let timer: ReturnType<typeof setTimeout> | undefined;
        while (stream.open && !reachedEnd) {
          const next = await Promise.race([
            watcher.read(),
            new Promise<"idle">((r) => timer = setTimeout(() => r("idle"), opts.idleMs ?? 10_000)),
          ]);
          clearTimeout(timer);
          if (next !== "idle" && next.done) break;
          await pump();
          if (!reachedEnd && next === "idle" && opts.idle) {
            const end = await opts.idle();
            if (end === false) continue;
            if (end !== true) stream.send(end.type, end.data);
            break;
          }
        }
      }
    } catch (err) {
      if (stream.open) console.error(`${opts.logPrefix ?? "Event log"} follower failed`, err);
    } finally {
      watcher?.cancel().catch(() => {});
      stream.close();
    }
  };
  follow();
  return stream.body;
}
