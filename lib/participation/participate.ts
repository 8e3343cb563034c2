/**
 * Agent participation (SPEC.md `POST /api/agent/participate`): decide, let the model
 * write, then store the result in ONE atomic op — a new question (`q-agent-…`,
 * `discussionRounds: 1`) with its initial message (`msg-agent-ask-…`, the description as
 * content), or a reply (`msg-agent-reply-…`, with `replyTo`) together with the question's
 * `discussionRounds` increment. Every model call happens before that op, so a failing
 * model leaves nothing written.
 *
 * The author is always the signed-in user's own profile (display name and avatar);
 * a client-supplied `actor` never reaches a stored record.
 *
 * @module
 */
import { jsonAnswer } from "../llm/json.ts";
import { type LlmClient, LlmError } from "../llm/types.ts";
import {
  addMessage,
  buildMessage,
  listThreadTail,
  type MessageRecord,
  type MessageView,
  writeMessage,
} from "../community/messages.ts";
import { getProfile } from "../profile/profiles.ts";
import {
  type Author,
  type QuestionRecord,
  type QuestionView,
} from "../community/questions/model.ts";
import { createQuestion } from "../community/questions/write.ts";
import { getQuestion } from "../community/questions/read.ts";
import { listQuestionsPage } from "../community/questions/feed.ts";
import { decide } from "./decide.ts";
import {
  type LimitKind,
  PostingLimitError,
  type PostingLimits,
  spendPostingBudget,
} from "../limits/posting.ts";
import {
  askPrompt,
  type Persona,
  REPLY_STORE_MAX,
  replyPrompt,
  TRANSCRIPT_MESSAGES,
} from "./prompts.ts";
import {
  AskAnswerSchema,
  type ParticipateInput,
  type ParticipateResponse,
} from "../schemas/participation.ts";
import { tidyReply } from "./text.ts";

/** How many recent questions the decision considers (SPEC.md). */
export const RECENT_QUESTIONS = 50;

/** What participation needs from the app's services. */
export interface ParticipationDeps {
  kv: Deno.Kv;
  llm: LlmClient;
  now: () => number;
  /** Uniform in [0, 1): the `auto` trigger's coin (tests pass a fixed sequence). */
  random: () => number;
  /** The user's posting limits: asking spends `questions`, replying `messages`. */
  limits?: PostingLimits;
}

/** Spend the budget of `kind` before the model writes anything; throw when none is left. */
async function spend(deps: ParticipationDeps, kind: LimitKind, userId: string): Promise<void> {
  const r = await spendPostingBudget(deps.kv, deps.limits, kind, userId, deps.now());
  if (!r.ok) throw new PostingLimitError(r);
}

/**
 * Participation failed in a way the caller answers with SPEC.md's 500 (the model failed,
 * its output was unusable after repair, or the user has no profile). Nothing was written.
 */
export class ParticipationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ParticipationError";
  }
}

/** A message as served, fresh from creation (no votes yet). */
function newMessageView(m: MessageRecord): MessageView {
  const { revision: _r, deletedBy: _d, ...rest } = m;
  return { ...rest, editedAt: null, upvotes: 0, downvotes: 0, likedBy: [], dislikedBy: [] };
}

/** A question as served, fresh from creation with its initial message. */
function newQuestionView(q: QuestionRecord): QuestionView {
  const { revision: _r, ...rest } = q;
  return {
    ...rest,
    editedAt: null,
    upvotes: 0,
    downvotes: 0,
    likedBy: [],
    dislikedBy: [],
    messageCount: 1,
    // The initial message is the one top-level answer.
    answerCount: 1,
    acceptedMessageId: null,
  };
}

/** The message a reply answers: the newest one by someone else, else the newest. */
export function replyTarget(thread: MessageRecord[], userId: string): MessageRecord | null {
  return thread.findLast((m) => m.author.id !== userId) ?? thread.at(-1) ?? null;
}

