/**
 * Messages, the reads: one message, a thread (whole or its tail), and the views that join
 * in vote counts and voter lists.
 *
 * @module
 */
import { VoterPrivacy } from "../vote_privacy.ts";
import { isPublic } from "../visibility.ts";
import { counterValue, getAll } from "../../kv/atomic.ts";
import { isLookupId, keys } from "../../kv/keys.ts";
import type { QuestionView } from "../questions/model.ts";
import { listVoters } from "../voters.ts";
import {
  DELETED_AUTHOR,
  type MessageRecord,
  type MessageView,
  type MessageViewBase,
} from "./model.ts";

/** Options of {@link messageViews}. */
export interface MessageViewOptions {
  /** Read and include `likedBy`/`dislikedBy` (default true; docs/interface.md#question-fields's API shape). */
  voters?: boolean;
  /** Vote counts already read (`[up, down]` by message id): those are not read again. */
  counts?: ReadonlyMap<string, readonly [number, number]>;
  /** Whose voter lists (lib/community/vote_privacy.ts); default: an anonymous reader's. */
  privacy?: VoterPrivacy;
}

/**
 * The stored message, or null — also null for a deleted one (it cannot be voted on or edited).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const m = await getMessage(kv, "msg-1");
 * ```
 */
export async function getMessage(kv: Deno.Kv, id: string): Promise<MessageRecord | null> {
  if (!isLookupId(id)) return null;
  const m = (await kv.get<MessageRecord>(keys.message(id))).value;
  return m && isPublic(m) ? m : null;
}

/**
 * A question's messages in thread order (oldest first): the whole thread, for threads
 * written before the answer index only (lib/community/thread.ts reads pages).
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
  for (const e of await getAll<MessageRecord>(kv, ids.map(keys.message))) {
    if (e.value) out.push(e.value);
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
  // What a prompt reads is public: "[deleted]" placeholders and hidden posts stay out.
  for (const e of await getAll<MessageRecord>(kv, ids.map(keys.message))) {
    if (e.value && isPublic(e.value)) out.push(e.value);
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
  const privacy = opts.privacy ?? new VoterPrivacy(kv, null);
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
      : Promise.all(messages.map((m) => listVoters(kv, "message", m.id, privacy))),
  ]);
  const counts = new Map(known);
  unread.forEach((m, i) =>
    counts.set(m.id, [counterValue(entries[2 * i].value), counterValue(entries[2 * i + 1].value)])
  );
  return messages.map((m, i) => viewOf(m, counts.get(m.id)!, voterLists?.[i]));
}

/** The view of `m` with its `[up, down]` counts and, when read, its voter lists. */
function viewOf(
  m: MessageRecord,
  [up, down]: readonly [number, number],
  voters?: { likedBy: string[]; dislikedBy: string[] },
): MessageViewBase {
  const { editedAt, revision: _r, deletedBy: _d, hiddenAt: _h, ...rest } = m;
  const base: MessageViewBase = {
    ...rest,
    editedAt: editedAt ?? null,
    upvotes: up,
    downvotes: down,
    ...voters,
  };
  if (m.deletedAt === undefined) return base;
  return { ...base, content: "", author: DELETED_AUTHOR, deleted: true as const };
}

/**
 * The view of a message just created, from its record alone: no votes and no voters yet.
 * What a create answers without reading back what it wrote (an idempotent repeat reads it
 * again with {@link getMessageView}, which a vote since may have moved).
 *
 * @example
 * ```ts
 * import type { MessageRecord } from "./model.ts";
 * declare const m: MessageRecord;
 * newMessageView(m).upvotes; // 0
 * ```
 */
export function newMessageView(m: MessageRecord): MessageView {
  return viewOf(m, [0, 0], { likedBy: [], dislikedBy: [] }) as MessageView;
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
