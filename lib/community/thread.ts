/**
 * Paged threads (docs/interface.md#threads): a question's page shows {@link ANSWERS_PER_PAGE} top-level
 * answers, each with at most {@link REPLIES_PER_ANSWER} of its replies (any depth, in time
 * order) and the total, so no page or JSON response grows with the thread. The rest of one
 * answer's replies are paged apart (`answer` + `replyPage`). Top-level answers come in the
 * query's `sort` order (`votes` by default, `newest`, `oldest`); each is
 * followed by its replies in time order, so replies always come after their parent.
 *
 * Reads are bounded, in as few round trips as the data allows (every `getMany` carries 10
 * keys, the most Deno KV takes; the chunks of one step are issued together):
 * 1. the question record with its counters and the answer-order marker (one `getMany`)
 *    beside the answer index (one `list`: the page range for `oldest`/`newest`; for
 *    `votes` the score-ordered rows of ./answer_order.ts up to the end of the page — page
 *    1 is 31 keys at any thread size — with the accepted answer put first);
 * 2. `votes` on a question whose score-ordered rows are not built yet (older than them,
 *    not backfilled; logged once) only: every answer id and every answer's 2 vote
 *    counters, to rank them in memory (kept, not read again for the page);
 * 3. the page's records, their reply totals (skipped when the thread has no replies) and
 *    their vote counters, in one step;
 * 4. only for answers with replies: one bounded `list` of each one's reply index (limit
 *    {@link REPLIES_PER_ANSWER}), then the replies' records and counters in one step.
 * A page number is an offset, and a KV list has none: page p lists the (p − 1) · 30 index
 * rows before it. From page 11 on the totals are read first and a page nearer the end
 * than the start is listed backwards from the end, so the last pages cost what the first
 * ones do; the middle of a long thread still lists up to half of it.
 * The JSON API adds each post's voter list (a `kv.list` per post: docs/interface.md#threads's `likedBy` /
 * `dislikedBy`); the HTML page reads none (`{ voters: false }`) and shares one read of a
 * page among all its viewers for a second ({@link readThreadPage}). The page's KV calls
 * are listed in routes/questions/[id].tsx.
 *
 * Older threads written before the answer index existed (no `answer_counts` but messages)
 * are read the old way, whole, then paged in memory — a fallback for existing data only;
 * every message written now carries the index.
 *
 * @module
 */
import { VoterPrivacy } from "./vote_privacy.ts";
import { counterValue, getAll } from "../kv/atomic.ts";
import { isLookupId, keys } from "../kv/keys.ts";
import { requestAnswerOrder } from "./answer_order_job.ts";
import { type MessageRecord, type MessageViewBase, rootAnswerOf } from "./messages/model.ts";
import { listThread, messageViews, type QuestionWithMessages } from "./messages/read.ts";
import type { QuestionRecord } from "./questions/model.ts";
import { type QuestionViewBase, readQuestionBase } from "./questions/read.ts";
import { maySee, type Viewer } from "./visibility.ts";
import { listAnswerOrder, pageOfAnswerOrder, rowsForPage } from "./answer_order.ts";
import { cachedRead } from "./read_cache.ts";
import { listVoters } from "./voters.ts";

/** Top-level answers per page. */
export const ANSWERS_PER_PAGE = 30;
/** Replies shown under one answer on a thread page (and per reply page). */
export const REPLIES_PER_ANSWER = 50;

/** Orders of the top-level answers (docs/interface.md#threads). */
export type AnswerSort = "votes" | "newest" | "oldest";

/** Which part of a thread to read. */
export interface ThreadQuery {
  /**
   * Order of the top-level answers: `votes` (the default: accepted answer first, then
   * up − down, ties oldest first), `newest` or `oldest`. Replies stay under their answer
   * in time order.
   */
  sort?: AnswerSort;
  /** 1-based page of top-level answers. */
  page: number;
  /** Show only this answer with its replies, page `replyPage` of them. */
  answer?: string;
  replyPage?: number;
}

