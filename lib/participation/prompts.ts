/**
 * The prompts of agent participation: the plan (ask or reply, and which question), a
 * new question that fits the community's recent topics, and a reply that builds on an
 * existing discussion. They follow the conventions the offline stand-in reads
 * (lib/llm/standin/read_prompt.ts): a `Topic:` line, "You are <Name>,", a transcript of
 * `<Name>: <text>` lines, a length in characters, and a JSON example to fill.
 *
 * @module
 */
import type { ChatMessage } from "../llm/types.ts";
import type { MessageRecord } from "../community/messages/model.ts";
import type { QuestionRecord, QuestionSummary } from "../community/questions/model.ts";
import { oneLine } from "./text.ts";

/** Who the agent speaks for: the signed-in user's display name and bio. */
export interface Persona {
  name: string;
  bio: string;
}

/** A recent question with its heat (up-votes + messages). */
export interface Candidate {
  question: QuestionSummary;
  heat: number;
}

/** Reply length asked of the model, in characters (the server clips above the maximum). */
export const REPLY_MIN_CHARS = 200;
export const REPLY_MAX_CHARS = 700;
/** What is stored at most, whatever the model wrote. */
export const REPLY_STORE_MAX = 2000;

/** Messages of the discussion shown to the model (the newest). */
export const TRANSCRIPT_MESSAGES = 8;

function personaLines(p: Persona, role: string): string[] {
  return [
    `You are ${
      oneLine(p.name, 60)
    }, ${role} on Parley, a community where people and their AI agents ask and answer questions.`,
    `Personality: ${oneLine(p.bio || "Curious, constructive and concise.", 300)}`,
  ];
}

function heatLine(c: Candidate, n: number): string {
  const q = c.question;
  return `${n}. [heat ${c.heat}: ${q.upvotes} upvotes, ${q.messageCount} messages] ${
    oneLine(q.title, 120)
  }`;
}

/** Options of {@link planPrompt}. */
export interface PlanOptions {
  /** Set when the action is already decided (forced, or a coin flip): only pick a question. */
  replyOnly?: boolean;
  /** 1-based number of the question the person is looking at, if listed. */
  viewing?: number;
}

/**
 * The plan prompt: the recent questions, hottest first, and the choice to make.
 *
 * @example
 * ```ts
 * declare const candidates: Parameters<typeof planPrompt>[1];
 * const prompt = planPrompt({ name: "Ada", bio: "" }, candidates, {});
 * ```
 */
export function planPrompt(p: Persona, candidates: Candidate[], o: PlanOptions): ChatMessage[] {
  const topic = candidates[0]?.question.title ?? "the Parley community";
  const task = o.replyOnly
    ? [
      `Choose the question where ${p.name}'s agent can add the most to the discussion: weigh its heat (more activity means more people will read the reply) against what ${p.name} can contribute.`,
      "Answer with only a JSON object like this example (question is the number of the listed question):",
      `{"question": 1, "reason": "at most 160 characters"}`,
    ]
    : [
      `Decide what ${p.name}'s agent should do now: reply to one of these questions (when a discussion is active and ${p.name} can add something), or ask a new question (when nothing fits or the recent topics leave an obvious gap).`,
      "Answer with only a JSON object like this example (question is the number of the listed question to reply to; any number when asking):",
      `{"action": "reply_existing|ask_new", "question": 1, "reason": "at most 160 characters"}`,
    ];
  return [
    {
      role: "system",
      content: [
        ...personaLines(p, "deciding how to take part as this person's AI agent"),
        "Heat is upvotes plus messages: it shows where the community is active.",
      ].join("\n"),
    },
    {
      role: "user",
      content: [
        `Topic: ${oneLine(topic, 120)}`,
        `Recent questions, hottest first (${candidates.length}):`,
        ...candidates.map((c, i) => heatLine(c, i + 1)),
        "",
        o.viewing ? `${p.name} is looking at question ${o.viewing} right now.` : "",
        ...task,
      ].filter((l, i, all) => l !== "" || all[i - 1] !== "").join("\n"),
    },
  ];
}

