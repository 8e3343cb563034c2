/**
 * Reading a debate's stored events (lib/debates/lease.ts writes them): replay after a
 * sequence number, then follow live by watching the per-debate head key — from any
 * instance, since everything is in KV.
 *
 * Wire format of `GET /api/debates/:id/events`: first `retry: <ms>`, then each event as
 * `id: <seq>\nevent: <type>\ndata: <json>\n\n`. A `start` for a turn whose `message` has
 * not come yet restarts that turn (its process died mid-message and another instance
 * generates it again): a reader drops the turn's partial text. Replays drop such
 * abandoned partial turns themselves where they can see the restart.
 *
 * @module
 */
import { closeLiveStreams, shutdownSignal } from "../http/live.ts";
import { keys } from "../kv/keys.ts";
import type { StoredDebateEvent } from "./lease.ts";
import type { DebateRecord } from "./store.ts";

/** The reconnection delay suggested to clients (SSE `retry:`). */
export const RETRY_MS = 1_000;
/** How often a follower re-reads when nothing changed (a debate settled without events). */
const IDLE_CHECK_MS = 10_000;

/** A stored event with its sequence number. */
export interface SequencedEvent extends StoredDebateEvent {
  seq: number;
}

/**
 * The stored events with seq > `after`, in order (at most `limit`).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const events = await readEvents(kv, "debate_1700000000000_k3j9x0qa2m", 0);
 * ```
 */
export async function readEvents(
  kv: Deno.Kv,
  debateId: string,
  after: number,
  limit = 500,
): Promise<SequencedEvent[]> {
  const out: SequencedEvent[] = [];
  const iter = kv.list<StoredDebateEvent>({
    start: keys.debateEvent(debateId, after + 1),
    end: keys.debateEvent(debateId, Number.MAX_SAFE_INTEGER),
  }, { limit });
  for await (const e of iter) out.push({ ...e.value, seq: e.key[2] as number });
  return out;
}

/**
 * Drop the partial text of turns that were restarted (a `start`, chunks, then another
 * `start` before any `message`): a replay then reads like one clean run.
 *
 * @example
 * ```ts
 * dropAbandonedTurns([
 *   { seq: 1, type: "start", data: { role: "user", name: "A" } },
 *   { seq: 2, type: "chunk", data: { role: "user", content: "hal" } },
 *   { seq: 3, type: "start", data: { role: "user", name: "A" } },
 * ]).map((e) => e.seq); // [3]
 * ```
 */
export function dropAbandonedTurns(events: SequencedEvent[]): SequencedEvent[] {
  const out: SequencedEvent[] = [];
  let openStart = -1;
  for (const e of events) {
    if (e.type === "start") {
      if (openStart >= 0) out.splice(openStart);
      openStart = out.length;
    } else if (e.type === "message" || e.type === "synthesizing") {
      openStart = -1;
    }
    out.push(e);
  }
  return out;
}

/** One event in the resumable framing. */
export function formatSequenced(e: SequencedEvent): string {
  return `id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

/**
 * End every live stream of this process, debate followers included (call before the
 * server shuts down; clients reconnect elsewhere with `Last-Event-ID`). The one shutdown
 * signal lives in lib/http/live.ts; this name stays for its callers.
 */
export function closeEventFollowers(): void {
  closeLiveStreams();
}

/**
 * The SSE body of a follower: replay after `after`, then follow until `done`/`error`,
 * the client leaving, or {@link closeEventFollowers}.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const body = followDebate(kv, "debate_1700000000000_k3j9x0qa2m", 0);
 * ```
 */
export function followDebate(
  kv: Deno.Kv,
  debateId: string,
  after: number,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const stop = new AbortController();
  const onShutdown = () => stop.abort();
  const shutdown = shutdownSignal();
  let watcher: ReadableStreamDefaultReader<unknown> | null = null;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      shutdown.addEventListener("abort", onShutdown);
      stop.signal.addEventListener("abort", () => watcher?.cancel().catch(() => {}));
      const send = (text: string) => {
        if (!stop.signal.aborted) controller.enqueue(encoder.encode(text));
      };
      let last = after;
      let ended = false;
      const pump = async (): Promise<void> => {
        for (;;) {
          const batch = await readEvents(kv, debateId, last);
          if (batch.length === 0) return;
          for (const e of last === 0 ? dropAbandonedTurns(batch) : batch) {
            send(formatSequenced(e));
            if (e.type === "done" || e.type === "error") ended = true;
          }
          last = batch[batch.length - 1].seq;
          if (ended) return;
        }
      };
      try {
        send(`retry: ${RETRY_MS}\n\n`);
        await pump();
        if (!ended) {
          const stream = kv.watch([keys.debateEventHead(debateId)]);
          watcher = stream.getReader();
          let idle: ReturnType<typeof setTimeout> | undefined;
          for (;;) {
            if (stop.signal.aborted || ended) break;
            const next = await Promise.race([
              watcher.read(),
              new Promise<"idle">((r) => idle = setTimeout(() => r("idle"), IDLE_CHECK_MS)),
            ]);
            clearTimeout(idle);
            if (next !== "idle" && next.done) break;
            await pump();
            if (!ended && next === "idle") {
              // A debate that settled without a final event (it died for good and was
              // read as failed) ends the stream too.
              const rec = (await kv.get<DebateRecord>(keys.debate(debateId))).value;
              if (!rec || rec.status !== "in_progress") {
                send(
                  `event: error\ndata: ${
                    JSON.stringify({ message: rec?.error ?? "The debate ended." })
                  }\n\n`,
                );
                break;
              }
            }
          }
        }
      } catch (err) {
        if (!stop.signal.aborted) console.error(`Debate ${debateId}: follower failed`, err);
      } finally {
        shutdown.removeEventListener("abort", onShutdown);
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

/**
 * The sequence number to resume after: `Last-Event-ID` header, else `?lastEventId=`,
 * else 0 (from the start). Anything that is not a non-negative integer counts as 0.
 *
 * @example
 * ```ts
 * resumePoint(new Headers({ "last-event-id": "12" }), new URL("http://x/")); // 12
 * ```
 */
export function resumePoint(headers: Headers, url: URL): number {
  const raw = headers.get("last-event-id") ?? url.searchParams.get("lastEventId") ?? "";
  return /^\d{1,9}$/.test(raw.trim()) ? Number(raw.trim()) : 0;
}
