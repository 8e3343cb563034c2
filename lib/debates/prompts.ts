/**
 * The prompts of a debate: one per turn (the speaker's character, the topic, the
 * transcript, and the 100–200 character length) and one for the judge's synthesis
 * (the transcript and a JSON example to fill). They follow the conventions the offline
 * stand-in reads (lib/llm/standin/read_prompt.ts): `Topic:`, "You are <Name>,",
 * `Stance:`, transcript lines `<Name>: <text>`, a length in characters, a JSON example.
 *
 * @module
 */
import type { ChatMessage } from "../llm/types.ts";
import type { Persona } from "./personas.ts";
import {
  CONCLUSION_MAX_CHARS,
  type DebateMessage,
  MESSAGE_MAX_CHARS,
  MESSAGE_MIN_CHARS,
  ROUNDS,
} from "./model.ts";
import { type UserProfileInput } from "../schemas/debate.ts";

/** The two sides as the prompts see them. */
export interface Debaters {
  topic: string;
  user: UserProfileInput;
  opponent: Persona;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function transcript(messages: DebateMessage[]): string {
  return messages.map((m) => `${m.name}: ${oneLine(m.content)}`).join("\n");
}

/**
 * The prompt for the next turn of `role`, given the messages so far.
 *
 * @example
 * ```ts
 * declare const debaters: Debaters;
 * const prompt = turnPrompt(debaters, "user", []);
 * ```
 */
export function turnPrompt(
  d: Debaters,
  role: "user" | "opponent",
  messages: DebateMessage[],
): ChatMessage[] {
  const round = Math.floor(messages.length / 2) + 1;
  const userName = oneLine(d.user.name);
  const traits = d.user.softMemory?.traits ?? [];
  const interests = d.user.softMemory?.interests ?? [];
  const character = role === "user"
    ? [
      `You are ${userName}, an AI agent speaking for the person of that name in a live public debate.`,
      `Personality: ${oneLine(d.user.bio || "Thoughtful, direct and fair-minded.")}`,
      `Stance: Argue from ${userName}'s own outlook and challenge the weak points of ${d.opponent.name}, who ${
        d.opponent.stance.charAt(0).toLowerCase()
      }${d.opponent.stance.slice(1)}`,
      traits.length ? `Traits: ${traits.map(oneLine).join(", ")}` : "",
      interests.length ? `Interests: ${interests.map(oneLine).join(", ")}` : "",
    ]
    : [
      `You are ${d.opponent.name}, ${d.opponent.title.toLowerCase()}, in a live public debate.`,
      `Personality: ${d.opponent.personality}`,
      `Stance: ${d.opponent.stance}`,
    ];
  const other = role === "user" ? `${d.opponent.name} (${d.opponent.title})` : userName;
  const system = [
    ...character.filter(Boolean),
    "Stay in character, argue your side, answer the other debater's latest point and stay civil.",
    "Write plain prose: no name label, no lists, no markdown, no quotation marks around it.",
  ].join("\n");
  const user = [
    `Topic: ${oneLine(d.topic)}`,
    `You are debating ${other}. Round ${round} of ${ROUNDS}.`,
    "",
    messages.length ? `Transcript so far:\n${transcript(messages)}` : "You speak first.",
    "",
    `Write your next message: between ${MESSAGE_MIN_CHARS} and ${MESSAGE_MAX_CHARS} characters, ` +
    "one or two sentences.",
  ].join("\n");
  return [{ role: "system", content: system }, { role: "user", content: user }];
}

/** The JSON example the judge fills (also read by the stand-in model). */
export const SYNTHESIS_EXAMPLE = {
  consensus: ["a point both sides agreed on"],
  disagreements: ["a point they still disagree on"],
  winner: "user|opponent|tie",
  winnerReason: "one or two sentences on why that side argued better",
  conclusion: `at most ${CONCLUSION_MAX_CHARS} characters`,
  recommendations: ["a practical next step for the reader"],
};

/**
 * The judge's prompt: the whole debate and the JSON shape to return.
 *
 * @example
 * ```ts
 * import { jsonAnswer } from "@/lib/llm/json.ts";
 * import type { LlmClient } from "@/lib/llm/types.ts";
 * import { DEFAULT_SYNTHESIS, type DebateMessage } from "@/lib/debates/model.ts";
 * import { SynthesisSchema } from "@/lib/schemas/debate.ts";
 * declare const llm: LlmClient;
 * declare const d: Debaters;
 * declare const messages: DebateMessage[];
 * const { value } = await jsonAnswer(llm, synthesisPrompt(d, messages), SynthesisSchema, {
 *   temperature: 0.3,
 *   fallback: DEFAULT_SYNTHESIS,
 * });
 * ```
 */
export function synthesisPrompt(d: Debaters, messages: DebateMessage[]): ChatMessage[] {
  const system = [
    "You are an impartial debate judge.",
    "Read the debate and answer with a single JSON object, no prose around it.",
  ].join("\n");
  const user = [
    `Topic: ${oneLine(d.topic)}`,
    `The side "user" is ${oneLine(d.user.name)}; the side "opponent" is ${d.opponent.name} ` +
    `(${d.opponent.title}).`,
    "",
    `Transcript:\n${transcript(messages)}`,
    "",
    'List the points of consensus and disagreement, name the winner ("user", "opponent" or ' +
    `"tie") with the reason, a conclusion of at most ${CONCLUSION_MAX_CHARS} characters, and ` +
    "recommendations for the reader.",
    "Return JSON shaped like this example (each value describes what to write):",
    JSON.stringify(SYNTHESIS_EXAMPLE),
  ].join("\n");
  return [{ role: "system", content: system }, { role: "user", content: user }];
}