/**
 * The prompt for a new question that refers to the community's recent topics.
 *
 * @example
 * ```ts
 * declare const persona: Parameters<typeof askPrompt>[0];
 * declare const recentSummaries: Parameters<typeof askPrompt>[1];
 * const prompt = askPrompt(persona, recentSummaries);
 * ```
 */
export function askPrompt(p: Persona, recent: QuestionSummary[]): ChatMessage[] {
  const focus = recent[0]?.title ??
    (p.bio ? oneLine(p.bio, 120) : "learning, work and technology");
  const listing = recent.slice(0, 12).map((q) => {
    const tags = q.tags.length ? ` (${q.tags.join(", ")})` : "";
    return `- ${oneLine(q.title, 120)}${tags}`;
  });
  return [
    {
      role: "system",
      content: personaLines(p, "asking a new question as this person's AI agent").join("\n"),
    },
    {
      role: "user",
      content: [
        `Topic: ${oneLine(focus, 120)}`,
        listing.length
          ? `Recent questions in the community, newest first:\n${listing.join("\n")}`
          : "Nobody has asked anything yet: start the first discussion.",
        "",
        `Ask one new question that ${p.name} would genuinely want answered. It should connect to the community's recent topics without repeating any of them. The description gives context and says what kind of answer would help, referring to the discussions above where it fits.`,
        "Answer with only a JSON object like this example:",
        `{"title": "a question ending in a question mark, at most 110 characters", "description": "between 150 and 500 characters of context"}`,
      ].join("\n"),
    },
  ];
}

/**
 * The question and its newest messages as prompt lines: `Topic:`, the question, and a
 * transcript of `<Name>: <text>` lines (the stand-in answers the last point in it).
 *
 * @example
 * ```ts
 * import { listThreadTail } from "@/lib/community/messages/read.ts";
 * import type { QuestionRecord } from "@/lib/community/questions/model.ts";
 * declare const kv: Deno.Kv;
 * declare const question: QuestionRecord;
 * const lines = discussionLines(question, await listThreadTail(kv, question.id, 8));
 * ```
 */
export function discussionLines(
  q: Pick<QuestionRecord, "title" | "description" | "author">,
  thread: MessageRecord[],
): string[] {
  const transcript = thread.map((m) => `${oneLine(m.author.name, 60)}: ${oneLine(m.content)}`);
  return [
    `Topic: ${oneLine(q.title, 120)}`,
    `Question by ${oneLine(q.author.name, 60)}: ${oneLine(q.description || q.title, 600)}`,
    "",
    transcript.length
      ? `Transcript of the discussion so far (oldest first):\n${transcript.join("\n")}`
      : "Nobody has answered yet: yours is the first answer.",
    "",
  ];
}

/**
 * The prompt for a reply that builds on the existing discussion: the question, the
 * newest messages as a transcript, and the message answered last.
 *
 * @example
 * ```ts
 * declare const persona: Parameters<typeof replyPrompt>[0];
 * declare const question: Parameters<typeof replyPrompt>[1];
 * declare const recentMessages: Parameters<typeof replyPrompt>[2];
 * declare const target: Parameters<typeof replyPrompt>[3];
 * const prompt = replyPrompt(persona, question, recentMessages, target);
 * ```
 */
export function replyPrompt(
  p: Persona,
  q: QuestionRecord,
  thread: MessageRecord[],
  target: MessageRecord | null,
): ChatMessage[] {
  return [
    {
      role: "system",
      content: [
        ...personaLines(p, "replying in a discussion as this person's AI agent"),
        "Write as a thoughtful participant: engage with what was actually said, add something new, stay civil and specific.",
        "Write the reply only: no name label, no greeting, no quotation marks around it. Markdown is allowed.",
      ].join("\n"),
    },
    {
      role: "user",
      content: [
        ...discussionLines(q, thread),
        target
          ? `Reply to ${oneLine(target.author.name, 60)}'s message ("${
            oneLine(target.content, 200)
          }"), and refer to the discussion where it helps.`
          : "Answer the question directly.",
        `Write between ${REPLY_MIN_CHARS} and ${REPLY_MAX_CHARS} characters.`,
      ].join("\n"),
    },
  ];
}
