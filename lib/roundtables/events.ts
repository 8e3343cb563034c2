/**
 * Reading a roundtable's stored events: replay after a sequence number, then follow live
 * by watching its head key — from any instance (lib/kv/event_log.ts). The wire format is
 * the debates' (lib/debates/events.ts): `retry:`, then `id: <seq>`, `event:`, `data:`.
 *
 * @module
 */
import { shutdownSignal } from "../http/sse.ts";
import { type EventLogKeys, followLog } from "../kv/event_log.ts";
import { keys } from "../kv/keys.ts";
import { dropAbandonedTurns } from "../debates/events.ts";
import type { RoundtableRecord } from "./model.ts";

/** How often a follower re-reads when nothing changed (a roundtable settled without events). */
const IDLE_CHECK_MS = 10_000;

/**
 * Where roundtable `id`'s events live.
 *
 * @example
 * ```ts
 * roundtableLog("rt_1").head; // ["roundtable_event_head", "rt_1"]
 * ```
 */
export function roundtableLog(id: string): EventLogKeys {
  return { event: (seq) => keys.roundtableEvent(id, seq), head: keys.roundtableEventHead(id) };
}

/**
 * The SSE body of a follower: replay after `after`, then follow until `done`/`error`, the
 * client leaving, or the server shutting down. `onEnd` runs once when it ends.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const body = followRoundtable(kv, "rt_1700000000000_k3j9x0qa2m", 0);
 * ```
 */
export function followRoundtable(
  kv: Deno.Kv,
  id: string,
  after: number,
  options: { onEnd?: () => void } = {},
): ReadableStream<Uint8Array> {
  return followLog(kv, roundtableLog(id), after, {
    onEnd: options.onEnd,
    endTypes: ["done", "error"],
    signal: shutdownSignal(),
    idleMs: IDLE_CHECK_MS,
    idle: async () => {
      const rec = (await kv.get<RoundtableRecord>(keys.roundtable(id))).value;
      if (rec && rec.status === "in_progress") return false;
      return { type: "error", data: { message: rec?.error ?? "The roundtable ended." } };
    },
    // A turn restarted by a resumed run: its partial text is dropped from a full replay.
    fromStart: (events) =>
      dropAbandonedTurns(events, { start: "speaking", settled: ["statement", "summarizing"] }),
    logPrefix: `Roundtable ${id}:`,
  });
}
