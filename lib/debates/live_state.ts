/**
 * The live debate page's state and how it changes: a pure reducer over the debate
 * stream's events (lib/debates/events.ts describes them) and the connection's own steps
 * (starting, refused, reconnecting, replaying, lost, stopped). The island
 * (islands/DebateLive.tsx) renders the state; lib/client/live_debate.ts dispatches the
 * actions. Browser-safe: no server imports.
 *
 * @module
 */
import type { SideView, TurnView } from "../../components/DebateView.tsx";
import type { Synthesis } from "../schemas/debate.ts";
import type { DebateMessage, Role } from "./model.ts";
import type { StreamEvent } from "./sse_reader.ts";

/** Where the live debate is: nothing asked yet, then starting, debating, judging, done. */
export type LivePhase = "idle" | "starting" | "debating" | "judging" | "done" | "failed";

/** What the page says went wrong. */
export interface LiveProblem {
  message: string;
  /** Offer the sign-in link. */
  signIn?: boolean;
  retryAfter?: number;
}

/** Everything the live debate shows that comes from the debate and its connection. */
export interface LiveDebateState {
  phase: LivePhase;
  problem: LiveProblem | null;
  /** The user's agent's avatar, shown on its turns. */
  userAvatar: string | null;
  opponent: SideView | null;
  turns: TurnView[];
  synthesis: Synthesis | null;
  debateId: string | null;
  /** The stream dropped and a resume is being tried. */
  reconnecting: boolean;
  /** The reader stopped following (the debate goes on on the server). */
  stopped: boolean;
}

/** What happens to a live debate. */
export type LiveDebateAction =
  /** A new debate is asked for: what the last one showed is cleared. */
  | { type: "begin" }
  /** The request was not sent (an empty topic). */
  | { type: "invalid"; message: string }
  /** The server refused to start the debate: its status, error and wait. */
  | { type: "refused"; status: number; error?: string; retryAfter?: number }
  /** One event of the debate's stream. */
  | { type: "event"; event: StreamEvent }
  /** The stream dropped; a resume is being tried. */
  | { type: "reconnecting" }
  /** A resume replays the debate from its start: the transcript is rebuilt from it. */
  | { type: "replaying" }
  /** A resume's stream answered. */
  | { type: "resumed" }
  /**
   * The stream ended for good before the debate did. `onPermalink`: the reader follows a
   * saved debate on its page (perhaps someone else's), not their own from /debate.
   */
  | { type: "closed"; onPermalink?: boolean }
  /** The connection failed (`onPermalink` as for `closed`). */
  | { type: "lost"; onPermalink?: boolean }
  /** Following ended, however: nothing is being written any more. */
  | { type: "ended" }
  /** The reader stopped following. */
  | { type: "stopped" };

/**
 * The state before any debate.
 *
 * @example
 * ```ts
 * const state = initialLiveDebate(null);
 * state.phase; // "idle"
 * ```
 */
export function initialLiveDebate(userAvatar: string | null): LiveDebateState {
  return {
    phase: "idle",
    problem: null,
    userAvatar,
    opponent: null,
    turns: [],
    synthesis: null,
    debateId: null,
    reconnecting: false,
    stopped: false,
  };
}

/** The problem shown when the connection closed before the debate finished. */
export const CLOSED_EARLY =
  "The connection closed before the debate finished. It keeps running on the server — find it in your history.";
/** The problem shown when the connection to the debate failed. */
export const CONNECTION_LOST =
  "The connection to the debate was lost. It keeps running on the server — find it in your history.";
/**
 * The same two on a debate's permalink, where the reader may not be its owner (the debate
 * is in nobody's history but the owner's) and the page itself shows it again on a reload.
 */
export const PERMALINK_CLOSED_EARLY =
  "The connection closed before the debate finished. It keeps running on the server — reload this page to follow it.";
/** The permalink's words for a failed connection (see {@link PERMALINK_CLOSED_EARLY}). */
export const PERMALINK_CONNECTION_LOST =
  "The connection to the debate was lost. It keeps running on the server — reload this page to follow it.";

