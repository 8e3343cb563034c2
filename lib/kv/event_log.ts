/**
 * A resumable event log in KV: events stored under `event(seq)` (1, 2, …) with a `head` key holding the
 * last seq, set in the same atomic op; readers replay after a sequence number and follow
 * live by watching the head, from any instance. Used by the debates (lib/debates/events.ts)
 * and the AI expert panel (lib/panel); the wire format is
 * `id: <seq>\nevent: <type>\ndata: <json>`.
 *
 * @module
 */

/** One stored event. */
export interface StoredEvent {
  type: string;
  data: unknown;
}

/** A stored event with its sequence number. */
export type SequencedStoredEvent = StoredEvent & { seq: number };

/** One event in the resumable framing. */
export function formatSequenced(e: SequencedStoredEvent): string {
  return `id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

/** Where one log lives. */
export interface EventLogKeys {
  event(seq: number): Deno.KvKey;
  head: Deno.KvKey;
}

/** The reconnection delay suggested to clients (SSE `retry:`). */
export const LOG_RETRY_MS = 1_000;

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
  const encoder = new TextEncoder();
  const stop = new AbortController();
  const abort = () => stop.abort();
  let watcher: ReadableStreamDefaultReader<unknown> | null = null;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      opts.signal?.addEventListener("abort", abort);
      stop.signal.addEventListener("abort", () => watcher?.cancel().catch(() => {}));
      const send = (text: string) => {
        if (!stop.signal.aborted) controller.enqueue(encoder.encode(text));
      };
      let last = after;
      let ended = false;
      const pump = async () => {
        for (;;) {
          const batch = await readLog(kv, log, last);
          if (batch.length === 0) return;
          for (const e of last === 0 && opts.fromStart ? opts.fromStart(batch) : batch) {
            send(formatSequenced(e));
            if (opts.endTypes.includes(e.type)) ended = true;
          }
          last = batch[batch.length - 1].seq;
          if (ended) return;
        }
      };
      try {
        send(`retry: ${LOG_RETRY_MS}\n\n`);
        await pump();
        if (!ended) {
          watcher = kv.watch([log.head]).getReader();
          let timer: ReturnType<typeof setTimeout> | undefined;
          while (!stop.signal.aborted && !ended) {
            const next = await Promise.race([
              watcher.read(),
              new Promise<"idle">((r) =>
                timer = setTimeout(() => r("idle"), opts.idleMs ?? 10_000)
              ),
            ]);
            clearTimeout(timer);
            if (next !== "idle" && next.done) break;
            await pump();
            if (!ended && next === "idle" && opts.idle) {
              const end = await opts.idle();
              if (end === false) continue;
              if (end !== true) {
                send(`event: ${end.type}\ndata: ${JSON.stringify(end.data)}\n\n`);
              }
              break;
            }
          }
        }
      } catch (err) {
        if (!stop.signal.aborted) {
          console.error(`${opts.logPrefix ?? "Event log"} follower failed`, err);
        }
      } finally {
        opts.signal?.removeEventListener("abort", abort);
        watcher?.cancel().catch(() => {});
        try {
          controller.close();
        } catch {
          // The client already left.
        }
      }
    },
    cancel() {
      stop.abort();
    },
  });
}
