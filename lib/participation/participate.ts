/**
 * Agent participation (docs/interface.md#participation `POST /api/agent/participate`): decide, let the model
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
import { RestrictedError } from "../moderation/sanctions.ts";
import { admitPost } from "../limits/admission.ts";
import { jsonAnswer } from "../llm/json.ts";
import { type LlmClient, LlmError } from "../llm/types.ts";
import { buildMessage, type MessageRecord, type MessageView } from "../community/messages/model.ts";
import { listThreadTail } from "../community/messages/read.ts";
import { addMessage, writeFirstMessage } from "../community/messages/write.ts";
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
import { type LimitKind, PostingLimitError, type PostingLimits } from "../limits/posting.ts";
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

/** How many recent questions the decision considers (docs/interface.md#participation). */
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

/** What posting a draft needs: no model. */
export type PostDeps = Pick<ParticipationDeps, "kv" | "now" | "limits">;

/**
 * Spend the budgets of `kind` (a new account's daily one too) before anything is written;
 * throw when one is spent, or when a moderator silenced or suspended the person. Answers
 * whether the account is new (its links carry `rel="ugc nofollow"`).
 */
async function spend(deps: PostDeps, kind: LimitKind, userId: string): Promise<boolean> {
  const r = await admitPost(deps.kv, deps.limits, kind, userId, deps.now());
  if (r.ok) return r.newAccount;
  if (r.reason === "restricted") throw new RestrictedError(r.sanction);
  throw new PostingLimitError(r);
}

/**
 * Participation failed in a way the caller answers with docs/interface.md#participation's 500 (the model failed,
 * its output was unusable after repair, or the user has no profile). Nothing was written.
 */
export class ParticipationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ParticipationError";
  }
}

/**
 * A draft can no longer be posted as shown: the question, or the message it replies to, was
 * deleted or hidden by a moderator since the preview. Nothing was written; a new preview
 * reads the thread as it is now (hidden and deleted posts left out), so it never targets
 * the same message again.
 */
export class DraftOutdatedError extends ParticipationError {
  constructor(readonly gone: "question" | "message") {
    super(`The draft's ${gone} was removed since the preview`);
    this.name = "DraftOutdatedError";
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

async function writeAsk(
  deps: PostDeps,
  author: Author,
  value: { title: string; description: string },
  standIn: boolean | undefined,
  newAccount: boolean,
): Promise<{ question: QuestionRecord; message: MessageRecord }> {
  const now = deps.now();
  let message: MessageRecord | undefined;
  const question = await createQuestion(deps.kv, {
    title: value.title,
    description: value.description,
    tags: [],
    author,
    createdBy: "agent",
    discussionRounds: 1,
    standIn,
    newAccount,
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
        newAccount,
      }, { now, idPrefix: "msg-agent-ask-" });
      writeFirstMessage(op, message);
    },
  });
  return { question, message: message! };
}

async function writeReply(
  deps: PostDeps,
  author: Author,
  draft: { questionId: string; content: string; replyTo: string | null },
  standIn: boolean | undefined,
  newAccount: boolean,
): Promise<MessageRecord> {
  const r = await addMessage(deps.kv, {
    questionId: draft.questionId,
    author,
    content: draft.content,
    replyTo: draft.replyTo ?? undefined,
    createdBy: "agent",
    authorType: "user",
    standIn,
    newAccount,
  }, {
    now: deps.now(),
    idPrefix: "msg-agent-reply-",
    // Same op as the message, under a check on the question record.
    updateQuestion: (q) => ({ ...q, discussionRounds: q.discussionRounds + 1 }),
  });
  if (!r.ok && r.reason === "reply_not_found") throw new DraftOutdatedError("message");
  if (!r.ok && r.reason === "question_not_found") throw new DraftOutdatedError("question");
  if (!r.ok) throw new ParticipationError(`The reply could not be stored (${r.reason})`);
  return r.message;
}

/**
 * What the agent is about to post, written by the model but not stored: the preview step
 * of "Ask my agent to take part" shows it with Post / Discard. `standIn` records whether
 * the offline stand-in wrote it, so the posted record carries the same label.
 */
export type ParticipationDraft =
  & { trigger: ParticipateInput["trigger"]; reason: string; standIn: boolean }
  & (
    | { action: "ask_new"; title: string; description: string }
    | {
      action: "reply_existing";
      questionId: string;
      questionTitle: string;
      content: string;
      replyTo: string | null;
    }
  );

