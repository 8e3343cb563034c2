/**
 * One answer by a user's AI avatar: the prompt (the user's bio as personality, the
 * question and its discussion), and the write — through `addMessage`, like every message,
 * with an "answered" marker for (user, question) checked absent and the user's hourly
 * answer log checked unchanged in the message's own atomic op. Two instances that generate
 * an answer to the same question at the same time cannot both store it, and the hourly
 * cap holds across instances. The answer reaches the open question page and the
 * question's followers as any answer does; the owner, who never saw the question, does
 * not start following it.
 *
 * @module
 */
import { isPublic } from "../community/visibility.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import { keys } from "../kv/keys.ts";
import type { ChatMessage, LlmClient } from "../llm/types.ts";
import type { MessageRecord } from "../community/messages/model.ts";
import { listThreadTail } from "../community/messages/read.ts";
import { addMessage } from "../community/messages/write.ts";
import { discussionLines, TRANSCRIPT_MESSAGES } from "../participation/prompts.ts";
import { oneLine, tidyReply } from "../participation/text.ts";
import type { Author, QuestionSnapshot } from "../community/questions/model.ts";
import { type PostingLimits, spendPostingBudget } from "../limits/posting.ts";

/** docs/interface.md#ai-avatar: answers per hour per user, at most. */
export const AVATAR_HOURLY_CAP = 10;
/** docs/interface.md#ai-avatar: only questions older than this are answered. */
export const AVATAR_MIN_AGE_MS = 60_000;
export const HOUR_MS = 3_600_000;

/** Length asked of the model, and the most that is stored. */
export const AVATAR_ANSWER_MIN_CHARS = 200;
export const AVATAR_ANSWER_MAX_CHARS = 600;
export const AVATAR_STORE_MAX = 1500;

/** The marker that a user's avatar answered a question. */
export interface AvatarAnswered {
  messageId: string;
  answeredAt: number;
}

/** The times of a user's newest avatar answers (at most {@link AVATAR_HOURLY_CAP}). */
export interface AvatarAnswerLog {
  times: number[];
}

/** Answer times still inside the hour before `now`. */
export function withinHour(log: AvatarAnswerLog | null, now: number): number[] {
  return (log?.times ?? []).filter((t) => now - t < HOUR_MS && t <= now);
}

/** Whom the avatar speaks for. */
export interface AvatarOwner {
  author: Author;
  bio: string;
}

/**
 * The avatar's prompt: the user's bio is its personality.
 *
 * @example
 * ```ts
 * declare const owner: Parameters<typeof avatarPrompt>[0];
 * declare const question: Parameters<typeof avatarPrompt>[1];
 * declare const recentMessages: Parameters<typeof avatarPrompt>[2];
 * const prompt = avatarPrompt(owner, question, recentMessages);
 * ```
 */
export function avatarPrompt(
  owner: AvatarOwner,
  q: Parameters<typeof discussionLines>[0],
  thread: MessageRecord[],
): ChatMessage[] {
  const name = oneLine(owner.author.name, 60);
  return [
    {
      role: "system",
      content: [
        `You are ${name}, answering on Parley as ${name}'s AI avatar: you write what ${name} would write, in their voice.`,
        `Personality (${name}'s own bio): ${
          oneLine(owner.bio || "Friendly, practical and to the point.", 300)
        }`,
        "Be helpful and specific, add something the answers so far do not, and stay civil.",
        "Write the answer only: no name label, no greeting. Markdown is allowed.",
      ].join("\n"),
    },
    {
      role: "user",
      content: [
        ...discussionLines(q, thread),
        `Write ${name}'s answer to the question, between ${AVATAR_ANSWER_MIN_CHARS} and ${AVATAR_ANSWER_MAX_CHARS} characters.`,
      ].join("\n"),
    },
  ];
}

/** The outcome of one attempt. */
export type AvatarAnswerResult =
  | { ok: true; message: MessageRecord }
  | {
    ok: false;
    reason:
      | "already_answered"
      | "hourly_cap"
      | "lost_race"
      | "empty"
      | "rate_limited"
      | "restricted"
      | "question_gone";
  };