/**
 * The state after `action`.
 *
 * @example
 * ```ts
 * let s = liveDebateReducer(initialLiveDebate(null), { type: "begin" });
 * s = liveDebateReducer(s, {
 *   type: "event",
 *   event: { type: "init", data: { id: "debate_1", opponentProfile: { name: "Rex" } } },
 * });
 * s.phase; // "debating"
 * ```
 */
export function liveDebateReducer(
  state: LiveDebateState,
  action: LiveDebateAction,
): LiveDebateState {
  switch (action.type) {
    case "begin":
      return {
        ...state,
        problem: null,
        turns: [],
        synthesis: null,
        opponent: null,
        debateId: null,
        phase: "starting",
        stopped: false,
      };
    case "invalid":
      return { ...state, problem: { message: action.message } };
    case "refused":
      return { ...state, problem: refusal(action), phase: "failed" };
    case "event":
      return onEvent(state, action.event);
    case "reconnecting":
      return { ...state, reconnecting: true };
    case "replaying":
      return { ...state, turns: [], synthesis: null };
    case "resumed":
      return { ...state, reconnecting: false };
    case "closed": {
      const message = action.onPermalink ? PERMALINK_CLOSED_EARLY : CLOSED_EARLY;
      return { ...state, problem: { message }, phase: "failed" };
    }
    case "lost": {
      const message = action.onPermalink ? PERMALINK_CONNECTION_LOST : CONNECTION_LOST;
      return { ...state, problem: { message }, phase: "failed" };
    }
    case "ended":
      return {
        ...state,
        reconnecting: false,
        turns: state.turns.map((t) => t.typing ? { ...t, typing: false } : t),
      };
    case "stopped":
      return { ...state, stopped: true, reconnecting: false, phase: "done" };
  }
}

/** Why the debate did not start, in the page's words. */
function refusal(
  { status, error, retryAfter }: { status: number; error?: string; retryAfter?: number },
): LiveProblem {
  if (status === 401) return { message: "Sign in to start a debate.", signIn: true };
  if (status === 429) {
    const wait = retryAfter ?? 60;
    const n = wait >= 60 ? Math.ceil(wait / 60) : wait;
    return {
      message: `You have started too many debates in the last minute. Try again in ${n} ${
        wait >= 60 ? "minute" : "second"
      }${n === 1 ? "" : "s"}.`,
      retryAfter: wait,
    };
  }
  return { message: error ?? `The debate could not start (HTTP ${status}).` };
}

/** One event of the debate stream applied. */
function onEvent(state: LiveDebateState, event: StreamEvent): LiveDebateState {
  const data = event.data as Record<string, unknown>;
  switch (event.type) {
    case "init": {
      const o = data.opponentProfile as { name: string; avatar?: string; title?: string };
      return {
        ...state,
        opponent: { name: o.name, avatar: o.avatar ?? null, title: o.title },
        debateId: data.id as string,
        phase: "debating",
      };
    }
    case "start": {
      const role = data.role as Role;
      const avatar = role === "user" ? state.userAvatar : state.opponent?.avatar ?? null;
      const fresh = { role, name: data.name as string, avatar, content: "", typing: true };
      // A `start` while the last turn is still being written restarts that turn (the
      // server instance died mid-message and another one writes it again).
      const ts = state.turns;
      return { ...state, turns: ts.at(-1)?.typing ? [...ts.slice(0, -1), fresh] : [...ts, fresh] };
    }
    case "chunk": {
      const last = state.turns.at(-1);
      if (!last) return state;
      return {
        ...state,
        turns: [...state.turns.slice(0, -1), {
          ...last,
          content: last.content + String(data.content),
        }],
      };
    }
    case "message": {
      const m = data as unknown as DebateMessage;
      const last = state.turns.at(-1);
      if (!last) return state;
      return {
        ...state,
        turns: [...state.turns.slice(0, -1), { ...last, content: m.content, typing: false }],
      };
    }
    case "synthesizing":
      return { ...state, phase: "judging" };
    case "synthesis":
      return { ...state, synthesis: data as unknown as Synthesis };
    case "done":
      return { ...state, phase: "done" };
    case "error":
      return {
        ...state,
        turns: state.turns.map((t) => ({ ...t, typing: false })),
        problem: { message: String(data.message ?? "The debate stopped.") },
        phase: "failed",
      };
    default:
      return state;
  }
}