async function authorOf(
  kv: Deno.Kv,
  userId: string,
): Promise<{ author: Author; persona: Persona }> {
  const profile = await getProfile(kv, userId);
  if (!profile) throw new ParticipationError("The user has no profile");
  return {
    author: { id: profile.userId, name: profile.displayName, avatar: profile.avatarUrl },
    persona: { name: profile.displayName, bio: profile.bio },
  };
}

/**
 * Decide and let the model write, without storing anything: the draft a person reviews
 * before it is posted ({@linkcode postDraft}).
 *
 * @example
 * ```ts
 * import type { LlmClient } from "@/lib/llm/types.ts";
 * declare const kv: Deno.Kv;
 * declare const llm: LlmClient;
 * declare const userId: string;
 * const deps = { kv, llm, now: Date.now, random: Math.random };
 * const draft = await draftParticipation(deps, userId, { trigger: "manual" });
 * if (draft.action === "reply_existing") console.log(draft.content);
 * ```
 * @throws {ParticipationError} when the model fails or its output is unusable.
 */
export async function draftParticipation(
  deps: ParticipationDeps,
  userId: string,
  input: ParticipateInput,
): Promise<ParticipationDraft> {
  const { author, persona } = await authorOf(deps.kv, userId);
  const standIn = deps.llm.standIn === true;
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
    const base = { trigger: input.trigger, reason: decision.reason, standIn };
    if (decision.action === "ask_new") {
      const { value } = await jsonAnswer(
        deps.llm,
        askPrompt(persona, recent),
        AskAnswerSchema.nullable(),
        { temperature: 0.7, fallback: null },
      );
      if (!value) throw new ParticipationError("The model's question could not be read");
      return { ...base, action: "ask_new", title: value.title, description: value.description };
    }
    const question = await getQuestion(deps.kv, decision.questionId);
    if (!question) throw new ParticipationError("The chosen question is gone");
    const thread = await listThreadTail(deps.kv, question.id, TRANSCRIPT_MESSAGES);
    const target = replyTarget(thread, author.id);
    const text = await deps.llm.chat(replyPrompt(persona, question, thread, target), {
      temperature: 0.7,
    });
    const content = tidyReply(text, REPLY_STORE_MAX, persona.name);
    if (!content) throw new ParticipationError("The model's reply was empty");
    return {
      ...base,
      action: "reply_existing",
      questionId: question.id,
      questionTitle: question.title,
      content,
      replyTo: target?.id ?? null,
    };
  } catch (err) {
    if (err instanceof LlmError) {
      throw new ParticipationError(`The model failed: ${err.message}`, { cause: err });
    }
    throw err;
  }
}

/**
 * Store a draft exactly as it was shown, in ONE atomic op (see the module doc), under
 * the user's current profile; the answer is docs/interface.md#participation's participate response.
 *
 * @example
 * ```ts
 * declare const deps: PostDeps;
 * declare const draft: ParticipationDraft;
 * const result = await postDraft(deps, "u_1", draft);
 * result.action; // "ask_new" | "reply_existing"
 * ```
 * @throws {ParticipationError} when the user has no profile; {@linkcode DraftOutdatedError}
 * when the question or the message replied to was removed since the draft was written.
 */
export async function postDraft(
  deps: PostDeps,
  userId: string,
  draft: ParticipationDraft,
): Promise<ParticipateResponse> {
  const { author } = await authorOf(deps.kv, userId);
  const newAccount = await spend(
    deps,
    draft.action === "ask_new" ? "questions" : "messages",
    userId,
  );
  if (draft.action === "ask_new") {
    const { question, message } = await writeAsk(deps, author, draft, draft.standIn, newAccount);
    return {
      action: "ask_new",
      trigger: draft.trigger,
      reason: draft.reason,
      question: newQuestionView(question),
      questionMessage: newMessageView(message),
      replyMessage: null,
      replyQuestionId: null,
    };
  }
  const reply = await writeReply(deps, author, draft, draft.standIn, newAccount);
  return {
    action: "reply_existing",
    trigger: draft.trigger,
    reason: draft.reason,
    question: null,
    questionMessage: null,
    replyMessage: newMessageView(reply),
    replyQuestionId: draft.questionId,
  };
}

/**
 * Take part on behalf of `userId` at once: {@linkcode draftParticipation} then
 * {@linkcode postDraft} (docs/interface.md#participation's one-step endpoint).
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
  return await postDraft(deps, userId, await draftParticipation(deps, userId, input));
}