async function askNew(
  deps: ParticipationDeps,
  author: Author,
  persona: Persona,
  recent: Parameters<typeof askPrompt>[1],
): Promise<{ question: QuestionRecord; message: MessageRecord }> {
  const { value } = await jsonAnswer(
    deps.llm,
    askPrompt(persona, recent),
    AskAnswerSchema.nullable(),
    { temperature: 0.7, fallback: null },
  );
  if (!value) throw new ParticipationError("The model's question could not be read");
  const now = deps.now();
  const standIn = deps.llm.standIn;
  let message: MessageRecord | undefined;
  const question = await createQuestion(deps.kv, {
    title: value.title,
    description: value.description,
    tags: [],
    author,
    createdBy: "agent",
    discussionRounds: 1,
    standIn,
  }, {
    now,
    idPrefix: "q-agent-",
    // Same op as the question: the initial message carries the description.
    extra: (op, q) => {
      message ??= buildMessage({
        questionId: q.id,
        author,
        content: q.description,
        createdBy: "agent",
        authorType: "user",
        standIn,
      }, { now, idPrefix: "msg-agent-ask-" });
      writeMessage(op, message);
    },
  });
  return { question, message: message! };
}

async function replyExisting(
  deps: ParticipationDeps,
  author: Author,
  persona: Persona,
  questionId: string,
): Promise<MessageRecord> {
  const question = await getQuestion(deps.kv, questionId);
  if (!question) throw new ParticipationError("The chosen question is gone");
  const thread = await listThreadTail(deps.kv, question.id, TRANSCRIPT_MESSAGES);
  const target = replyTarget(thread, author.id);
  const text = await deps.llm.chat(replyPrompt(persona, question, thread, target), {
    temperature: 0.7,
  });
  const content = tidyReply(text, REPLY_STORE_MAX, persona.name);
  if (!content) throw new ParticipationError("The model's reply was empty");
  const r = await addMessage(deps.kv, {
    questionId: question.id,
    author,
    content,
    replyTo: target?.id,
    createdBy: "agent",
    authorType: "user",
    standIn: deps.llm.standIn,
  }, {
    now: deps.now(),
    idPrefix: "msg-agent-reply-",
    // Same op as the message, under a check on the question record.
    updateQuestion: (q) => ({ ...q, discussionRounds: q.discussionRounds + 1 }),
  });
  if (!r.ok) throw new ParticipationError(`The reply could not be stored (${r.reason})`);
  return r.message;
}

/**
 * Take part on behalf of `userId`.
 *
 * @example
 * ```ts
 * import type { LlmClient } from "@/lib/llm/types.ts";
 * declare const kv: Deno.Kv;
 * declare const llm: LlmClient;
 * declare const userId: string;
 * const result = await participate({ kv, llm, now: Date.now, random: Math.random }, userId, {
 *   trigger: "manual",
 * });
 * result.action; // "ask_new" | "reply_existing"
 * ```
 * @throws {ParticipationError} when the model fails or its output is unusable (nothing written).
 */
export async function participate(
  deps: ParticipationDeps,
  userId: string,
  input: ParticipateInput,
): Promise<ParticipateResponse> {
  const profile = await getProfile(deps.kv, userId);
  if (!profile) throw new ParticipationError("The user has no profile");
  const author: Author = {
    id: profile.userId,
    name: profile.displayName,
    avatar: profile.avatarUrl,
  };
  const persona: Persona = { name: profile.displayName, bio: profile.bio };
  const [{ questions: recent }, preferred] = await Promise.all([
    listQuestionsPage(deps.kv, { page: 1, limit: RECENT_QUESTIONS, downvotes: false }),
    input.preferredQuestionId ? getQuestion(deps.kv, input.preferredQuestionId) : null,
  ]);

  try {
    const decision = await decide({
      llm: deps.llm,
      persona,
      input,
      recent,
      preferred,
      random: deps.random,
    });
    if (decision.action === "ask_new") {
      await spend(deps, "questions", userId);
      const { question, message } = await askNew(deps, author, persona, recent);
      return {
        action: "ask_new",
        trigger: input.trigger,
        reason: decision.reason,
        question: newQuestionView(question),
        questionMessage: newMessageView(message),
        replyMessage: null,
        replyQuestionId: null,
      };
    }
    await spend(deps, "messages", userId);
    const reply = await replyExisting(deps, author, persona, decision.questionId);
    return {
      action: "reply_existing",
      trigger: input.trigger,
      reason: decision.reason,
      question: null,
      questionMessage: null,
      replyMessage: newMessageView(reply),
      replyQuestionId: decision.questionId,
    };
  } catch (err) {
    if (err instanceof LlmError) {
      throw new ParticipationError(`The model failed: ${err.message}`, { cause: err });
    }
    throw err;
  }
}
