/**
 * Messages, the model: the record and view types, a new message's record
 * ({@link buildMessage}), the rule of what counts toward its author's statistics, the
 * walk up a reply chain to its top-level answer ({@link rootAnswerOf}) and the link that
 * opens a message in its thread ({@link messagePath}). Votes and counts
 * live under their own keys (lib/kv/keys.ts) and are joined in when a message is served
 * (./read.ts); every write goes through ./write.ts.
 *
 * @module
 */
import { keys } from "../../kv/keys.ts";
import type { Author } from "../questions/model.ts";

/** A message as stored (votes live under their own keys). */
export interface MessageRecord {
  id: string;
  questionId: string;
  author: Author;
  /**
   * `user` for messages written by a person or by their agent (docs/interface.md#question-fields); `ai` for the
   * AI expert panel's messages (lib/panel), whose author is an expert, not a user.
   */
  authorType: "user" | "agent" | "ai";
  createdBy: "user" | "agent" | "system";
  /** The expert who wrote an `ai` message (lib/panel/experts.ts). */
  expertId?: string;
  /** Set when the author posted an AI draft mostly unedited (lib/panel/assist.ts). */
  draftedWithAi?: true;
  content: string;
  replyTo?: string;
  createdAt: number;
  /** Set on answers the user's AI avatar wrote on its own (lib/avatar); the UI badges them. */
  via?: "ai-avatar";
  /** Set when the offline stand-in model wrote the content (local mode); the UI labels it. */
  standIn?: true;
  /** Unix ms of the last edit (lib/community/message_lifecycle.ts); absent if never edited. */
  editedAt?: number;
  /** Revisions so far (1 = never edited); absent means 1 (lib/community/revisions.ts). */
  revision?: number;
  /** Soft delete: when, and by whom (lib/community/message_lifecycle.ts). */
  deletedAt?: number;
  /** Hidden by moderation (lib/moderation/): shown only to its author and moderators. */
  hiddenAt?: number;
  deletedBy?: string;
  /**
   * Written by a new account (docs/interface.md#new-accounts): its links carry
   * `rel="ugc nofollow"`. Absent otherwise.
   */
  newAccount?: true;
}

/**
 * The question id an author's activity row (`["messages_by_author", userId, inv, id]`)
 * holds: its value, or — in a store written before compact storage 4, until the
 * compaction migration rewrites it — the `questionId` of the `{id, questionId}` object it
 * held (the id was a copy of the key's last part). Null for anything else.
 *
 * @example
 * ```ts
 * authorRowQuestionId("q-1"); // "q-1"
 * authorRowQuestionId({ id: "msg-1", questionId: "q-1" }); // "q-1" (the older shape)
 * ```
 */
export function authorRowQuestionId(value: unknown): string | null {
  if (typeof value === "string") return value;
  const q = (value as { questionId?: unknown } | null)?.questionId;
  return typeof value === "object" && typeof q === "string" ? q : null;
}

/**
 * A full message (docs/interface.md#question-fields) plus `editedAt` (null if never edited). A deleted
 * message that still has replies is served as a placeholder: `deleted: true`, content
 * `""`, and the author {@link DELETED_AUTHOR} (docs/interface.md#question-fields's author object stays well-formed;
 * no trace of who wrote it).
 */
export interface MessageView extends MessageViewBase {
  likedBy: string[];
  dislikedBy: string[];
}

/**
 * A message view without the voter lists: what the HTML question page shows (it never
 * lists voters, and each list is a `kv.list` per message).
 */
export interface MessageViewBase
  extends Omit<MessageRecord, "editedAt" | "revision" | "deletedBy" | "hiddenAt"> {
  editedAt: number | null;
  deleted?: true;
  upvotes: number;
  downvotes: number;
}

/**
 * The counter a top-level message moves: `answer_counts` for an answer by a person (or
 * their agent or avatar), `ai_answer_counts` for an AI expert's message, which is not an
 * answer (lib/kv/keys.ts).
 *
 * @example
 * ```ts
 * topLevelCounter({ questionId: "q-1", authorType: "ai" }); // ["ai_answer_counts", "q-1"]
 * ```
 */
export function topLevelCounter(m: Pick<MessageRecord, "questionId" | "authorType">): Deno.KvKey {
  return m.authorType === "ai" ? keys.aiAnswerCount(m.questionId) : keys.answerCount(m.questionId);
}

/**
 * The hidden-message counters a message moves while it is hidden (+1 on hide, −1 on
 * restore or when it leaves its thread hidden): `hidden_message_counts`, and the hidden
 * part of the counter its kind is served from — people's answers, the AI panel's top-level
 * messages or its replies (people's replies have no served counter of their own: they are
 * `messageCount` minus the rest). Readers subtract each from its counter, so a hidden
 * post is counted nowhere but where it is shown (to its author and moderators).
 *
 * @example
 * ```ts
 * hiddenCountersOf({ questionId: "q-1", authorType: "user" });
 * // [["hidden_message_counts", "q-1"], ["hidden_answer_counts", "q-1"]]
 * ```
 */
export function hiddenCountersOf(
  m: Pick<MessageRecord, "questionId" | "authorType" | "replyTo">,
): Deno.KvKey[] {
  const out = [keys.hiddenMessageCount(m.questionId)];
  const ai = m.authorType === "ai";
  if (!m.replyTo) {
    out.push(ai ? keys.hiddenAiAnswerCount(m.questionId) : keys.hiddenAnswerCount(m.questionId));
  } else if (ai) out.push(keys.hiddenAiReplyCount(m.questionId));
  return out;
}