/** The totals and position of a thread page. */
export interface ThreadTotals {
  /**
   * Top-level answers by people (and their agents) in the whole thread, hidden ones left
   * out (the same number for every viewer); the AI expert panel's top-level messages are
   * paged with them but are not answers.
   */
  answerCount: number;
  /** The answer order used. */
  sort: AnswerSort;
  page: number;
  /** Pages of top-level answers (at least 1). */
  pageCount: number;
  /** Replies under each shown answer (all of them, not just the shown ones), in page order. */
  replyCounts: { answerId: string; replies: number }[];
}

/** A page of a thread: the question view plus the page's messages and the totals. */
export type QuestionThreadPage = QuestionWithMessages & ThreadTotals;

/**
 * A page of a thread without any voter list (`{ voters: false }`): what the HTML question
 * page shows.
 */
export type QuestionPageThread = QuestionViewBase & { messages: MessageViewBase[] } & ThreadTotals;

/** Thread order as the whole-thread index keeps it: by time, then id. */
function threadOrder(a: MessageRecord, b: MessageRecord): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

async function idsOf(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  skip: number,
  take: number,
  reverse = false,
): Promise<string[]> {
  const ids: string[] = [];
  let i = 0;
  const opts = { limit: skip + take, batchSize: 500, reverse };
  for await (const e of kv.list<string>({ prefix }, opts)) {
    if (i++ >= skip) ids.push(e.value);
  }
  return ids;
}

/** `[up, down]` vote counts by message id. */
type Counts = Map<string, readonly [number, number]>;

function voteKeys(ids: string[]): Deno.KvKey[] {
  return ids.flatMap((id) => [
    keys.voteCount("message", id, "up"),
    keys.voteCount("message", id, "down"),
  ]);
}

/** Record the counters `entries` (as {@link voteKeys} of `ids` lists them) in `counts`. */
function addCounts(counts: Counts, ids: string[], entries: Deno.KvEntryMaybe<unknown>[]): void {
  ids.forEach((id, i) =>
    counts.set(id, [counterValue(entries[2 * i].value), counterValue(entries[2 * i + 1].value)])
  );
}

/**
 * The answer index as one page needs it: for `oldest` / `newest` the page's ids (one
 * bounded list, forwards or backwards); for `votes` the score-ordered rows up to the end
 * of the page (./answer_order.ts: one bounded list of keys).
 */
async function listAnswers(
  kv: Deno.Kv,
  questionId: string,
  sort: AnswerSort,
  page: number,
): Promise<string[]> {
  const skip = (page - 1) * ANSWERS_PER_PAGE;
  const prefix = keys.questionAnswersPrefix(questionId);
  if (sort === "oldest") return await idsOf(kv, prefix, skip, ANSWERS_PER_PAGE);
  if (sort === "newest") return await idsOf(kv, prefix, skip, ANSWERS_PER_PAGE, true);
  return await listAnswerOrder(kv, questionId, rowsForPage(page, ANSWERS_PER_PAGE));
}

/** Pages from this offset on wait for the totals and read from the nearer end of the index. */
const FAR_OFFSET = 10 * ANSWERS_PER_PAGE;

/**
 * The page at `skip` of a thread with `total` top-level messages, read from the end of its
 * index when that end is nearer (`newest`, `oldest`, and `votes` with its rows built): a
 * page number is an offset and KV lists have none, so the last page of 10,000 answers
 * read forwards lists every row before it; from the end it lists one page. Null when the
 * start is nearer (read forwards, as {@link listAnswers} does). Position `k` of the
 * `votes` order is the accepted answer for `k = 0`, otherwise the `k`-th row without it:
 * counted from the end that is the same `total − 1 − k` with or without an accepted one.
 */
