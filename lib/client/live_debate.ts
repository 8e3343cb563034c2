/**
 * Following a new debate from the browser: start it (`POST /api/debate`, whose answer is
 * the debate's stream), and when that stream drops before the debate ends, resume
 * through `GET /api/debates/:id/events` with a capped backoff — the first resume replays
 * from the start (the POST stream carries no ids), later ones send `Last-Event-ID`. Every
 * step is dispatched as a {@link LiveDebateAction} (lib/debates/live_state.ts); requests
 * go through ./api.ts.
 *
 * @module
 */
import type { HistoryItemView } from "../../components/DebateView.tsx";
import type { LiveDebateAction } from "../debates/live_state.ts";
import type { Synthesis } from "../schemas/debate.ts";
import { readEventStream, type StreamEvent } from "../debates/sse_reader.ts";
import { openEventStream, sendJson } from "./api.ts";

/** Reconnection delays (ms): exponential backoff, capped. */
const BACKOFF_MS = [500, 1_000, 2_000, 4_000, 8_000];
/** Resumes tried in a row without a stream answering. */
const MAX_RECONNECTS = 12;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The user's agent as the debate request sends it. */
export interface DebateAgent {
  name: string;
  avatar: string | null;
  bio: string;
  softMemory: { traits: string[]; interests: string[] };
}

/** Only web addresses are sent as the agent's avatar (the API accepts nothing else). */
function webAvatar(avatar: string | null): string | undefined {
  return avatar && /^https?:\/\//i.test(avatar) ? avatar : undefined;
}

/**
 * Start a debate on `topic` and follow it until it ends, the resumes give up, or `signal`
 * aborts (the reader stopped: the debate goes on on the server). Never throws; the last
 * action dispatched is always `ended`.
 *
 * @example
 * ```ts
 * import { initialLiveDebate, liveDebateReducer } from "@/lib/debates/live_state.ts";
 * let state = initialLiveDebate(null);
 * const agent = { name: "Ada", avatar: null, bio: "", softMemory: { traits: [], interests: [] } };
 * await followNewDebate("Should cities ban cars?", agent, (a) => {
 *   state = liveDebateReducer(state, a);
 * }, new AbortController().signal);
 * ```
 */
export async function followNewDebate(
  topic: string,
  agent: DebateAgent,
  dispatch: (action: LiveDebateAction) => void,
  signal: AbortSignal,
): Promise<void> {
  let finished = false;
  try {
    const res = await openEventStream("POST", "/api/debate", {
      signal,
      body: {
        topic,
        userProfile: {
          name: agent.name,
          avatar: webAvatar(agent.avatar),
          bio: agent.bio || undefined,
          softMemory: agent.softMemory,
        },
      },
    });
    if (!res.ok) {
      if (res.status === 0) {
        if (!signal.aborted) dispatch({ type: "lost" });
        return;
      }
      const error = (res.data as { error?: unknown } | null)?.error;
      dispatch({
        type: "refused",
        status: res.status,
        error: typeof error === "string" ? error : undefined,
        retryAfter: res.retryAfter,
      });
      return;
    }
    let lastId = 0;
    let id: string | null = null;
    const handle = (event: StreamEvent) => {
      if (event.type === "init") id = (event.data as { id: string }).id;
      if (event.type === "done" || event.type === "error") finished = true;
      if (event.id) lastId = Number(event.id);
      dispatch({ type: "event", event });
    };
    try {
      await readEventStream(res.body, handle);
    } catch {
      if (signal.aborted) return;
    }
    // The POST stream carries no ids: the first resume replays from the start.
    let fromStart = true;
    for (let attempt = 0; !finished && id && attempt < MAX_RECONNECTS; attempt++) {
      if (signal.aborted) return;
      dispatch({ type: "reconnecting" });
      await sleep(BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]);
      if (signal.aborted) return;
      const r = await openEventStream("GET", `/api/debates/${encodeURIComponent(id)}/events`, {
        headers: fromStart ? {} : { "last-event-id": String(lastId) },
        signal,
      });
      if (!r.ok) {
        if (signal.aborted) return;
        continue;
      }
      if (fromStart) {
        // Rebuild the view from the replay: nothing doubled, nothing lost.
        dispatch({ type: "replaying" });
        fromStart = false;
      }
      dispatch({ type: "resumed" });
      attempt = -1; // a stream that answered resets the backoff
      await readEventStream(r.body, handle).catch(() => {});
    }
    if (!finished && !signal.aborted) dispatch({ type: "closed" });
  } catch {
    if (!signal.aborted) dispatch({ type: "lost" });
  } finally {
    dispatch({ type: "ended" });
  }
}

/** One saved debate as `GET /api/debate/history` lists it. */
interface HistoryEntry {
  id: string;
  topic: string;
  opponentProfile: { name: string };
  status: string;
  synthesis: Synthesis | null;
  createdAt: string;
}

/**
 * The signed-in user's debates for the history list, or null when they could not be read
 * (the list refreshes on the next visit).
 *
 * @example
 * ```ts
 * const items = await loadDebateHistory();
 * if (items) console.log(items.length);
 * ```
 */
export async function loadDebateHistory(): Promise<HistoryItemView[] | null> {
  const r = await sendJson<HistoryEntry[]>("GET", "/api/debate/history");
  if (!r.ok) return null;
  try {
    return r.data.map((d) => ({
      id: d.id,
      topic: d.topic,
      opponentName: d.opponentProfile.name,
      status: d.status,
      winner: d.synthesis?.winner,
      createdAt: d.createdAt,
    }));
  } catch {
    return null;
  }
}
