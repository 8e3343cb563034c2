/**
 * Debate data: the shape of a debate (rounds, lengths, temperatures), stored records, the
 * events of the stream, and the Synthesis's safe default and salvage (docs/interface.md#debate-stream,
 * "Synthesis", "Events"). The zod schemas of the request and the synthesis live in
 * lib/schemas/debate.ts.
 *
 * @module
 */
import { CONCLUSION_MAX_CHARS } from "../input_limits.ts";
import { type Synthesis, SynthesisSchema } from "../schemas/debate.ts";
import { distinctPoints } from "../text/distinct.ts";

/** 5 rounds, the user's agent first: 10 messages. */
export const ROUNDS = 5;
export const TURNS = ROUNDS * 2;
/** Message length asked of the model; the server clips above the maximum. */
export const MESSAGE_MIN_CHARS = 100;
export const MESSAGE_MAX_CHARS = 200;
/** Sampling temperatures (docs/interface.md#debates). */
export const TURN_TEMPERATURE = 0.8;
export const SYNTHESIS_TEMPERATURE = 0.3;
/** Longest synthesis conclusion and longest topic accepted (browser-safe, shared with islands). */
export { CONCLUSION_MAX_CHARS, TOPIC_MAX_CHARS } from "../input_limits.ts";

/** The side a message belongs to. */
export type Role = "user" | "opponent";

/** One debate message (the `message` event's data). */
export interface DebateMessage {
  role: Role;
  name: string;
  content: string;
  /** Unix ms. */
  timestamp: number;
}

/** The user's side as stored: `{id, name, avatar, bio}`. */
export interface StoredUserProfile {
  id: string;
  name: string;
  avatar: string | null;
  bio: string;
}

/** The opponent as stored: `{id, name, avatar, bio}` plus its title. */
export interface StoredOpponentProfile {
  id: string;
  name: string;
  avatar: string;
  bio: string;
  title: string;
}

/** The synthesis used when the model's analysis cannot be validated even after repair. */
export const DEFAULT_SYNTHESIS: Synthesis = {
  consensus: [],
  disagreements: [],
  winner: "tie",
  winnerReason: "The analysis could not be produced, so no winner was declared.",
  conclusion: "No conclusion could be drawn automatically.",
  recommendations: [],
};

function stringList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === "string" && v.trim().length > 0)
    .slice(0, 10).map((v) => v.trim().slice(0, 400));
}

function clipAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max + 1);
  const space = cut.lastIndexOf(" ");
  return (space > 0 ? cut.slice(0, space) : text.slice(0, max)).replace(/[\s,;:]+$/, "");
}

/**
 * Keep what is usable from an answer that failed validation; default the rest.
 * A winner is kept only when it is one of the allowed values.
 *
 * @example
 * ```ts
 * salvageSynthesis({ winner: "user", conclusion: "x".repeat(300) }).conclusion.length; // ≤ 100
 * ```
 */
export function salvageSynthesis(candidate: unknown): Synthesis {
  if (!candidate || typeof candidate !== "object") return { ...DEFAULT_SYNTHESIS };
  const c = candidate as Record<string, unknown>;
  const winnerOk = c.winner === "user" || c.winner === "opponent" || c.winner === "tie";
  const text = (v: unknown, max: number, fallback: string) =>
    typeof v === "string" && v.trim() ? clipAtWord(v.trim(), max) : fallback;
  const out: Synthesis = {
    consensus: stringList(c.consensus),
    disagreements: stringList(c.disagreements),
    winner: winnerOk ? c.winner as Synthesis["winner"] : "tie",
    winnerReason: winnerOk
      ? text(c.winnerReason, 600, DEFAULT_SYNTHESIS.winnerReason)
      : DEFAULT_SYNTHESIS.winnerReason,
    conclusion: text(c.conclusion, CONCLUSION_MAX_CHARS, DEFAULT_SYNTHESIS.conclusion),
    recommendations: stringList(c.recommendations),
  };
  // Whatever was salvaged must itself be valid; otherwise use the default outright.
  return SynthesisSchema.safeParse(out).success ? out : { ...DEFAULT_SYNTHESIS };
}

/**
 * The judge's report with each list said once: a model sometimes repeats a point
 * (lib/text/distinct.ts).
 *
 * @example
 * ```ts
 * withoutRepeats({ ...DEFAULT_SYNTHESIS, recommendations: ["Walk.", "walk"] }).recommendations;
 * // ["Walk."]
 * ```
 */
export function withoutRepeats(s: Synthesis): Synthesis {
  return {
    ...s,
    consensus: distinctPoints(s.consensus),
    disagreements: distinctPoints(s.disagreements),
    recommendations: distinctPoints(s.recommendations),
  };
}

/**
 * Lifecycle of a stored debate. `failed` records a model or storage failure: a choice
 * docs/interface.md#debates leaves open (it names only `pending`, `in_progress`, `completed`), documented on
 * /docs/api.
 */
export type DebateStatus = "pending" | "in_progress" | "completed" | "failed";

/** The events of the debate stream and their data (docs/interface.md#debate-stream). */
export type DebateEvent =
  | {
    type: "init";
    data: {
      id: string;
      topic: string;
      userProfile: StoredUserProfile & { softMemory?: { traits: string[]; interests: string[] } };
      opponentProfile: StoredOpponentProfile & { personality: string; stance: string };
    };
  }
  | { type: "start"; data: { role: Role; name: string } }
  | { type: "chunk"; data: { role: Role; content: string } }
  | { type: "message"; data: DebateMessage }
  | { type: "synthesizing"; data: Record<string, never> }
  | { type: "synthesis"; data: Synthesis }
  | {
    type: "done";
    data: { id: string; topic: string; messages: DebateMessage[]; synthesis: Synthesis };
  }
  | { type: "error"; data: { message: string } };
