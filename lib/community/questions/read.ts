/**
 * Questions, the reads: one question (record or full view), records by id, and the counts
 * joined into feed summaries.
 *
 * @module
 */
import { VoterPrivacy } from "../vote_privacy.ts";
import { counterValue, getAll } from "../../kv/atomic.ts";
import { isLookupId, keys } from "../../kv/keys.ts";
import { listVoters } from "../voters.ts";
import { isPublic, maySee, type Viewer } from "../visibility.ts";
import type { QuestionRecord, QuestionSnapshot, QuestionSummary, QuestionView } from "./model.ts";

export type { Viewer };

/**
 * The stored question, or null — also null for a soft-deleted one (docs/interface.md#content-lifecycle: it
 * answers 404), unless `viewer` is its author or a moderator.
 */
export async function getQuestion(
  kv: Deno.Kv,
  id: string,
  viewer?: Viewer | null,
): Promise<QuestionRecord | null> {
  if (!isLookupId(id)) return null;
  const q = (await kv.get<QuestionRecord>(keys.question(id))).value;
  return q && maySee(q, viewer) ? q : null;
}

/** How many questions exist (a counter, not a scan). */
export async function countQuestions(kv: Deno.Kv): Promise<number> {
  return counterValue((await kv.get(keys.counter("questions"))).value);
}

/** Records for ids, in the same order, skipping ids without a record and deleted ones. */
export async function getQuestions(kv: Deno.Kv, ids: string[]): Promise<QuestionRecord[]> {
  const entries = await getAll<QuestionRecord>(kv, ids.map(keys.question));
  return entries.flatMap((e) => e.value && isPublic(e.value) ? [e.value] : []);
}

/** The counter and accepted-answer keys of {@link summarize}, per question, in order. */
function summaryKeys(ids: string[], downvotes: boolean): Deno.KvKey[] {
  return ids.flatMap((id) => {
    const k = [
      keys.voteCount("question", id, "up"),
      keys.messageCount(id),
      keys.answerCount(id),
      keys.acceptedAnswer(id),
      keys.hiddenMessageCount(id),
    ];
    if (downvotes) k.push(keys.voteCount("question", id, "down"));
    return k;
  });
}

/** How many counter keys {@link summaryKeys} reads per question. */
function keysPerSummary(downvotes: boolean): number {
  // The agent list shows no down-votes: skipping them saves a read.
  return downvotes ? 6 : 5;
}

/**
 * The hidden answers of each of `ids` whose {@link summaryKeys} `entries` are: read only
 * for questions with a hidden message (`hidden_message_counts` is never below
 * `hidden_answer_counts`), so a page without one costs nothing more.
 */
async function hiddenAnswersOf(
  kv: Deno.Kv,
  ids: string[],
  entries: Deno.KvEntryMaybe<unknown>[],
  downvotes: boolean,
): Promise<Map<string, number>> {
  const per = keysPerSummary(downvotes);
  const some = ids.filter((_, i) => counterValue(entries[i * per + 4].value) > 0);
  const out = new Map<string, number>();
  if (some.length === 0) return out;
  const got = await getAll(kv, some.map(keys.hiddenAnswerCount));
  some.forEach((id, i) => out.set(id, counterValue(got[i].value)));
  return out;
}

/** The summary of `q`, the `i`-th question whose {@link summaryKeys} `entries` are. */
function summaryOf(
  q: QuestionSnapshot,
  entries: Deno.KvEntryMaybe<unknown>[],
  i: number,
  downvotes: boolean,
  hiddenAnswers: Map<string, number>,
): QuestionSummary {
  const per = keysPerSummary(downvotes);
  const value = (k: number) => counterValue(entries[i * per + k].value as Deno.KvU64 | null);
  return {
    id: q.id,
    title: q.title,
    description: q.description,
    tags: q.tags,
    upvotes: value(0),
    downvotes: downvotes ? value(5) : 0,
    messageCount: shownMessageCount(value(1), value(4)),
    answerCount: shownMessageCount(value(2), hiddenAnswers.get(q.id) ?? 0),
    acceptedMessageId: (entries[i * per + 3].value as string | null) ?? null,
    editedAt: q.editedAt ?? null,
    createdAt: q.createdAt,
    author: q.author,
    createdBy: q.createdBy,
    ...(q.newAccount ? { newAccount: true as const } : {}),
  };
}

/**
 * Up/down vote counts and message counts for questions, as feed summaries.
 *
 * @example
 * ```ts
 * import type { QuestionRecord } from "@/lib/community/questions/model.ts";
 * declare const kv: Deno.Kv;
 * declare const record: QuestionRecord;
 * const [s] = await summarize(kv, [record]);
 * s.upvotes; s.messageCount;
 * ```
 */