/** The author shown on a deleted message's placeholder. */
export const DELETED_AUTHOR: Author = { id: "", name: "[deleted]", avatar: null };

let lastMs = 0;
let sameMs = 0;

/**
 * An id suffix that sorts in creation order within one process, even for messages created
 * in the same millisecond (the thread index orders by time, then id): fixed-width time,
 * a per-millisecond counter, then randomness.
 *
 * @example
 * ```ts
 * orderedSuffix(Date.now()); // "lq2x3k1a00007f3k"
 * ```
 */
export function orderedSuffix(now: number): string {
  sameMs = now === lastMs ? sameMs + 1 : 0;
  lastMs = now;
  const rand = crypto.getRandomValues(new Uint8Array(4));
  let r = "";
  for (const b of rand) r += (b % 36).toString(36);
  return now.toString(36).padStart(9, "0") + sameMs.toString(36).padStart(4, "0") + r;
}

/** Fields of a new message. */
export interface NewMessage {
  questionId: string;
  author: Author;
  content: string;
  replyTo?: string;
  createdBy: "user" | "agent" | "system";
  authorType?: "user" | "agent" | "ai";
  expertId?: string;
  draftedWithAi?: boolean;
  via?: "ai-avatar";
  /** True when the offline stand-in model wrote the content. */
  standIn?: boolean;
  /** True when a new account writes it (its links carry `rel="ugc nofollow"`). */
  newAccount?: boolean;
}

/** Options of {@link buildMessage} (and of ./write.ts `addMessage`). */
export interface MessageOptions {
  now?: number;
  /** `msg-` by default; `msg-agent-reply-` for agent replies, `msg-agent-ask-` … */
  idPrefix?: string;
}

/**
 * The record of a new message (not yet written).
 *
 * @example
 * ```ts
 * import type { Author } from "@/lib/community/questions/model.ts";
 * declare const author: Author;
 * declare const questionId: string;
 * const m = buildMessage({ questionId, author, content: "Hi", createdBy: "user" });
 * ```
 */
export function buildMessage(input: NewMessage, opts: MessageOptions = {}): MessageRecord {
  const now = opts.now ?? Date.now();
  const m: MessageRecord = {
    id: `${opts.idPrefix ?? "msg-"}${orderedSuffix(now)}`,
    questionId: input.questionId,
    author: input.author,
    authorType: input.authorType ?? "user",
    createdBy: input.createdBy,
    content: input.content.trim(),
    createdAt: now,
  };
  if (input.replyTo) m.replyTo = input.replyTo;
  if (input.via) m.via = input.via;
  if (input.standIn) m.standIn = true;
  if (input.expertId) m.expertId = input.expertId;
  if (input.draftedWithAi) m.draftedWithAi = true;
  if (input.newAccount) m.newAccount = true;
  return m;
}

/**
 * True when the message counts toward its author's statistics and activity list. An AI
 * expert is nobody's account (docs/interface.md#question-fields): its messages count toward nobody's. One rule
 * for the write and the delete, so a delete undoes exactly what the write counted.
 *
 * @example
 * ```ts
 * declare const m: MessageRecord;
 * if (countsTowardStats(m)) console.log(`an answer of ${m.author.id}`);
 * ```
 */
export function countsTowardStats(m: Pick<MessageRecord, "authorType">): boolean {
  return m.authorType !== "ai";
}

/**
 * The path that opens a message where it is: the question's thread at the page holding its
 * top-level answer `answerId` (`?answer=`, as a thread may run to several pages), scrolled
 * to the message. A top-level answer is its own `answerId`; a reply's is
 * {@link rootAnswerOf} it.
 *
 * @example
 * ```ts
 * messagePath("q-1", "msg-1"); // "/questions/q-1?answer=msg-1#msg-1"
 * messagePath("q-1", "msg-1", "msg-r4"); // "/questions/q-1?answer=msg-1#msg-r4"
 * ```
 */
export function messagePath(questionId: string, answerId: string, messageId = answerId): string {
  return `/questions/${encodeURIComponent(questionId)}?answer=${encodeURIComponent(answerId)}#${
    encodeURIComponent(messageId)
  }`;
}

/** Longest reply chain walked to find a reply's top-level answer. */
const MAX_CHAIN = 64;

/**
 * The top-level answer at the top of `m`'s reply chain (`m` itself when it is one). The
 * chain is walked in the store, or within `messages` (one thread read whole): it stops at a
 * parent that is not there.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const reply: MessageRecord;
 * const answerId = await rootAnswerOf(kv, reply);
 * declare const thread: ReadonlyMap<string, MessageRecord>;
 * const withinThread = await rootAnswerOf(thread, reply);
 * ```
 */
export async function rootAnswerOf(
  messages: Deno.Kv | ReadonlyMap<string, MessageRecord>,
  m: MessageRecord,
): Promise<string> {
  const parentOf = "atomic" in messages
    ? async (id: string) => (await messages.get<MessageRecord>(keys.message(id))).value
    : (id: string) => messages.get(id);
  let cur = m;
  for (let i = 0; i < MAX_CHAIN && cur.replyTo; i++) {
    const up = await parentOf(cur.replyTo);
    if (!up) break;
    cur = up;
  }
  return cur.id;
}