/** Options of {@link answerAsAvatar}. */
export interface AvatarAnswerDeps {
  kv: Deno.Kv;
  llm: LlmClient;
  /** Cancels the model call (the job is stopping). */
  signal?: AbortSignal;
  /** The owner's posting limits: an avatar answer spends from their `messages` budget. */
  limits?: PostingLimits;
  /** The avatar job's fence (lib/jobs/runner.ts): the answer lands only while it holds. */
  fence?: (op: Deno.AtomicOperation) => Deno.AtomicOperation;
}

/**
 * Let `owner`'s avatar answer question `q` at `now`: read the marker and the hourly
 * log, ask the model, then store the answer with both checks in one op.
 *
 * @example
 * ```ts
 * import type { LlmClient } from "@/lib/llm/types.ts";
 * declare const kv: Deno.Kv;
 * declare const llm: LlmClient;
 * declare const owner: Parameters<typeof answerAsAvatar>[1];
 * declare const question: Parameters<typeof answerAsAvatar>[2];
 * const r = await answerAsAvatar({ kv, llm }, owner, question, Date.now());
 * if (r.ok) console.log(r.message.id);
 * ```
 * @throws {LlmError} when the model fails (nothing is written).
 */
export async function answerAsAvatar(
  deps: AvatarAnswerDeps,
  owner: AvatarOwner,
  q: QuestionSnapshot,
  now: number,
): Promise<AvatarAnswerResult> {
  const { kv, llm } = deps;
  const userId = owner.author.id;
  const markerKey = keys.avatarAnswered(userId, q.id);
  const logKey = keys.avatarAnswerLog(userId);
  const [marker, log, current] = await kv.getMany<
    [AvatarAnswered, AvatarAnswerLog, QuestionRecord]
  >([markerKey, logKey, keys.question(q.id)]);
  if (marker.value) return { ok: false, reason: "already_answered" };
  // The tick's snapshot may predate a hide or delete: the prompt sees only a public question.
  if (!current.value || !isPublic(current.value)) return { ok: false, reason: "question_gone" };
  const recent = withinHour(log.value, now);
  if (recent.length >= AVATAR_HOURLY_CAP) return { ok: false, reason: "hourly_cap" };
  // The owner's own posting limit covers their avatar too: over it, the avatar skips.
  const budget = await spendPostingBudget(kv, deps.limits, "messages", userId, now);
  if (!budget.ok) return { ok: false, reason: "rate_limited" };

  const thread = await listThreadTail(kv, q.id, TRANSCRIPT_MESSAGES);
  const text = await llm.chat(avatarPrompt(owner, q, thread), {
    temperature: 0.7,
    signal: deps.signal,
  });
  const content = tidyReply(text, AVATAR_STORE_MAX, owner.author.name);
  if (!content) return { ok: false, reason: "empty" };

  const r = await addMessage(kv, {
    questionId: q.id,
    author: owner.author,
    content,
    createdBy: "agent",
    authorType: "user",
    via: "ai-avatar",
    standIn: llm.standIn,
  }, {
    now,
    idPrefix: "msg-agent-reply-",
    authorFollows: false,
    within: (op, message) => {
      deps.fence?.(op);
      op.check({ key: markerKey, versionstamp: null })
        .check(log)
        .set(markerKey, { messageId: message.id, answeredAt: now } satisfies AvatarAnswered)
        .set(logKey, { times: [...recent, now].slice(-AVATAR_HOURLY_CAP) });
    },
  });
  if (r.ok) return { ok: true, message: r.message };
  // Another instance answered this question, or another of this user's questions, first.
  if (r.reason === "check_failed") return { ok: false, reason: "lost_race" };
  // Deleted or hidden since the tick listed it (a reply it is not; no limits are passed).
  if (r.reason === "restricted") return { ok: false, reason: "restricted" };
  return { ok: false, reason: r.reason === "rate_limited" ? "rate_limited" : "question_gone" };
}