async function pageFromEnd(
  kv: Deno.Kv,
  questionId: string,
  sort: AnswerSort,
  skip: number,
  total: number,
  accepted: string | null,
): Promise<string[] | null> {
  const end = Math.min(skip + ANSWERS_PER_PAGE, total);
  if (skip >= total) return [];
  if (total - skip >= skip + ANSWERS_PER_PAGE) return null;
  const fromEnd = total - end;
  const take = end - skip;
  const ids: string[] = [];
  let seen = 0;
  const votes = sort === "votes";
  const prefix = votes
    ? keys.answersByScorePrefix(questionId)
    : keys.questionAnswersPrefix(questionId);
  // Time order ascending is `oldest`; `newest` and `votes` read their ends the other way.
  const reverse = sort !== "newest";
  const opts = { reverse, limit: fromEnd + take + (votes && accepted ? 1 : 0), batchSize: 500 };
  for await (const e of kv.list<string>({ prefix }, opts)) {
    const id = votes ? e.key[4] as string : e.value;
    if (votes && id === accepted) continue;
    if (seen++ >= fromEnd) ids.push(id);
    if (ids.length === take) break;
  }
  return ids.reverse();
}

/** Every answer of a question with its time (the unranked fallback of `votes`). */
async function listAllAnswers(
  kv: Deno.Kv,
  questionId: string,
): Promise<{ id: string; createdAt: number }[]> {
  const all: { id: string; createdAt: number }[] = [];
  const prefix = keys.questionAnswersPrefix(questionId);
  for await (const e of kv.list<string>({ prefix }, { batchSize: 500 })) {
    all.push({ id: e.value, createdAt: e.key[2] as number });
  }
  return all;
}

/** Questions already logged as ranked without their answer order (once per process). */
const warnedUnbuilt = new Set<string>();

function warnUnbuilt(kv: Deno.Kv, questionId: string, answers: number): void {
  if (warnedUnbuilt.has(questionId) || warnedUnbuilt.size >= 1000) return;
  warnedUnbuilt.add(questionId);
  console.warn(
    `sort=votes: question ${JSON.stringify(questionId)} has no answer order yet; ranking ` +
      `all ${answers} answers from their counters while a job builds it`,
  );
  void requestAnswerOrder(kv, questionId);
}

/**
 * One page of answer ids in `votes` order without the score-ordered rows (a question
 * older than them, not yet backfilled): every answer's vote counters (`getMany` in chunks
 * of 10: 2 counter reads per answer, kept in `counts` so the page's views do not read them
 * again), ranked in memory, the page sliced. Measured on the in-memory store (one page
 * read, whole request path of the domain): 100 answers 5.5 ms, 1000 answers 28.5 ms, 3000
 * answers 113 ms — slow past a few thousand, never a wrong order.
 */
async function rankAnswers(
  kv: Deno.Kv,
  all: { id: string; createdAt: number }[],
  page: number,
  accepted: string | null,
  counts: Counts,
): Promise<string[]> {
  const skip = (page - 1) * ANSWERS_PER_PAGE;
  const ids = all.map((a) => a.id);
  addCounts(counts, ids, await getAll(kv, voteKeys(ids)));
  return byRank(all, accepted, counts).slice(skip, skip + ANSWERS_PER_PAGE).map((a) => a.id);
}

/**
 * `answers` in `votes` order: the accepted one first, then up − down, ties oldest first
 * (then by id). `counts` holds every answer's vote counts.
 */
function byRank<T extends { id: string; createdAt: number }>(
  answers: T[],
  accepted: string | null,
  counts: Counts,
): T[] {
  const ranked = answers.map((a) => {
    const [up, down] = counts.get(a.id)!;
    return { a, accepted: a.id === accepted ? 1 : 0, score: up - down };
  }).sort((x, y) =>
    y.accepted - x.accepted || y.score - x.score || x.a.createdAt - y.a.createdAt ||
    (x.a.id < y.a.id ? -1 : 1)
  );
  return ranked.map((r) => r.a);
}

/**
 * A page of a thread as stored, before anyone's visibility applies: the question's record
 * and view, every message of the page in order (hidden ones included, deleted ones as
 * records), the vote counts already read, and the totals. Nothing in it depends on who
 * reads it, so one read serves every viewer (the readers below filter per viewer).
 */
