/**
 * Messages: answers and replies in a question's thread. A message is written with its
 * thread index, its author's activity index, the question's message count and the
 * author's `answers` statistic, in one atomic op.
 *
 * @module
 */
import { afterCommit } from "../kv/after_commit.ts";
import { addToCounter, counterValue, getAll, invertTime, updateAtomically } from "../kv/atomic.ts";
import { budgetOf, type PostingLimits, type RateLimited, spendInOp } from "../limits/posting.ts";
import type { HitLog } from "../limits/window.ts";
import { recordEarnedBadges } from "../profile/stats.ts";
import { invalidateReads } from "./read_cache.ts";
import { isLookupId, keys } from "../kv/keys.ts";
import { type Author, type QuestionRecord, type QuestionView } from "./questions/model.ts";
import { getQuestionView } from "./questions/read.ts";
import { listVoters } from "./votes.ts";
import { type AfterMessage, afterMessage, messageInOp } from "../notifications/hooks.ts";
import { authorOf } from "../profile/profiles.ts";
import { indexNewAnswer } from "./answer_order.ts";

/** A message as stored (votes live under their own keys). */
export interface MessageRecord {
  id: string;
  questionId: string;
  author: Author;
  /**
   * `user` for messages written by a person or by their agent (SPEC.md); `ai` for the
   * AI expert panel's messages (lib/panel), whose author is an expert, not a user.
   */
  authorType: "user" | "agent" | "ai";
  createdBy: "user" | "agent" | "system";
  /** The expert who wrote an `ai` message (lib/panel/experts.ts). */
  expertId?: string;
  /** Set when the author posted an AI draft mostly unedited (lib/panel/helpers.ts). */
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
}

/**
 * A full message (SPEC.md "Message") plus `editedAt` (null if never edited). A deleted
 * message that still has replies is served as a placeholder: `deleted: true`, content
 * `""`, and the author {@link DELETED_AUTHOR} (SPEC.md's author object stays well-formed;
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

/** Options of {@link messageViews}. */
export interface MessageViewOptions {
  /** Read and include `likedBy`/`dislikedBy` (default true; SPEC.md's API shape). */
  voters?: boolean;
  /** Vote counts already read (`[up, down]` by message id): those are not read again. */
  counts?: ReadonlyMap<string, readonly [number, number]>;
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
}

/** Options of {@link buildMessage} / {@link addMessage}. */
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
  return m;
}

/**
 * Add a message and its index rows and counters to `op` (used by {@link addMessage}, and by
 * question creation that carries an initial message). A top-level answer joins the
 * question's answer index; a reply joins its top-level answer's reply index (`rootId`, the
 * answer at the top of its reply chain; {@link addMessage} finds it).
 */
export function writeMessage(
  op: Deno.AtomicOperation,
  m: MessageRecord,
  rootId?: string,
): Deno.AtomicOperation {
  if (m.replyTo) {
    const root = rootId ?? m.replyTo;
    op.set(keys.answerReply(root, m.createdAt, m.id), m.id);
    addToCounter(op, keys.replyCount(root), 1);
    addToCounter(op, keys.directReplyCount(m.replyTo), 1);
  } else {
    op.set(keys.questionAnswer(m.questionId, m.createdAt, m.id), m.id);
    addToCounter(op, keys.answerCount(m.questionId), 1);
    indexNewAnswer(op, m); // its `sort=votes` row (./answer_order.ts)
  }
  op.set(keys.message(m.id), m)
    .set(keys.questionMessage(m.questionId, m.createdAt, m.id), m.id);
  addToCounter(op, keys.messageCount(m.questionId), 1);
  // An AI expert is nobody's account: its messages join no activity list and no statistic.
  if (m.authorType === "ai") return op;
  op.set(keys.messageByAuthor(m.author.id, invertTime(m.createdAt), m.id), {
    id: m.id,
    questionId: m.questionId,
  });
  addToCounter(op, keys.userStat(m.author.id, "answers"), 1);
  return op;
}

/** Why a message could not be added. */
export type AddMessageResult =
  | { ok: true; message: MessageRecord }
  | { ok: false; reason: "question_not_found" | "reply_not_found" }
  | RateLimited;

/** Options of {@link addMessage} and {@link postMessage}. */
export interface AddMessageOptions extends MessageOptions {
  /** Rewrite the question record in the same op, under a check (e.g. discussion rounds). */
  updateQuestion?: (q: QuestionRecord) => QuestionRecord;
  /** The author's posting limits (`config.limits`); absent = unlimited. */
  limits?: PostingLimits;
  /** Extra mutations committed in the same atomic op (e.g. an idempotency record). */
  extra?: (op: Deno.AtomicOperation, message: MessageRecord) => void;
}

