/**
 * Reading a debate's stored events (lib/debates/lease.ts writes them): replay after a
 * sequence number, then follow live by watching the per-debate head key — from any
 * instance, since everything is in KV.
 *
 * Wire format of `GET /api/debates/:id/events` (framed by lib/http/sse.ts): first
 * `retry: <ms>`, then each event as `id: <seq>\nevent: <type>\ndata: <json>\n\n`. A
 * `start` for a turn whose `message` has not come yet restarts that turn (its process
 * died mid-message and another instance generates it again): a reader drops the turn's
 * partial text. Replays drop such abandoned partial turns themselves where they can see
 * the restart.
 *
 * @module
 */
import { shutdownSignal } from "../http/sse.ts";
import { type EventLogKeys, followLog, readLog } from "../kv/event_log.ts";
import { keys } from "../kv/keys.ts";
import type { StoredDebateEvent } from "./writer.ts";
import type { DebateRecord } from "./store.ts";

/** How often a follower re-reads when nothing changed (a debate settled without events). */
const IDLE_CHECK_MS = 10_000;

/** Where a debate's events live (lib/kv/event_log.ts). */
function debateLog(debateId: string): EventLogKeys {
  return {
    event: (seq) => keys.debateEvent(debateId, seq),
    head: keys.debateEventHead(debateId),
  };
}

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
  return await readLog(kv, debateLog(debateId), after, limit) as SequencedEvent[];
}

/**
 * Drop the partial text of turns that were restarted (a `start`, chunks, then another
 * `start` before any `message`): a replay then reads like one clean run. Roundtables name
 * their own turn events (`speaking` … `statement`).
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
export function dropAbandonedTurns<E extends { type: string }>(
  events: E[],
  turn: { start: string; settled: string[] } = {
    start: "start",
    settled: ["message", "synthesizing"],
  },
): E[] {
  const out: E[] = [];
  let openStart = -1;
  for (const e of events) {
    if (e.type === turn.start) {
      if (openStart >= 0) out.splice(openStart);
      openStart = out.length;
    } else if (turn.settled.includes(e.type)) {
      openStart = -1;
    }
    out.push(e);
  }
  return out;
}

/**
 * The SSE body of a follower: replay after `after`, then follow until `done`/`error`,
 * the client leaving, or the server shutting down (`closeLiveStreams`, lib/http/sse.ts;
 * clients reconnect elsewhere with `Last-Event-ID`). `onEnd` runs once when it ends.
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
  options: { onEnd?: () => void } = {},
): ReadableStream<Uint8Array> {
  return followLog(kv, debateLog(debateId), after, {
    onEnd: options.onEnd,
    endTypes: ["done", "error"],
    signal: shutdownSignal(),
    idleMs: IDLE_CHECK_MS,
    // A debate that settled without a final event (it died for good and was read as
    // failed) ends the stream too.
    idle: async () => {
      const rec = (await kv.get<DebateRecord>(keys.debate(debateId))).value;
      if (rec && rec.status === "in_progress") return false;
      return { type: "error", data: { message: rec?.error ?? "The debate ended." } };
    },
    fromStart: (events) => dropAbandonedTurns(events as SequencedEvent[]),
    logPrefix: `Debate ${debateId}:`,
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