interface StoredThread {
  record: QuestionRecord;
  view: QuestionViewBase;
  messages: MessageRecord[];
  counts: Counts;
  answerCount: number;
  /** Top-level messages of the AI expert panel (paged with the answers, not answers). */
  aiAnswerCount: number;
  /** Replies by the AI expert panel's experts in the whole thread. */
  aiReplyCount: number;
  sort: AnswerSort;
  page: number;
  pageCount: number;
  replyCounts: { answerId: string; replies: number }[];
}

/**
 * Read one page of a thread (see the module doc for its KV calls).
 */
async function readThread(
  kv: Deno.Kv,
  questionId: string,
  query: ThreadQuery,
): Promise<StoredThread | null> {
  if (!isLookupId(questionId)) return null;
  const sort = query.sort ?? "votes";
  const single = query.answer !== undefined;
  const skip = (query.page - 1) * ANSWERS_PER_PAGE;
  // A deep page waits for the totals, to read from the nearer end of the index.
  const far = !single && skip >= FAR_OFFSET;
  // Round trip 1: the record with its counters, beside the answer index.
  const [base, near] = await Promise.all([
    readQuestionBase(kv, questionId),
    single || far ? null : listAnswers(kv, questionId, sort, query.page),
  ]);
  if (!base) return null;
  const { record, view } = base;
  if (!base.answersIndexed && base.storedMessages > 0) {
    return await legacyThread(kv, record, view, { ...query, sort });
  }
  const ordered = sort !== "votes" || base.answerOrderBuilt;
  const fromEnd = far && ordered
    ? await pageFromEnd(kv, questionId, sort, skip, base.topLevel, view.acceptedMessageId)
    : null;
  const listed = near ??
    (far && ordered && !fromEnd ? await listAnswers(kv, questionId, sort, query.page) : null);
  const answerCount = view.answerCount;
  // Pages hold top-level messages: people's answers and the AI panel's alike.
  const pageCount = Math.max(1, Math.ceil(base.topLevel / ANSWERS_PER_PAGE));
  const counts: Counts = new Map();

  let ids: string[];
  let replyPage = 1;
  let rankLater = false;
  if (single) {
    ids = isLookupId(query.answer!) ? [query.answer!] : [];
    replyPage = query.replyPage ?? 1;
  } else if (fromEnd) {
    ids = fromEnd; // a deep page, listed from the nearer end
  } else if (sort === "votes" && base.answerOrderBuilt) {
    // The score-ordered rows listed in round trip 1, the accepted answer put first.
    ids = pageOfAnswerOrder(listed!, view.acceptedMessageId, query.page, ANSWERS_PER_PAGE);
  } else if (sort === "votes") {
    // No rows yet (an older question): round trips 2a/2b list every answer and read
    // every answer's counters to rank them; a thread that fits on one page is ranked after
    // round trip 3 instead.
    const all = await listAllAnswers(kv, questionId);
    rankLater = all.length <= ANSWERS_PER_PAGE;
    if (!rankLater) warnUnbuilt(kv, questionId, all.length);
    ids = rankLater
      ? (query.page === 1 ? all.map((a) => a.id) : [])
      : await rankAnswers(kv, all, query.page, view.acceptedMessageId, counts);
  } else {
    ids = listed!;
  }
  // Round trip 3: the page's records, reply totals and (unless ranked) vote counters. A
  // thread without replies (every message is an answer: the two counters move together in
  // each write and delete) has every reply total 0, unread.
  const unranked = ids.filter((id) => !counts.has(id));
  const replyTotals = base.storedMessages > base.topLevel ? ids : [];
  const got = await getAll(kv, [
    ...ids.map(keys.message),
    ...replyTotals.map(keys.replyCount),
    ...voteKeys(unranked),
  ]);
  addCounts(counts, unranked, got.slice(ids.length + replyTotals.length));
  let page: { m: MessageRecord; replies: number }[] = [];
  ids.forEach((_, i) => {
    const m = got[i].value as MessageRecord | null;
    if (!m || m.questionId !== questionId || m.replyTo) return;
    page.push({ m, replies: replyTotals.length ? counterValue(got[ids.length + i].value) : 0 });
  });
  if (rankLater) {
    const ranked = byRank(page.map((p) => p.m), view.acceptedMessageId, counts);
    const at = new Map(ranked.map((m, i) => [m.id, i]));
    page = page.sort((a, b) => at.get(a.m.id)! - at.get(b.m.id)!);
  }
  const answers = page.map((p) => p.m);
  const totals = page.map((p) => p.replies);
  // Round trips 4 and 5, only for answers that have replies (most have none): their reply
  // index, then the replies' records and vote counters.
  const replySkip = (replyPage - 1) * REPLIES_PER_ANSWER;
  const replyIds = await Promise.all(
    answers.map((a, i) =>
      totals[i] > replySkip
        ? idsOf(kv, keys.answerRepliesPrefix(a.id), replySkip, REPLIES_PER_ANSWER)
        : Promise.resolve([] as string[])
    ),
  );
  const flatReplies = replyIds.flat();
  const replies = flatReplies.length
    ? await getAll<MessageRecord>(kv, [
      ...flatReplies.map(keys.message),
      ...voteKeys(flatReplies),
    ])
    : [];
  addCounts(counts, flatReplies, replies.slice(flatReplies.length));
  let at = 0;
  const messages = answers.flatMap((a, i) => {
    const shown = replies.slice(at, at += replyIds[i].length).flatMap((e) =>
      e.value ? [e.value as MessageRecord] : []
    );
    return [a, ...shown.sort(threadOrder)];
  });
  return {
    record,
    view,
    messages,
    counts,
    answerCount,
    aiAnswerCount: base.aiAnswers,
    aiReplyCount: base.aiReplies,
    sort,
    page: query.page,
    pageCount,
    replyCounts: answers.map((a, i) => ({ answerId: a.id, replies: totals[i] })),
  };
}

