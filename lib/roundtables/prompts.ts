/**
 * The prompts of a roundtable: choosing the panel, one statement per turn, and the
 * minutes. They follow the conventions the offline stand-in reads
 * (lib/llm/standin/read_prompt.ts, lib/llm/standin/roundtable.ts): a `Topic:` line,
 * "You are <Name>, <Title>. Your voice: …", "Reply to <Name>, who wrote: "…"", a
 * transcript of `<Name>: <text>` lines, a length in characters, a JSON example.
 *
 * @module
 */
import type { ChatMessage } from "../llm/types.ts";
import { type Expert, EXPERTS } from "../panel/experts.ts";
import { ROUNDTABLE_MAX_EXPERTS, ROUNDTABLE_MIN_EXPERTS } from "../input_limits.ts";
import {
  type RoundtableMessage,
  type SeatedExpert,
  STATEMENT_MAX_CHARS,
  STATEMENT_MIN_CHARS,
  type StoredInterjection,
} from "./model.ts";

/** What every prompt says it is part of (the stand-in recognises roundtable prompts by it). */
export const ROUNDTABLE_MARK = "Parley AI roundtable";

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function topicLines(topic: string, background: string): string {
  return `Topic: ${oneLine(topic)}` + (background ? `\nBackground: ${oneLine(background)}` : "");
}

/** The discussion so far, host interjections in their place, one line each. */
export function transcript(
  messages: RoundtableMessage[],
  interjections: StoredInterjection[],
): string {
  const lines: string[] = [];
  const hostAfter = (after: string | null) =>
    interjections.filter((i) => i.afterMessageId === after)
      .forEach((i) => lines.push(`Host: ${oneLine(i.text)}`));
  hostAfter(null);
  for (const m of messages) {
    lines.push(`${m.name}: ${oneLine(m.content)}`);
    hostAfter(m.id);
  }
  return lines.join("\n");
}

/**
 * The prompt that chooses 3–5 experts of the catalogue for a topic.
 *
 * @example
 * ```ts
 * const prompt = selectionPrompt("Should cities ban cars downtown?", "");
 * ```
 */
export function selectionPrompt(topic: string, background: string): ChatMessage[] {
  const roster = EXPERTS.map((e) => `- ${e.id}: ${e.name}, ${e.title} (${e.expertise.join(", ")})`)
    .join("\n");
  return [
    {
      role: "system",
      content: `You seat the experts of a ${ROUNDTABLE_MARK}: a moderated discussion between ` +
        `AI experts, clearly labelled as AI. Choose the panel: ${ROUNDTABLE_MIN_EXPERTS} to ` +
        `${ROUNDTABLE_MAX_EXPERTS} experts whose fields bear on the topic, with different ` +
        `angles so they can disagree usefully.\nExperts:\n${roster}\n` +
        `Answer with JSON only, like {"expertIds": ["id", "id", "id"]}.`,
    },
    { role: "user", content: topicLines(topic, background) },
  ];
}

/** What one turn answers: a colleague's message, the host, or nothing (an opening). */
export type TurnCue =
  | { kind: "opening" }
  | { kind: "reply"; to: RoundtableMessage }
  | { kind: "host"; to: StoredInterjection };

/**
 * The prompt of one expert's statement.
 *
 * @example
 * ```ts
 * import { EXPERTS } from "@/lib/panel/experts.ts";
 * const prompt = statementPrompt(EXPERTS[0], { topic: "Tabs or spaces?", background: "", experts: [] }, [], [], { kind: "opening" }, 0, 3);
 * ```
 */
export function statementPrompt(
  expert: Expert,
  table: { topic: string; background: string; experts: SeatedExpert[] },
  messages: RoundtableMessage[],
  interjections: StoredInterjection[],
  cue: TurnCue,
  round: number,
  rounds: number,
): ChatMessage[] {
  const others = table.experts.filter((e) => e.id !== expert.id)
    .map((e) => `${e.name} (${e.title})`).join(", ");
  const task = cue.kind === "opening"
    ? "This is the opening round: state your position on the topic from your field."
    : cue.kind === "reply"
    ? `Reply to ${cue.to.name}, who wrote: "${oneLine(cue.to.content)}". Take up their ` +
      "specific point: agree or disagree with reasons, and add something new."
    : `Reply to the host, who wrote: "${oneLine(cue.to.text)}". Answer the host directly ` +
      "from your field, then connect it to the discussion.";
  const so_far = transcript(messages, interjections);
  return [
    {
      role: "system",
      content: `You are ${expert.name}, ${expert.title}. Your voice: ${expert.voice}. ` +
        `You sit at a ${ROUNDTABLE_MARK} with ${others}; everything you write is labelled as ` +
        "AI-written. Be concrete and honest about uncertainty; no greetings, no sign-off, " +
        "no name label, no lists, never claim to be human.",
    },
    {
      role: "user",
      content: [
        topicLines(table.topic, table.background),
        round === 0 ? "Opening round." : `Discussion round ${round} of ${rounds}.`,
        "",
        so_far ? `Transcript so far:\n${so_far}` : "Nobody has spoken yet.",
        "",
        `${task} Write ${STATEMENT_MIN_CHARS} to ${STATEMENT_MAX_CHARS} characters.`,
      ].join("\n"),
    },
  ];
}

/**
 * The JSON example the minutes fill; `ids` are the panel's expert ids.
 *
 * @example
 * ```ts
 * minutesExample(["ada", "omar", "mei"]).stances.length; // 3
 * ```
 */
export function minutesExample(ids: string[]) {
  return {
    consensus: ["a point the experts agreed on"],
    disagreements: ["a point they still disagree on, naming who holds which side"],
    stances: ids.map((id) => ({
      expertId: id,
      position: "that expert's position in one or two sentences",
      keyPoints: ["a key point that expert made"],
    })),
    conclusion: "at most 400 characters: what the discussion established",
    openQuestions: ["a question the discussion left open?"],
  };
}

/**
 * The prompt of the minutes: the panel, the whole discussion and the JSON to fill.
 *
 * @example
 * ```ts
 * const prompt = minutesPrompt({ topic: "Tabs or spaces?", background: "", experts: [] }, [], []);
 * ```
 */
export function minutesPrompt(
  table: { topic: string; background: string; experts: SeatedExpert[] },
  messages: RoundtableMessage[],
  interjections: StoredInterjection[],
): ChatMessage[] {
  const panel = table.experts.map((e) => `- ${e.id}: ${e.name}, ${e.title}`).join("\n");
  return [
    {
      role: "system",
      content: `You write the minutes of a ${ROUNDTABLE_MARK}, impartially. Write the minutes ` +
        "as a single JSON object, no prose around it.",
    },
    {
      role: "user",
      content: [
        topicLines(table.topic, table.background),
        `Panel:\n${panel}`,
        "",
        `Transcript:\n${transcript(messages, interjections)}`,
        "",
        "List the points of consensus and of disagreement, one stance per panelist (by " +
        "expertId, each exactly once) with their position and key points, a conclusion, and " +
        "the questions left open. Return JSON shaped like this example (each value describes " +
        "what to write):",
        JSON.stringify(minutesExample(table.experts.map((e) => e.id))),
      ].join("\n"),
    },
  ];
}