export async function summarize(
  kv: Deno.Kv,
  records: QuestionSnapshot[],
  { downvotes = true }: { downvotes?: boolean } = {},
): Promise<QuestionSummary[]> {
  const ids = records.map((q) => q.id);
  const entries = await getAll(kv, summaryKeys(ids, downvotes));
  const hidden = await hiddenAnswersOf(kv, ids, entries, downvotes);
  return records.map((q, i) => summaryOf(q, entries, i, downvotes, hidden));
}

/**
 * The feed summaries of the questions `ids` names, in order, leaving out those without a
 * record and the deleted or hidden ones: the records and their counters are read side by
 * side (one round trip of `getMany`s, not two), so a page of ids from a feed index costs
 * what a page of copied records did.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const summaries = await summarizeIds(kv, ["q-1", "q-2"]);
 * ```
 */
export async function summarizeIds(
  kv: Deno.Kv,
  ids: string[],
  { downvotes = true }: { downvotes?: boolean } = {},
): Promise<QuestionSummary[]> {
  const [records, entries] = await Promise.all([
    getAll<QuestionRecord>(kv, ids.map(keys.question)),
    getAll(kv, summaryKeys(ids, downvotes)),
  ]);
  const hidden = await hiddenAnswersOf(kv, ids, entries, downvotes);
  return records.flatMap((r, i) =>
    r.value && isPublic(r.value) ? [summaryOf(r.value, entries, i, downvotes, hidden)] : []
  );
}

/**
 * The full question: record, counts and voter lists, with `editedAt`, `answerCount` and
 * `acceptedMessageId`. Null for an unknown id, and for a deleted question unless `viewer`
 * is its author or a moderator (who see it with `deletedAt`).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const view = await getQuestionView(kv, "q-abc");
 * ```
 */
export async function getQuestionView(
  kv: Deno.Kv,
  id: string,
  viewer?: Viewer | null,
): Promise<QuestionView | null> {
  const q = await getQuestion(kv, id, viewer);
  if (!q) return null;
  return await questionViewOf(kv, q, { privacy: new VoterPrivacy(kv, viewer?.userId ?? null) });
}

/** A question view without the voter lists (what the HTML question page shows). */
export type QuestionViewBase = Omit<QuestionView, "likedBy" | "dislikedBy">;

/** Options of {@link questionViewOf}. */
export interface QuestionViewOptions {
  /** Read and include `likedBy`/`dislikedBy` (default true; docs/interface.md#content-lifecycle's API shape). */
  voters?: boolean;
  /** Whose voter lists (lib/community/vote_privacy.ts); default: an anonymous reader's. */
  privacy?: VoterPrivacy;
}

/**
 * The view of a record (counts, voters and lifecycle fields joined in): one `getMany` of
 * the counters beside one `kv.list` of the voter keys — none with `{ voters: false }`,
 * whose view has no `likedBy` / `dislikedBy`.
 *
 * @example
 * ```ts
 * import type { QuestionRecord } from "@/lib/community/questions/model.ts";
 * declare const kv: Deno.Kv;
 * declare const q: QuestionRecord;
 * const full = await questionViewOf(kv, q); // full.likedBy
 * const lean = await questionViewOf(kv, q, { voters: false });
 * ```
 */
export function questionViewOf(kv: Deno.Kv, q: QuestionRecord): Promise<QuestionView>;
export function questionViewOf(
  kv: Deno.Kv,
  q: QuestionRecord,
  opts: { voters: false },
): Promise<QuestionViewBase>;
export function questionViewOf(
  kv: Deno.Kv,
  q: QuestionRecord,
  opts?: QuestionViewOptions,
): Promise<QuestionView>;
export async function questionViewOf(
  kv: Deno.Kv,
  q: QuestionRecord,
  opts: QuestionViewOptions = {},
): Promise<QuestionViewBase> {
  const [[summary], voters] = await Promise.all([
    summarize(kv, [q]),
    opts.voters === false
      ? null
      : listVoters(kv, "question", q.id, opts.privacy ?? new VoterPrivacy(kv, null)),
  ]);
  return { ...questionViewFrom(q, summary), ...voters };
}

/**
 * The `messageCount` everyone is served: the thread's messages minus those hidden by
 * moderation (docs/interface.md#moderation: a hidden post exists for others nowhere, its
 * count included). Author and moderators see the same number. The same subtraction serves
 * `answerCount` and the AI panel's counts from their hidden parts.
 *
 * @example
 * ```ts
 * shownMessageCount(5, 1); // 4
 * ```
 */
export function shownMessageCount(all: number, hidden: number): number {
  // A hidden counter below 0 (a post hidden before it had one, restored since) hides nothing.
  return Math.max(0, all - Math.max(0, hidden));
}

