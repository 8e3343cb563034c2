/**
 * Paged threads (DESIGN.md §9): a question's page shows {@link ANSWERS_PER_PAGE} top-level
 * answers, each with at most {@link REPLIES_PER_ANSWER} of its replies (any depth, in time
 * order) and the total, so no page or JSON response grows with the thread. The rest of one
 * answer's replies are paged apart (`answer` + `replyPage`). Within a page, messages keep
 * thread order (oldest first, as before paging): replies always come after their parent.
 *
 * Reads are bounded: one list of the question's answer index for the page range, one list
 * of each shown answer's reply index (limit {@link REPLIES_PER_ANSWER}), the counters in one
 * `getMany`, then the records by `getMany` in chunks of 10.
 *
 * Older threads written before the answer index existed (no `answer_counts` but messages)
 * are read the old way, whole, then paged in memory — a fallback for existing data only;
 * every message written now carries the index.
 *
 * @module
 */
import { counterValue, getAll } from "../kv/atomic.ts";
import { isLookupId, keys } from "../kv/keys.ts";
import { EVENTUAL } from "../kv/consistency.ts";
import {
  listThread,
  type MessageRecord,
  messageViews,
  type QuestionWithMessages,
} from "./messages.ts";
import { getQuestionView } from "./questions/read.ts";

/** Top-level answers per page. */
export const ANSWERS_PER_PAGE = 30;
/** Replies shown under one answer on a thread page (and per reply page). */
export const REPLIES_PER_ANSWER = 50;

/** Which part of a thread to read. */
export interface ThreadQuery {
  /** 1-based page of top-level answers. */
  page: number;
  /** Show only this answer with its replies, page `replyPage` of them. */
  answer?: string;
  replyPage?: number;
}

/** A page of a thread: the question view plus the page's messages and the totals. */
export type QuestionThreadPage = QuestionWithMessages & {
  /** Top-level answers in the whole thread. */
  answerCount: number;
  page: number;
  /** Pages of top-level answers (at least 1). */
  pageCount: number;
  /** Replies under each shown answer (all of them, not just the shown ones), in page order. */
  replyCounts: { answerId: string; replies: number }[];
};

/** Thread order as the whole-thread index keeps it: by time, then id. */
function threadOrder(a: MessageRecord, b: MessageRecord): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

async function idsOf(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  skip: number,
  take: number,
): Promise<string[]> {
  const ids: string[] = [];
  let i = 0;
  for await (const e of kv.list<string>({ prefix }, { limit: skip + take, batchSize: 500 })) {
    if (i++ >= skip) ids.push(e.value);
  }
  return ids;
}

async function records(kv: Deno.Kv, ids: string[]): Promise<MessageRecord[]> {
  const got = await getAll<MessageRecord>(kv, ids.map(keys.message));
  return got.flatMap((e) => (e.value ? [e.value] : []));
}

/**
 * One page of a question's thread, or null when there is no such question. An
 * out-of-range page is empty, with the totals.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const page = await getQuestionThreadPage(kv, "q-abc", { page: 2 });
 * page?.pageCount;
 * ```
 */
export async function getQuestionThreadPage(
  kv: Deno.Kv,
  questionId: string,
  query: ThreadQuery,
): Promise<QuestionThreadPage | null> {
  if (!isLookupId(questionId)) return null;
  const [view, counts] = await Promise.all([
    getQuestionView(kv, questionId),
    kv.getMany([keys.answerCount(questionId)], EVENTUAL),
  ]);
  if (!view) return null;
  const indexed = counts[0].versionstamp !== null;
  if (!indexed && view.messageCount > 0) return await legacyPage(kv, view, query);
  const answerCount = counterValue(counts[0].value);
  const pageCount = Math.max(1, Math.ceil(answerCount / ANSWERS_PER_PAGE));

  let answers: MessageRecord[];
  let replyPage = 1;
  if (query.answer !== undefined) {
    const one = isLookupId(query.answer) ? await records(kv, [query.answer]) : [];
    answers = one.filter((m) => m.questionId === questionId && !m.replyTo);
    replyPage = query.replyPage ?? 1;
  } else {
    const ids = await idsOf(
      kv,
      keys.questionAnswersPrefix(questionId),
      (query.page - 1) * ANSWERS_PER_PAGE,
      ANSWERS_PER_PAGE,
    );
    answers = await records(kv, ids);
  }
  const [replyIds, replyTotals] = await Promise.all([
    Promise.all(answers.map((a) =>
      idsOf(
        kv,
        keys.answerRepliesPrefix(a.id),
        (replyPage - 1) * REPLIES_PER_ANSWER,
        REPLIES_PER_ANSWER,
      )
    )),
    getAll(kv, answers.map((a) => keys.replyCount(a.id))),
  ]);
  const replies = await getAll<MessageRecord>(kv, replyIds.flat().map(keys.message));
  let at = 0;
  const ordered = answers.flatMap((a, i) => {
    const shown = replies.slice(at, at += replyIds[i].length).flatMap((e) =>
      e.value ? [e.value] : []
    );
    return [a, ...shown];
  });
  const replyCounts = answers.map((a, i) => ({
    answerId: a.id,
    replies: counterValue(replyTotals[i].value),
  }));
  return {
    ...view,
    messages: await messageViews(kv, ordered.sort(threadOrder)),
    answerCount,
    page: query.page,
    pageCount,
    replyCounts,
  };
}

/** Threads written before the answer index: read whole, paged in memory. */
async function legacyPage(
  kv: Deno.Kv,
  view: Awaited<ReturnType<typeof getQuestionView>> & object,
  query: ThreadQuery,
): Promise<QuestionThreadPage> {
  const all = await listThread(kv, view.id);
  const byId = new Map(all.map((m) => [m.id, m]));
  const rootOf = (m: MessageRecord) => {
    let cur = m;
    for (let i = 0; i < 64 && cur.replyTo && byId.has(cur.replyTo); i++) {
      cur = byId.get(cur.replyTo)!;
    }
    return cur.id;
  };
  const roots = all.filter((m) => !m.replyTo || !byId.has(m.replyTo));
  const under = new Map<string, MessageRecord[]>();
  for (const m of all) {
    if (roots.includes(m)) continue;
    const r = rootOf(m);
    under.set(r, [...(under.get(r) ?? []), m]);
  }
  const answerCount = roots.length;
  const pageCount = Math.max(1, Math.ceil(answerCount / ANSWERS_PER_PAGE));
  let shown: MessageRecord[];
  let replyPage = 1;
  if (query.answer !== undefined) {
    shown = roots.filter((m) => m.id === query.answer);
    replyPage = query.replyPage ?? 1;
  } else {
    shown = roots.slice((query.page - 1) * ANSWERS_PER_PAGE, query.page * ANSWERS_PER_PAGE);
  }
  const ordered = shown.flatMap((a) => [
    a,
    ...(under.get(a.id) ?? []).slice(
      (replyPage - 1) * REPLIES_PER_ANSWER,
      replyPage * REPLIES_PER_ANSWER,
    ),
  ]);
  const replyCounts = shown.map((a) => ({
    answerId: a.id,
    replies: under.get(a.id)?.length ?? 0,
  }));
  return {
    ...view,
    messages: await messageViews(kv, ordered.sort(threadOrder)),
    answerCount,
    page: query.page,
    pageCount,
    replyCounts,
  };
}