/**
 * Add a message to a question. `replyTo` must name a message of the same question.
 * With `updateQuestion`, the question record is rewritten in the same op under a check
 * (e.g. to count discussion rounds); without it, nothing on the question is checked, so
 * answers on a busy question never conflict.
 *
 * @example
 * ```ts
 * import type { Author } from "@/lib/community/questions/model.ts";
 * declare const author: Author;
 * declare const kv: Deno.Kv;
 * declare const questionId: string;
 * const r = await addMessage(kv, { questionId, author, content: "…", createdBy: "user" });
 * if (r.ok) console.log(r.message.id);
 * ```
 */
export async function addMessage(
  kv: Deno.Kv,
  input: NewMessage,
  opts: AddMessageOptions = {},
): Promise<AddMessageResult> {
  if (!isLookupId(input.questionId)) {
    return { ok: false, reason: "question_not_found" };
  }
  const message = buildMessage(input, opts);
  // The author's `messages` budget is spent in the message's own atomic op.
  const budget = budgetOf(opts.limits, "messages", input.author.id);
  let after: AfterMessage | null = null;
  const result = await updateAtomically<AddMessageResult>(async () => {
    const [q, parent, log] = await kv.getMany<[QuestionRecord, MessageRecord, HitLog]>([
      keys.question(input.questionId),
      keys.message(input.replyTo && input.replyTo.length <= 200 ? input.replyTo : "\u0000none"),
      budget?.key ?? keys.rateLimitLog("none", "none"),
    ]);
    if (!q.value || q.value.deletedAt !== undefined || q.value.hiddenAt !== undefined) {
      return { op: null, result: { ok: false, reason: "question_not_found" } };
    }
    if (
      input.replyTo &&
      (parent.value?.questionId !== input.questionId || parent.value.deletedAt !== undefined ||
        parent.value.hiddenAt !== undefined)
    ) {
      return { op: null, result: { ok: false, reason: "reply_not_found" } };
    }
    const rootId = parent.value ? await rootAnswerOf(kv, parent.value) : undefined;
    const op = kv.atomic();
    const refused = budget && spendInOp(op, log, budget, message.createdAt);
    if (refused) return { op: null, result: refused };
    if (opts.updateQuestion) {
      op.check(q).set(keys.question(q.value.id), opts.updateQuestion(q.value));
    }
    writeMessage(op, message, rootId);
    opts.extra?.(op, message);
    after = await messageInOp(kv, op, message, q.value, parent.value, rootId);
    return { op, result: { ok: true, message } };
  });
  if (result.ok) {
    // After the commit: nothing here may fail the request (the message exists).
    await afterCommit("message caches and badges", async () => {
      invalidateReads(kv); // message counts in the feed
      await recordEarnedBadges(kv, message.author.id, message.createdAt); // Prolific
    });
    // Followers hear of a new answer (bounded batches; cannot fail the request).
    if (after) {
      await afterCommit("answer notifications", () => afterMessage(kv, after!, message.createdAt));
    }
  }
  return result;
}

/** Longest reply chain walked to find a reply's top-level answer. */
const MAX_CHAIN = 64;

/** The top-level answer at the top of `m`'s reply chain (`m` itself when it is one). */
export async function rootAnswerOf(kv: Deno.Kv, m: MessageRecord): Promise<string> {
  let cur = m;
  for (let i = 0; i < MAX_CHAIN && cur.replyTo; i++) {
    const up = (await kv.get<MessageRecord>(keys.message(cur.replyTo))).value;
    if (!up) break;
    cur = up;
  }
  return cur.id;
}

/** A message as a user (or their agent) posts it: the author is looked up from `userId`. */
export type PostedMessage = Omit<NewMessage, "author"> & { userId: string };

/** A posted message, or why not: the expected failures of {@link addMessage}, or no author. */
export type PostMessageResult = AddMessageResult | { ok: false; reason: "no_author" };

/**
 * Post a message as a user or their agent: the author snapshot is taken from the user's
 * profile (`no_author` when there is none), then the message is added as by
 * {@link addMessage}.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await postMessage(kv, {
 *   userId: "u1",
 *   questionId: "q-abc",
 *   content: "Use KV.",
 *   createdBy: "user",
 * });
 * if (!r.ok) console.log(r.reason); // "no_author" | "question_not_found" | "reply_not_found"
 * ```
 */
export async function postMessage(
  kv: Deno.Kv,
  { userId, ...input }: PostedMessage,
  opts: AddMessageOptions = {},
): Promise<PostMessageResult> {
  const author = await authorOf(kv, userId);
  if (!author) return { ok: false, reason: "no_author" };
  return await addMessage(kv, { ...input, author }, opts);
}

/** The stored message, or null — also null for a deleted one (it cannot be voted on or edited). */
export async function getMessage(kv: Deno.Kv, id: string): Promise<MessageRecord | null> {
  if (!isLookupId(id)) return null;
  const m = (await kv.get<MessageRecord>(keys.message(id))).value;
  return m && m.deletedAt === undefined && m.hiddenAt === undefined ? m : null;
}

/**
 * A question's messages in thread order (oldest first).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const questionId: string;
 * const messages = await listThread(kv, questionId);
 * ```
 */