/** The keys {@link readQuestionBase} reads in its one `getMany`, in order. */
function baseKeys(id: string): Deno.KvKey[] {
  return [
    keys.question(id),
    keys.voteCount("question", id, "up"),
    keys.voteCount("question", id, "down"),
    keys.messageCount(id),
    keys.answerCount(id),
    keys.acceptedAnswer(id),
    keys.answersByScoreBuilt(id),
    keys.hiddenMessageCount(id),
    keys.aiAnswerCount(id),
    keys.aiReplyCount(id),
  ];
}

/** A record and its counts as a view (no voter lists). */
function questionViewFrom(
  q: QuestionRecord,
  s: Pick<
    QuestionSummary,
    "upvotes" | "downvotes" | "messageCount" | "answerCount" | "acceptedMessageId"
  >,
): QuestionViewBase {
  const { revision: _revision, deletedBy: _deletedBy, hiddenAt: _hidden, ...record } = q;
  return {
    ...record,
    editedAt: q.editedAt ?? null,
    upvotes: s.upvotes,
    downvotes: s.downvotes,
    messageCount: s.messageCount,
    answerCount: s.answerCount,
    acceptedMessageId: s.acceptedMessageId,
  };
}

/**
 * The view of a question just created, from its record alone: no votes, no voters, no
 * messages yet. What a create answers without reading back what it wrote (an idempotent
 * repeat reads it again with {@link getQuestionView}, which a vote or an answer since may
 * have moved).
 *
 * @example
 * ```ts
 * import type { QuestionRecord } from "./model.ts";
 * declare const q: QuestionRecord;
 * newQuestionView(q).messageCount; // 0
 * ```
 */
export function newQuestionView(q: QuestionRecord): QuestionView {
  const counts = { upvotes: 0, downvotes: 0, messageCount: 0, answerCount: 0 };
  return {
    ...questionViewFrom(q, { ...counts, acceptedMessageId: null }),
    likedBy: [],
    dislikedBy: [],
  };
}

/** What {@link readQuestionBase} read: the record, its view, and the answer index state. */
export interface QuestionBase {
  record: QuestionRecord;
  view: QuestionViewBase;
  /** Every message of the thread, hidden ones included (`view.messageCount` leaves them out). */
  storedMessages: number;
  /**
   * Top-level messages of the thread, hidden ones included (they are paged for their
   * authors and moderators): people's answers and the AI expert panel's top-level messages,
   * which are not answers but are paged with them.
   */
  topLevel: number;
  /** Top-level messages of the AI expert panel, hidden ones left out (as `answerCount`). */
  aiAnswers: number;
  /**
   * Replies by the AI expert panel's experts (neither answers nor people's replies), hidden
   * ones left out.
   */
  aiReplies: number;
  /** The question has an answer counter (threads written before it are read whole). */
  answersIndexed: boolean;
  /** Its `sort=votes` rows are complete (lib/community/answer_order.ts). */
  answerOrderBuilt: boolean;
}

/**
 * A question's record, counters and answer-order marker in one `getMany` (10 keys; a thread
 * with a hidden message reads the hidden parts of its counters in a second one), whoever
 * may see it: the caller decides visibility (lib/community/visibility.ts `maySee`).
 * Null for an unknown id.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const base = await readQuestionBase(kv, "q-abc");
 * base?.view.answerCount;
 * ```
 */
export async function readQuestionBase(kv: Deno.Kv, id: string): Promise<QuestionBase | null> {
  if (!isLookupId(id)) return null;
  const [q, up, down, messages, answers, accepted, built, hidden, ai, aiReplies] = await kv.getMany(
    baseKeys(id),
  );
  const record = q.value as QuestionRecord | null;
  if (!record) return null;
  // The hidden parts of the answer and AI counters: only a thread with a hidden message
  // has any (`hidden_message_counts` is never below them), and only it reads them.
  const split = counterValue(hidden.value) > 0
    ? await kv.getMany([
      keys.hiddenAnswerCount(id),
      keys.hiddenAiAnswerCount(id),
      keys.hiddenAiReplyCount(id),
    ])
    : [];
  const hiddenOf = (i: number) => counterValue(split[i]?.value);
  return {
    record,
    view: questionViewFrom(record, {
      upvotes: counterValue(up.value),
      downvotes: counterValue(down.value),
      messageCount: shownMessageCount(counterValue(messages.value), counterValue(hidden.value)),
      answerCount: shownMessageCount(counterValue(answers.value), hiddenOf(0)),
      acceptedMessageId: (accepted.value as string | null) ?? null,
    }),
    storedMessages: counterValue(messages.value),
    topLevel: counterValue(answers.value) + counterValue(ai.value),
    aiAnswers: shownMessageCount(counterValue(ai.value), hiddenOf(1)),
    aiReplies: shownMessageCount(counterValue(aiReplies.value), hiddenOf(2)),
    answersIndexed: answers.versionstamp !== null || ai.versionstamp !== null,
    answerOrderBuilt: built.versionstamp !== null,
  };
}
