/**
 * Following a stored event log from the browser (a debate's or a roundtable's
 * `…/events`): replay from the first event, then follow live; when the stream drops before
 * `done` or `error`, resume with `Last-Event-ID` and a capped backoff. Browser-safe;
 * requests go through ./api.ts.
 *
 * @module
 */
import { readEventStream, type StreamEvent } from "../debates/sse_reader.ts";
import { openEventStream } from "./api.ts";

/** Reconnection delays (ms): exponential backoff, capped. */
const BACKOFF_MS = [500, 1_000, 2_000, 4_000, 8_000];
/** Opens tried in a row without a stream answering. */
const MAX_ATTEMPTS = 12;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What a follower hears. */
export interface LogFollower {
  /** One event, in order. */
  event(event: StreamEvent): void;
  /** The first stream answered: it replays from the start (drop what the page showed). */
  replaying(): void;
  /** A stream answered (after a drop: the follow is live again). */
  resumed(): void;
  /** The stream dropped; the next attempt waits. */
  reconnecting(): void;
  /** The attempts gave up before the end. */
  closed(): void;
  /** Something failed for good. */
  lost(): void;
  /** Always last. */
  ended(): void;
}

/**
 * Follow the log at `path` from its first event until `done` or `error`, the attempts
 * give up, or `signal` aborts. Never throws.
 *
 * @example
 * ```ts
 * await followEventLog("/api/roundtables/rt_1/events", {
 *   event: (e) => console.log(e.type),
 *   replaying() {},
 *   resumed() {},
 *   reconnecting() {},
 *   closed() {},
 *   lost() {},
 *   ended() {},
 * }, new AbortController().signal);
 * ```
 */
export async function followEventLog(
  path: string,
  to: LogFollower,
  signal: AbortSignal,
): Promise<void> {
  let finished = false;
  let lastId: number | null = null;
  const handle = (event: StreamEvent) => {
    if (event.type === "done" || event.type === "error") finished = true;
    if (event.id) lastId = Number(event.id);
    to.event(event);
  };
  try {
    for (let attempt = 0; !finished && attempt < MAX_ATTEMPTS; attempt++) {
      if (signal.aborted) return;
      if (attempt > 0) {
        to.reconnecting();
        await sleep(BACKOFF_MS[Math.min(attempt - 1, BACKOFF_MS.length - 1)]);
        if (signal.aborted) return;
      }
      const r = await openEventStream("GET", path, {
        headers: lastId === null ? {} : { "last-event-id": String(lastId) },
        signal,
      });
      if (!r.ok) continue;
      if (lastId === null) to.replaying();
      to.resumed();
      attempt = 0;
      await readEventStream(r.body, handle).catch(() => {});
    }
    if (!finished && !signal.aborted) to.closed();
  } catch {
    if (!signal.aborted) to.lost();
  } finally {
    to.ended();
  }
}