export async function listThread(kv: Deno.Kv, questionId: string): Promise<MessageRecord[]> {
  if (!isLookupId(questionId)) return [];
  const ids: string[] = [];
  for await (const e of kv.list<string>({ prefix: keys.questionMessagesPrefix(questionId) })) {
    ids.push(e.value);
  }
  const out: MessageRecord[] = [];
  for (let i = 0; i < ids.length; i += 10) {
    const got = await kv.getMany<MessageRecord[]>(ids.slice(i, i + 10).map(keys.message));
    for (const e of got) if (e.value) out.push(e.value);
  }
  return out;
}

/**
 * The newest `n` messages of a thread, oldest first — what a prompt about the ongoing
 * discussion needs, without reading a long thread whole.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const questionId: string;
 * const recent = await listThreadTail(kv, questionId, 8);
 * ```
 */
export async function listThreadTail(
  kv: Deno.Kv,
  questionId: string,
  n: number,
): Promise<MessageRecord[]> {
  const ids: string[] = [];
  const iter = kv.list<string>({ prefix: keys.questionMessagesPrefix(questionId) }, {
    reverse: true,
    limit: n,
  });
  for await (const e of iter) ids.push(e.value);
  ids.reverse();
  const out: MessageRecord[] = [];
  for (let i = 0; i < ids.length; i += 10) {
    const got = await kv.getMany<MessageRecord[]>(ids.slice(i, i + 10).map(keys.message));
    // "[deleted]" placeholders carry nothing a prompt could use.
    for (const e of got) if (e.value && e.value.deletedAt === undefined) out.push(e.value);
  }
  return out;
}

/**
 * Messages with their vote counts and voter lists. With `{ voters: false }` the voter
 * lists are not read (no `kv.list` per message) and the views have no `likedBy` /
 * `dislikedBy`; counts given in `counts` are not read again. Counters are read in `getMany`
 * batches of 10 (not one call per message), beside the voter lists.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const questionId: string;
 * const views = await messageViews(kv, await listThread(kv, questionId));
 * const lean = await messageViews(kv, await listThread(kv, questionId), { voters: false });
 * ```
 */
export function messageViews(kv: Deno.Kv, messages: MessageRecord[]): Promise<MessageView[]>;
export function messageViews(
  kv: Deno.Kv,
  messages: MessageRecord[],
  opts: MessageViewOptions & { voters: false },
): Promise<MessageViewBase[]>;
export function messageViews(
  kv: Deno.Kv,
  messages: MessageRecord[],
  opts?: MessageViewOptions,
): Promise<MessageView[]>;
export async function messageViews(
  kv: Deno.Kv,
  messages: MessageRecord[],
  opts: MessageViewOptions = {},
): Promise<MessageViewBase[]> {
  const known = opts.counts;
  const unread = known ? messages.filter((m) => !known.has(m.id)) : messages;
  const [entries, voterLists] = await Promise.all([
    getAll(
      kv,
      unread.flatMap((m) => [
        keys.voteCount("message", m.id, "up"),
        keys.voteCount("message", m.id, "down"),
      ]),
    ),
    opts.voters === false
      ? null
      : Promise.all(messages.map((m) => listVoters(kv, "message", m.id))),
  ]);
  const counts = new Map(known);
  unread.forEach((m, i) =>
    counts.set(m.id, [counterValue(entries[2 * i].value), counterValue(entries[2 * i + 1].value)])
  );
  return messages.map((m, i) => {
    const [up, down] = counts.get(m.id)!;
    const { editedAt, revision: _r, deletedBy: _d, hiddenAt: _h, ...rest } = m;
    const base: MessageViewBase = {
      ...rest,
      editedAt: editedAt ?? null,
      upvotes: up,
      downvotes: down,
      ...voterLists?.[i],
    };
    if (m.deletedAt === undefined) return base;
    return { ...base, content: "", author: DELETED_AUTHOR, deleted: true as const };
  });
}

/**
 * One message's view (votes and voters included), or null — what a create answers, the
 * same whether the create just ran or an idempotent repeat rebuilds it from the id.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const view = await getMessageView(kv, "msg-1");
 * ```
 */
export async function getMessageView(kv: Deno.Kv, id: string): Promise<MessageView | null> {
  const m = await getMessage(kv, id);
  return m ? (await messageViews(kv, [m]))[0] : null;
}

/** A question with its thread, as `GET /api/questions/:id` serves it. */
export type QuestionWithMessages = QuestionView & { messages: MessageView[] };

/**
 * The full question with every message of its thread (votes and voters included).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const q = await getQuestionWithMessages(kv, "q-abc");
 * ```
 */
export async function getQuestionWithMessages(
  kv: Deno.Kv,
  questionId: string,
): Promise<QuestionWithMessages | null> {
  const [view, thread] = await Promise.all([
    getQuestionView(kv, questionId),
    listThread(kv, questionId),
  ]);
  if (!view) return null;
  return { ...view, messages: await messageViews(kv, thread) };
}