/** Threads written before the answer index: read whole, paged in memory. */
async function legacyThread(
  kv: Deno.Kv,
  record: QuestionRecord,
  view: QuestionViewBase,
  query: ThreadQuery,
): Promise<StoredThread> {
  const all = await listThread(kv, view.id);
  const byId = new Map(all.map((m) => [m.id, m]));
  const roots = all.filter((m) => !m.replyTo || !byId.has(m.replyTo));
  const counts: Counts = new Map();
  if (query.sort === "newest") roots.reverse();
  if (query.sort === "votes") {
    const ids = roots.map((m) => m.id);
    addCounts(counts, ids, await getAll(kv, voteKeys(ids)));
    const score = (m: MessageRecord) => counts.get(m.id)![0] - counts.get(m.id)![1];
    const accepted = (m: MessageRecord) => m.id === view.acceptedMessageId ? 1 : 0;
    roots.sort((a, b) => accepted(b) - accepted(a) || score(b) - score(a) || threadOrder(a, b));
  }
  const under = new Map<string, MessageRecord[]>();
  for (const m of all) {
    if (roots.includes(m)) continue;
    const r = await rootAnswerOf(byId, m);
    under.set(r, [...(under.get(r) ?? []), m]);
  }
  // Counted as the counters serve them: hidden messages left out.
  const counted = (m: MessageRecord) => m.hiddenAt === undefined;
  const aiAnswerCount = roots.filter((m) => m.authorType === "ai" && counted(m)).length;
  const aiReplyCount = all.filter((m) => m.replyTo && m.authorType === "ai" && counted(m)).length;
  const answerCount = roots.filter((m) => m.authorType !== "ai" && counted(m)).length;
  const pageCount = Math.max(1, Math.ceil(roots.length / ANSWERS_PER_PAGE));
  let shown: MessageRecord[];
  let replyPage = 1;
  if (query.answer !== undefined) {
    shown = roots.filter((m) => m.id === query.answer);
    replyPage = query.replyPage ?? 1;
  } else {
    shown = roots.slice((query.page - 1) * ANSWERS_PER_PAGE, query.page * ANSWERS_PER_PAGE);
  }
  const messages = shown.flatMap((a) => [
    a,
    ...(under.get(a.id) ?? []).sort(threadOrder).slice(
      (replyPage - 1) * REPLIES_PER_ANSWER,
      replyPage * REPLIES_PER_ANSWER,
    ),
  ]);
  return {
    record,
    view,
    messages,
    counts,
    answerCount,
    aiAnswerCount,
    aiReplyCount,
    sort: query.sort ?? "votes",
    page: query.page,
    pageCount,
    replyCounts: shown.map((a) => ({ answerId: a.id, replies: under.get(a.id)?.length ?? 0 })),
  };
}

