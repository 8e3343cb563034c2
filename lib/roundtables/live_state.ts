/**
 * What a roundtable page shows while it follows the roundtable's events: the transcript
 * (statements and the host's words in order), the statement being written, the minutes,
 * and the phase. A pure reducer over the stream's events, browser-safe (type imports
 * only), so the island and its tests share it.
 *
 * @module
 */
import type { Minutes } from "../schemas/roundtable.ts";
import type { RoundtableMessageJson } from "./model.ts";

/** One line of the transcript: an expert's statement or the host's words. */
export type TranscriptItem =
  | { kind: "statement"; message: RoundtableMessageJson }
  | { kind: "host"; id: string; text: string; directTo?: string };

/** The phase a page shows. */
export type RoundtablePhase = "discussing" | "summarizing" | "done" | "failed";

/** The live state of a roundtable page. */
export interface LiveRoundtable {
  items: TranscriptItem[];
  /** The statement being written, if any. */
  typing: { expertId: string; round: number; replyTo?: string; text: string } | null;
  minutes: Minutes | null;
  phase: RoundtablePhase;
  problem: string | null;
  reconnecting: boolean;
}

/** What changes the state. */
export type LiveRoundtableAction =
  | { type: "event"; event: { type: string; data: unknown } }
  | { type: "replaying" }
  | { type: "resumed" }
  | { type: "reconnecting" }
  | { type: "closed" }
  | { type: "lost" }
  | { type: "ended" };

/**
 * The transcript of a stored roundtable: each interjection after the message it followed.
 *
 * @example
 * ```ts
 * transcriptItems([], [{ id: "h1", text: "Costs?", afterMessageId: null }]).length; // 1
 * ```
 */
export function transcriptItems(
  messages: RoundtableMessageJson[],
  interjections: { id: string; text: string; directTo?: string; afterMessageId: string | null }[],
): TranscriptItem[] {
  const out: TranscriptItem[] = [];
  const host = (after: string | null) =>
    interjections.filter((i) => i.afterMessageId === after).forEach((i) =>
      out.push({
        kind: "host",
        id: i.id,
        text: i.text,
        ...(i.directTo ? { directTo: i.directTo } : {}),
      })
    );
  host(null);
  for (const m of messages) {
    out.push({ kind: "statement", message: m });
    host(m.id);
  }
  return out;
}

/**
 * Apply one action.
 *
 * @example
 * ```ts
 * const s0: LiveRoundtable = { items: [], typing: null, minutes: null, phase: "discussing", problem: null, reconnecting: false };
 * liveRoundtableReducer(s0, { type: "event", event: { type: "speaking", data: { round: 0, expertId: "ada" } } }).typing?.expertId; // "ada"
 * ```
 */
export function liveRoundtableReducer(
  s: LiveRoundtable,
  action: LiveRoundtableAction,
): LiveRoundtable {
  switch (action.type) {
    case "replaying":
      // The replay starts from the first event: what the page showed is rebuilt.
      return { ...s, items: [], typing: null, minutes: null, problem: null };
    case "resumed":
      return { ...s, reconnecting: false };
    case "reconnecting":
      return { ...s, reconnecting: true };
    case "closed":
    case "lost":
      return s.phase === "done" || s.phase === "failed" ? s : {
        ...s,
        reconnecting: false,
        problem: "The live connection was lost. Reload the page to see the latest.",
      };
    case "ended":
      return { ...s, reconnecting: false };
    case "event":
      return applyEvent(s, action.event.type, action.event.data as Record<string, unknown>);
  }
}

function applyEvent(
  s: LiveRoundtable,
  type: string,
  data: Record<string, unknown>,
): LiveRoundtable {
  switch (type) {
    case "speaking":
      return {
        ...s,
        phase: "discussing",
        typing: {
          expertId: String(data.expertId),
          round: Number(data.round),
          ...(typeof data.replyTo === "string" ? { replyTo: data.replyTo } : {}),
          text: "",
        },
      };
    case "chunk":
      return s.typing ? { ...s, typing: { ...s.typing, text: s.typing.text + data.content } } : s;
    case "statement": {
      const message = data.message as RoundtableMessageJson;
      if (s.items.some((i) => i.kind === "statement" && i.message.id === message.id)) return s;
      return { ...s, typing: null, items: [...s.items, { kind: "statement", message }] };
    }
    case "interjection": {
      if (s.items.some((i) => i.kind === "host" && i.id === data.id)) return s;
      return {
        ...s,
        items: [...s.items, {
          kind: "host",
          id: String(data.id),
          text: String(data.text),
          ...(typeof data.directTo === "string" ? { directTo: data.directTo } : {}),
        }],
      };
    }
    case "summarizing":
      return { ...s, typing: null, phase: "summarizing" };
    case "minutes":
      return { ...s, minutes: data as unknown as Minutes };
    case "done":
      return { ...s, typing: null, phase: "done" };
    case "error":
      return { ...s, typing: null, phase: "failed", problem: String(data.message ?? "It failed.") };
    default:
      return s;
  }
}
