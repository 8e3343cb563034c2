/**
 * Following a saved debate that is still being written (its permalink): replay its
 * events from the start through `GET /api/debates/:id/events`, then follow them live;
 * when the stream drops before `done` or `error`, resume with `Last-Event-ID` and a capped
 * backoff. Every step is dispatched as a {@link LiveDebateAction}
 * (lib/debates/live_state.ts); requests go through ./api.ts.
 *
 * @module
 */
import type { LiveDebateAction } from "../debates/live_state.ts";
import { readEventStream, type StreamEvent } from "../debates/sse_reader.ts";
import { openEventStream } from "./api.ts";

/** Reconnection delays (ms): exponential backoff, capped. */
const BACKOFF_MS = [500, 1_000, 2_000, 4_000, 8_000];
/** Opens tried in a row without a stream answering. */
const MAX_ATTEMPTS = 12;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Follow debate `id` from its first event until it ends, the attempts give up, or
 * `signal` aborts. The first stream that answers replaces what the page showed (a
 * `replaying`), so nothing is doubled. Never throws; the last action is always `ended`.
 *
 * @example
 * ```ts
 * import { initialLiveDebate, liveDebateReducer } from "@/lib/debates/live_state.ts";
 * let state = initialLiveDebate(null);
 * await followSavedDebate("debate_1700000000000_k3j9x0qa2m", (a) => {
 *   state = liveDebateReducer(state, a);
 * }, new AbortController().signal);
 * ```
 */
export async function followSavedDebate(
  id: string,
  dispatch: (action: LiveDebateAction) => void,
  signal: AbortSignal,
): Promise<void> {
  let finished = false;
  let lastId: number | null = null;
  const handle = (event: StreamEvent) => {
    if (event.type === "done" || event.type === "error") finished = true;
    if (event.id) lastId = Number(event.id);
    dispatch({ type: "event", event });
  };
  try {
    for (let attempt = 0; !finished && attempt < MAX_ATTEMPTS; attempt++) {
      if (signal.aborted) return;
      if (attempt > 0) {
        dispatch({ type: "reconnecting" });
        await sleep(BACKOFF_MS[Math.min(attempt - 1, BACKOFF_MS.length - 1)]);
        if (signal.aborted) return;
      }
      const r = await openEventStream("GET", `/api/debates/${encodeURIComponent(id)}/events`, {
        headers: lastId === null ? {} : { "last-event-id": String(lastId) },
        signal,
      });
      if (!r.ok) continue;
      // The first answer replays from the start: it rebuilds the transcript.
      if (lastId === null) dispatch({ type: "replaying" });
      dispatch({ type: "resumed" });
      attempt = 0;
      await readEventStream(r.body, handle).catch(() => {});
    }
    if (!finished && !signal.aborted) dispatch({ type: "closed", onPermalink: true });
  } catch {
    if (!signal.aborted) dispatch({ type: "lost", onPermalink: true });
  } finally {
    dispatch({ type: "ended" });
  }
}
