/**
 * Following a saved debate that is still being written (its permalink): replay its
 * events from the start through `GET /api/debates/:id/events`, then follow them live;
 * when the stream drops before `done` or `error`, resume with `Last-Event-ID` and a capped
 * backoff (./follow_log.ts). Every step is dispatched as a {@link LiveDebateAction}
 * (lib/debates/live_state.ts).
 *
 * @module
 */
import type { LiveDebateAction } from "../debates/live_state.ts";
import { followEventLog } from "./follow_log.ts";

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
  await followEventLog(`/api/debates/${encodeURIComponent(id)}/events`, {
    event: (event) => dispatch({ type: "event", event }),
    replaying: () => dispatch({ type: "replaying" }),
    resumed: () => dispatch({ type: "resumed" }),
    reconnecting: () => dispatch({ type: "reconnecting" }),
    closed: () => dispatch({ type: "closed", onPermalink: true }),
    lost: () => dispatch({ type: "lost", onPermalink: true }),
    ended: () => dispatch({ type: "ended" }),
  }, signal);
}