/** May `viewer` see the hidden post by `authorId` (its author, or a moderator)? */
function maySeeHidden(authorId: string, viewer: Viewer | null | undefined): boolean {
  return maySee({ author: { id: authorId }, hiddenAt: 1 }, viewer);
}

/** Options of {@link getQuestionThreadPage}. */
export interface ThreadPageOptions {
  /**
   * Read and include the voter lists (`likedBy` / `dislikedBy` on the question and every
   * message; default true, docs/interface.md#threads's API shape). Each is a `kv.list`: the HTML page, which
   * shows none, passes `false`.
   */
  voters?: boolean;
}

/** The 404 of a page read for an answer the question does not hold ({@link answerMissing}). */
export const ANSWER_NOT_FOUND = "Answer not found in this question";

/**
 * True when a page read for one answer (`query.answer`) does not hold it: no such message,
 * a reply rather than an answer, another question's, or one the viewer may not see. The
 * APIs answer 404 then, rather than an empty page that reads as "no replies".
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const query = { page: 1, answer: "msg-1" };
 * const page = await getQuestionThreadPage(kv, "q-abc", query);
 * if (page && answerMissing(page, query)) console.log("Answer not found in this question");
 * ```
 */
export function answerMissing(
  page: { messages: readonly { id: string; replyTo?: string | null }[] },
  query: ThreadQuery,
): boolean {
  return query.answer !== undefined &&
    !page.messages.some((m) => m.id === query.answer && !m.replyTo);
}

/**
 * One page of a question's thread, or null when there is no such question (or it is
 * deleted or hidden and `viewer` is neither its author nor a moderator). An out-of-range
 * page is empty, with the totals. Each answer is followed by its replies in time order;
 * posts hidden by moderation show only to their author and moderators.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const page = await getQuestionThreadPage(kv, "q-abc", { page: 2 });
 * page?.pageCount;
 * const lean = await getQuestionThreadPage(kv, "q-abc", { page: 1 }, null, { voters: false });
 * ```
 */
export function getQuestionThreadPage(
  kv: Deno.Kv,
  questionId: string,
  query: ThreadQuery,
  viewer?: Viewer | null,
): Promise<QuestionThreadPage | null>;
export function getQuestionThreadPage(
  kv: Deno.Kv,
  questionId: string,
  query: ThreadQuery,
  viewer: Viewer | null | undefined,
  opts: { voters: false },
): Promise<QuestionPageThread | null>;
export async function getQuestionThreadPage(
  kv: Deno.Kv,
  questionId: string,
  query: ThreadQuery,
  viewer?: Viewer | null,
  opts: ThreadPageOptions = {},
): Promise<QuestionPageThread | null> {
  const stored = await readThread(kv, questionId, query);
  if (!stored || !maySee(stored.record, viewer)) return null;
  const shown = stored.messages.filter((m) => m.hiddenAt === undefined || maySee(m, viewer));
  const voters = opts.voters !== false;
  const privacy = new VoterPrivacy(kv, viewer?.userId ?? null);
  const [messages, questionVoters] = await Promise.all([
    messageViews(kv, shown, { voters, counts: stored.counts, privacy }),
    voters ? listVoters(kv, "question", questionId, privacy) : null,
  ]);
  return { ...pageThreadOf(stored, messages), ...questionVoters };
}

