/**
 * The participation decision (docs/interface.md#participation `POST /api/agent/participate`): which action, and
 * when replying, which question. `forceAction` overrides everything; `auto` flips a coin
 * (the random source is injected, so tests are deterministic); `manual` asks the model,
 * with a sensible fallback when its answer cannot be read. A reply goes to the
 * preferred question when it exists, otherwise to a question chosen by heat together
 * with the model's analysis. With no question at all, asking is the only possible action.
 *
 * @module
 */
import { jsonAnswer } from "../llm/json.ts";
import type { LlmClient } from "../llm/types.ts";
import type { QuestionRecord, QuestionSummary } from "../community/questions/model.ts";
import { type Candidate, type Persona, planPrompt } from "./prompts.ts";
import {
  type ParticipateInput,
  type ParticipationActionName,
  pickSchema,
  planSchema,
} from "../schemas/participation.ts";
import { oneLine } from "./text.ts";

/** What to do, and why. */
export type Decision =
  | { action: "ask_new"; reason: string }
  | { action: "reply_existing"; questionId: string; title: string; reason: string };

/** Everything the decision looks at. */
export interface DecisionContext {
  llm: LlmClient;
  persona: Persona;
  input: ParticipateInput;
  /** Up to 50 recent questions, newest first. */
  recent: QuestionSummary[];
  /** The preferred question, when one was named and exists. */
  preferred: QuestionRecord | null;
  /** Uniform in [0, 1): the `auto` trigger's coin. */
  random: () => number;
}

/**
 * Recent questions ordered for a reply: hottest first (up-votes + messages), newer
 * first among equals.
 *
 * @example
 * ```ts
 * declare const recent: Parameters<typeof byHeat>[0];
 * const [hottest] = byHeat(recent);
 * ```
 */
export function byHeat(recent: QuestionSummary[]): Candidate[] {
  return recent
    .map((question) => ({ question, heat: question.upvotes + question.messageCount }))
    .sort((a, b) => b.heat - a.heat || b.question.createdAt - a.question.createdAt);
}

/** The 1-based position of a question among the candidates (0 when absent). */
function positionOf(candidates: Candidate[], id: string | undefined): number {
  return id ? candidates.findIndex((c) => c.question.id === id) + 1 : 0;
}

function replyTo(c: Candidate, reason: string): Decision {
  const title = c.question.title;
  return {
    action: "reply_existing",
    questionId: c.question.id,
    title,
    reason: `${reason} Replying to “${oneLine(title, 80)}” (heat ${c.heat}).`.trim(),
  };
}

function replyToPreferred(q: QuestionRecord, reason: string): Decision {
  return {
    action: "reply_existing",
    questionId: q.id,
    title: q.title,
    reason: `${reason} Replying to the question you chose, “${oneLine(q.title, 80)}”.`.trim(),
  };
}

/** The model picks the question to reply to (the action is already fixed). */
async function pickQuestion(ctx: DecisionContext, candidates: Candidate[], lead: string) {
  if (candidates.length === 1) return replyTo(candidates[0], lead);
  const { value } = await jsonAnswer(
    ctx.llm,
    planPrompt(ctx.persona, candidates, { replyOnly: true }),
    pickSchema(candidates.length),
    {
      temperature: 0.3,
      fallback: { question: 1, reason: "the most active discussion right now." },
    },
  );
  return replyTo(candidates[value.question - 1], `${lead} ${value.reason}`);
}

/**
 * Decide what the agent does.
 *
 * @example
 * ```ts
 * import type { LlmClient } from "@/lib/llm/types.ts";
 * declare const input: DecisionContext["input"];
 * declare const llm: LlmClient;
 * declare const persona: DecisionContext["persona"];
 * declare const recent: DecisionContext["recent"];
 * const d = await decide({ llm, persona, input, recent, preferred: null, random: Math.random });
 * if (d.action === "reply_existing") console.log(d.questionId);
 * ```
 * @throws {LlmError} when the model is needed and cannot be reached.
 */
export async function decide(ctx: DecisionContext): Promise<Decision> {
  const { input, preferred } = ctx;
  const candidates = byHeat(ctx.recent);
  if (candidates.length === 0 && !preferred) {
    // A choice docs/interface.md#participation leaves open (documented on /docs/api): with no question at all,
    // even `forceAction: "reply_existing"` asks a new one, and `reason` says why.
    return {
      action: "ask_new",
      reason: "No questions exist yet, so asking a new one is the only possible action.",
    };
  }

  let action: ParticipationActionName;
  let lead: string;
  if (input.forceAction) {
    action = input.forceAction;
    // Said in words: the reason is shown to people, who never see the field's name.
    lead = action === "ask_new"
      ? "You asked your agent to post a new question."
      : "You asked your agent to reply to an existing question.";
  } else if (input.trigger === "auto") {
    action = ctx.random() < 0.5 ? "ask_new" : "reply_existing";
    lead = `Auto trigger: a coin flip chose to ${
      action === "ask_new" ? "ask a new question" : "reply"
    }.`;
  } else {
    // Manual: the model weighs the recent questions and decides.
    const active = candidates.some((c) => c.heat > 0);
    const { value, source } = await jsonAnswer(
      ctx.llm,
      planPrompt(ctx.persona, candidates, {
        viewing: positionOf(candidates, preferred?.id) || undefined,
      }),
      planSchema(candidates.length),
      {
        temperature: 0.3,
        fallback: {
          action: active || preferred ? "reply_existing" : "ask_new",
          question: 1,
          reason: active || preferred
            ? "There is an active discussion to add to."
            : "None of the recent questions has any activity yet, so a new question may start one.",
        },
      },
    );
    if (source === "fallback") {
      console.warn("Participation: the model's plan could not be read; using the fallback");
    }
    if (value.action === "ask_new") return { action: "ask_new", reason: value.reason };
    if (preferred) return replyToPreferred(preferred, value.reason);
    return replyTo(candidates[(value.question ?? 1) - 1], value.reason);
  }

  if (action === "ask_new") return { action, reason: lead };
  if (preferred) return replyToPreferred(preferred, lead);
  return await pickQuestion(ctx, candidates, lead);
}
