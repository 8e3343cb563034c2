/**
 * Roundtable data: what is stored (the record, each message, the host's interjections),
 * the shape of a run (opening round, then the discussion rounds), and the events of the
 * stream. The zod schemas of the API live in lib/schemas/roundtable.ts.
 *
 * @module
 */
import type { JsonSource } from "../llm/json.ts";
import type { Minutes } from "../schemas/roundtable.ts";

/** Lifecycle of a roundtable. */
export type RoundtableStatus = "in_progress" | "completed" | "failed";

/** An expert at the table, as stored and shown. */
export interface SeatedExpert {
  id: string;
  name: string;
  title: string;
}

/** A roundtable as stored (its messages and interjections live under their own keys). */
export interface RoundtableRecord {
  id: string;
  userId: string;
  topic: string;
  background: string;
  experts: SeatedExpert[];
  /** Discussion rounds after the opening round (round 0). */
  rounds: number;
  status: RoundtableStatus;
  minutes: Minutes | null;
  minutesSource?: JsonSource;
  /** Why a failed roundtable failed (safe to show). */
  error?: string;
  messageCount: number;
  /** Whether the model chose the experts (else the host did). */
  chosenBy: "model" | "host";
  /** Written by the offline stand-in model (local mode): the UI says so. */
  standIn: boolean;
  createdAt: number;
  updatedAt: number;
}

/** One statement of an expert. */
export interface RoundtableMessage {
  /** `m<n>`, n = 1, 2, … in order. */
  id: string;
  expertId: string;
  name: string;
  content: string;
  /** 0: the opening round; 1…rounds: discussion. */
  round: number;
  /** The message (`m<n>`) or host interjection (`h<n>`) it answers. */
  replyTo?: string;
  timestamp: number;
  /** A turn added to answer a directed interjection (outside the round's order). Not shown. */
  extra?: boolean;
}

/** The host's words as stored; `afterMessageId` is set once the run took them up. */
export interface StoredInterjection {
  /** `h<n>`. */
  id: string;
  text: string;
  directTo?: string;
  timestamp: number;
  /** Absent while pending; the last message before it was taken up (null: none yet). */
  afterMessageId?: string | null;
}

/** Most interjections a host may make at one roundtable (each can cost a turn). */
export const MAX_INTERJECTIONS = 10;

/** Statement length asked of the model; the server clips above the maximum. */
export const STATEMENT_MIN_CHARS = 150;
export const STATEMENT_MAX_CHARS = 420;
/** Sampling temperatures. */
export const STATEMENT_TEMPERATURE = 0.8;
export const MINUTES_TEMPERATURE = 0.3;

/** The events of the roundtable stream (lib/schemas/roundtable.ts documents them). */
export type RoundtableEvent =
  | { type: "init"; data: { id: string; topic: string; experts: SeatedExpert[]; rounds: number } }
  | { type: "speaking"; data: { round: number; expertId: string; replyTo?: string } }
  | { type: "chunk"; data: { expertId: string; content: string } }
  | { type: "statement"; data: { round: number; message: RoundtableMessageJson } }
  | { type: "round_end"; data: { round: number } }
  | { type: "interjection"; data: { id: string; text: string; directTo?: string } }
  | { type: "summarizing"; data: Record<string, never> }
  | { type: "minutes"; data: Minutes }
  | { type: "done"; data: { id: string } }
  | { type: "error"; data: { message: string } };

/** A message as the API and the stream show it (no internal fields). */
export type RoundtableMessageJson = Omit<RoundtableMessage, "extra">;

/**
 * A message without its internal fields.
 *
 * @example
 * ```ts
 * messageJson({ id: "m1", expertId: "ada", name: "Ada", content: "…", round: 0, timestamp: 1, extra: true });
 * // { id: "m1", expertId: "ada", name: "Ada", content: "…", round: 0, timestamp: 1 }
 * ```
 */
export function messageJson(m: RoundtableMessage): RoundtableMessageJson {
  const { extra: _extra, ...shown } = m;
  return shown;
}