/** The page a stored thread makes once its messages are rendered as views. */
function pageThreadOf(stored: StoredThread, messages: MessageViewBase[]): QuestionPageThread {
  return {
    ...stored.view,
    messages,
    answerCount: stored.answerCount,
    sort: stored.sort,
    page: stored.page,
    pageCount: stored.pageCount,
    replyCounts: stored.replyCounts,
  };
}

/**
 * A thread page as the HTML question page shows it to `viewer`: no voter lists, and the
 * ids of the hidden posts among those shown (`hidden`: the viewer's own, or any for a
 * moderator — they see them with a banner).
 */
export type ViewedThreadPage = QuestionPageThread & {
  hidden: string[];
  /** Top-level messages of the AI expert panel in the whole thread (not answers). */
  aiAnswerCount: number;
  /** Replies by the AI expert panel's experts in the whole thread (not people's replies). */
  aiReplyCount: number;
};

/** What {@link readThreadShared} keeps per thread page: built once, filtered per viewer. */
interface SharedThread {
  record: QuestionRecord;
  /** Every message of the page, hidden ones included (with their author ids in `hidden`). */
  page: QuestionPageThread;
  /** Hidden message ids → their author's id. */
  hidden: Map<string, string>;
  aiAnswerCount: number;
  aiReplyCount: number;
}

/**
 * One page of a question's thread for the HTML page, through the one-second read cache
 * (lib/community/read_cache.ts, `ttlMs`; dropped at once by every write through this
 * process, `invalidateReads`): the cached part depends on nothing but the question and
 * `query` (hidden and deleted posts included), and each viewer's visibility is applied to
 * it in memory, so a crowd of readers, signed in or not, costs one set of thread reads a
 * second and a moderator or author is never served a page filtered for someone else (nor
 * anyone a page built for a moderator). `viewer` may be a promise (the moderator check):
 * the thread is read meanwhile.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const page = await readThreadPage(kv, "q-abc", { page: 1 }, { userId: "u1" }, 1000);
 * page?.hidden; // hidden posts the viewer may see (their own)
 * ```
 */
export async function readThreadPage(
  kv: Deno.Kv,
  questionId: string,
  query: ThreadQuery,
  viewerOrPending: Viewer | null | undefined | Promise<Viewer | null | undefined>,
  ttlMs: number,
): Promise<ViewedThreadPage | null> {
  if (!isLookupId(questionId)) return null;
  const { sort = "votes", page, answer = "", replyPage = 1 } = query;
  // The shared part does not depend on the viewer: read it while the viewer is resolved.
  const [shared, viewer] = await Promise.all([
    cachedRead(
      kv,
      `thread:${questionId}:${sort}:${page}:${answer}:${replyPage}`,
      ttlMs,
      () => readThreadShared(kv, questionId, query),
    ),
    viewerOrPending,
  ]);
  if (!shared || !maySee(shared.record, viewer)) return null;
  const { page: p, hidden: hiddenBy, aiAnswerCount, aiReplyCount } = shared;
  const hidden: string[] = shared.record.hiddenAt !== undefined ? [p.id] : [];
  if (hiddenBy.size === 0) return { ...p, hidden, aiAnswerCount, aiReplyCount };
  const messages = p.messages.filter((m) => {
    const by = hiddenBy.get(m.id);
    if (by === undefined) return true;
    if (!maySeeHidden(by, viewer)) return false;
    hidden.push(m.id);
    return true;
  });
  return { ...p, messages, hidden, aiAnswerCount, aiReplyCount };
}

async function readThreadShared(
  kv: Deno.Kv,
  questionId: string,
  query: ThreadQuery,
): Promise<SharedThread | null> {
  const stored = await readThread(kv, questionId, query);
  if (!stored) return null;
  const hidden = new Map<string, string>();
  for (const m of stored.messages) if (m.hiddenAt !== undefined) hidden.set(m.id, m.author.id);
  const messages = await messageViews(kv, stored.messages, {
    voters: false,
    counts: stored.counts,
  });
  return {
    record: stored.record,
    page: pageThreadOf(stored, messages),
    hidden,
    aiAnswerCount: stored.aiAnswerCount,
    aiReplyCount: stored.aiReplyCount,
  };
}
