/**
 * Questions: records, creation with every index in one atomic op, and the feeds —
 * newest by dense creation sequence (page p is a direct key range, however deep), per
 * tag, hot, and search over title, description and tags.
 *
 * Vote counts, message counts and voter lists live under their own keys (see
 * lib/kv/keys.ts) and are joined in when a question is served.
 *
 * @module
 */
import { idSuffix } from "../../ids.ts";
import {
  addToCounter,
  counterValue,
  getAll,
  invertTime,
  listNewestFirst,
  updateAtomically,
} from "../../kv/atomic.ts";
import { recordEarnedBadges } from "../../profile/stats.ts";
import { invalidateReads } from "../read_cache.ts";
import { isLookupId, keys } from "../../kv/keys.ts";
import { queryTerms, questionTerms } from "../search_terms.ts";
import { listVoters } from "../votes.ts";

/** Author snapshot kept on questions and messages. */
export interface Author {
  id: string;
  name: string;
  avatar: string | null;
}

/** A question as stored (vote lists and counts live under their own keys). */
export interface QuestionRecord {
  id: string;
  title: string;
  description: string;
  tags: string[];
  author: Author;
  createdBy: "user" | "agent";
  createdAt: number;
  status: "active";
  discussionRounds: number;
  /** Set when the offline stand-in model wrote the question (local mode); the UI labels it. */
  standIn?: true;
}

/**
 * The fields of a question that never change, kept as the value of its sequence index so
 * a feed page is one range read.
 */
export type QuestionSnapshot = Pick<
  QuestionRecord,
  "id" | "title" | "description" | "tags" | "author" | "createdBy" | "createdAt"
>;

/** The snapshot of a record. */
export function snapshotOf(q: QuestionRecord): QuestionSnapshot {
  return {
    id: q.id,
    title: q.title,
    description: q.description,
    tags: q.tags,
    author: q.author,
    createdBy: q.createdBy,
    createdAt: q.createdAt,
  };
}

/** An item of the agent list (SPEC.md: only these fields). */
export interface QuestionListItem {
  id: string;
  title: string;
  description: string;
  tags: string[];
  upvotes: number;
  messageCount: number;
  createdAt: number;
}

/** An item of the people feed: the list item plus what a feed shows. */
export interface QuestionSummary extends QuestionListItem {
  downvotes: number;
  author: Author;
  createdBy: "user" | "agent";
}

/** A full question (SPEC.md "Question"). */
export interface QuestionView extends QuestionRecord {
  upvotes: number;
  downvotes: number;
  likedBy: string[];
  dislikedBy: string[];
  messageCount: number;
}

/** Limits of question fields. */
export const TITLE_MIN = 2;
export const TITLE_MAX = 120;
export const DESCRIPTION_MAX = 10_000;
export const TAG_MAX_LENGTH = 40;
export const TAGS_KEPT = 5;

/** How many of the newest questions the hot feed ranks. */
export const HOT_WINDOW = 200;
/** How many postings one search looks at, at most. */
export const SEARCH_SCAN_LIMIT = 1000;

/**
 * Tags as SPEC.md stores them: each trimmed, empty ones dropped, repeats (ignoring case)
 * dropped, the first 5 kept.
 *
 * @example
 * ```ts
 * normalizeTags([" deno ", "", "Deno", "kv"]); // ["deno", "kv"]
 * ```
 */
export function normalizeTags(tags: readonly string[] | undefined): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags ?? []) {
    const t = raw.trim();
    if (!t || seen.has(tagKey(t))) continue;
    seen.add(tagKey(t));
    out.push(t);
    if (out.length === TAGS_KEPT) break;
  }
  return out;
}

/** The index form of a tag (tag links and filters ignore case). */
export function tagKey(tag: string): string {
  return tag.trim().normalize("NFKC").toLowerCase();
}

/** Index key of a question in the newest-first time feed. */
export function feedKey(q: Pick<QuestionRecord, "id" | "createdAt">): Deno.KvKey {
  return keys.questionByTime(invertTime(q.createdAt), q.id);
}

/** Fields of a new question. */
export interface NewQuestion {
  title: string;
  description?: string;
  tags?: string[];
  author: Author;
  createdBy: "user" | "agent";
  discussionRounds?: number;
  /** True when the offline stand-in model wrote the question. */
  standIn?: boolean;
}

/** Options of {@link createQuestion}. */
export interface CreateQuestionOptions {
  now?: number;
  /** Id prefix: `q-agent-` for the agent interface, `q-` otherwise. */
  idPrefix?: string;
  /**
   * Extra mutations committed in the same atomic op (e.g. the initial message of a
   * question created by the participation endpoint, via `writeMessage`).
   */
  extra?: (op: Deno.AtomicOperation, question: QuestionRecord) => void;
}

/** The sequence numbers a new question takes: global and one per tag. */
export interface QuestionSeqs {
  seq: number;
  tagSeqs: Map<string, number>;
}

/**
 * Add a question and all its index rows to `op` (record, time/sequence/tag/term/author
 * indexes, total and per-author counters). The caller allocates `seqs` and checks the
 * heads it read; {@link createQuestion} does both.
 */
export function writeQuestion(
  op: Deno.AtomicOperation,
  q: QuestionRecord,
  seqs: QuestionSeqs,
): Deno.AtomicOperation {
  const inv = invertTime(q.createdAt);
  op.set(keys.question(q.id), q)
    .set(feedKey(q), q.id)
    .set(keys.questionBySeq(seqs.seq), snapshotOf(q))
    .set(keys.questionByAuthor(q.author.id, inv, q.id), q.id);
  for (const [tag, seq] of seqs.tagSeqs) op.set(keys.questionByTag(tag, seq), q.id);
  for (const term of questionTerms(q)) op.set(keys.questionTerm(term, inv, q.id), q.id);
  addToCounter(op, keys.counter("questions"), 1);
  addToCounter(op, keys.userStat(q.author.id, "questions"), 1);
  return op;
}

/**
 * Create a question. The global and per-tag sequence heads are read, checked and moved
 * in the same op as the record, so sequences stay dense and every index is written or
 * none is.
 *
 * @example
 * ```ts
 * const q = await createQuestion(kv, { title: "Why KV?", author, createdBy: "user" });
 * ```
 */
export async function createQuestion(
  kv: Deno.Kv,
  input: NewQuestion,
  opts: CreateQuestionOptions = {},
): Promise<QuestionRecord> {
  const now = opts.now ?? Date.now();
  const record: QuestionRecord = {
    id: `${opts.idPrefix ?? "q-"}${idSuffix(now)}`,
    title: input.title.trim(),
    description: (input.description ?? "").trim(),
    tags: normalizeTags(input.tags),
    author: input.author,
    createdBy: input.createdBy,
    createdAt: now,
    status: "active",
    discussionRounds: input.discussionRounds ?? 0,
  };
  if (input.standIn) record.standIn = true;
  const tagIndex = [...new Set(record.tags.map(tagKey))];
  const headKeys = [keys.questionSeqHead(), ...tagIndex.map(keys.tagSeqHead)];
  const created = await updateAtomically(async () => {
    const heads = await kv.getMany<number[]>(headKeys);
    const op = kv.atomic();
    for (const h of heads) op.check(h);
    const seq = (heads[0].value ?? 0) + 1;
    op.set(keys.questionSeqHead(), seq);
    const tagSeqs = new Map<string, number>();
    tagIndex.forEach((tag, i) => {
      const next = (heads[i + 1].value ?? 0) + 1;
      tagSeqs.set(tag, next);
      op.set(keys.tagSeqHead(tag), next);
    });
    writeQuestion(op, record, { seq, tagSeqs });
    opts.extra?.(op, record);
    return { op, result: record };
  });
  invalidateReads(kv); // the feed shows it on the next load
  await recordEarnedBadges(kv, record.author.id, now); // First Question
  return created;
}

/** The stored question, or null. */
export async function getQuestion(kv: Deno.Kv, id: string): Promise<QuestionRecord | null> {
  if (!isLookupId(id)) return null;
  return (await kv.get<QuestionRecord>(keys.question(id))).value;
}

/** How many questions exist (a counter, not a scan). */
export async function countQuestions(kv: Deno.Kv): Promise<number> {
  return counterValue((await kv.get(keys.counter("questions"))).value);
}

/** Records for ids, in the same order, skipping ids without a record. */
export async function getQuestions(kv: Deno.Kv, ids: string[]): Promise<QuestionRecord[]> {
  const entries = await getAll<QuestionRecord>(kv, ids.map(keys.question));
  return entries.flatMap((e) => e.value ? [e.value] : []);
}

/**
 * Up/down vote counts and message counts for questions, as feed summaries.
 *
 * @example
 * ```ts
 * const [s] = await summarize(kv, [record]);
 * s.upvotes; s.messageCount;
 * ```
 */
export async function summarize(
  kv: Deno.Kv,
  records: QuestionSnapshot[],
  { downvotes = true }: { downvotes?: boolean } = {},
): Promise<QuestionSummary[]> {
  // The agent list shows no down-votes: skipping them saves a third of the reads.
  const per = downvotes ? 3 : 2;
  const counterKeys = records.flatMap((q) => {
    const k = [keys.voteCount("question", q.id, "up"), keys.messageCount(q.id)];
    if (downvotes) k.push(keys.voteCount("question", q.id, "down"));
    return k;
  });
  const values = (await getAll(kv, counterKeys)).map((e) => counterValue(e.value));
  return records.map((q, i) => ({
    id: q.id,
    title: q.title,
    description: q.description,
    tags: q.tags,
    upvotes: values[i * per],
    downvotes: downvotes ? values[i * per + 2] : 0,
    messageCount: values[i * per + 1],
    createdAt: q.createdAt,
    author: q.author,
    createdBy: q.createdBy,
  }));
}

/** Just the fields of the agent list (SPEC.md). */
export function toListItem(s: QuestionSummary): QuestionListItem {
  return {
    id: s.id,
    title: s.title,
    description: s.description,
    tags: s.tags,
    upvotes: s.upvotes,
    messageCount: s.messageCount,
    createdAt: s.createdAt,
  };
}

/**
 * The full question: record, counts and voter lists.
 *
 * @example
 * ```ts
 * const view = await getQuestionView(kv, "q-abc");
 * ```
 */
export async function getQuestionView(kv: Deno.Kv, id: string): Promise<QuestionView | null> {
  const q = await getQuestion(kv, id);
  if (!q) return null;
  const [[summary], voters] = await Promise.all([
    summarize(kv, [q]),
    listVoters(kv, "question", q.id),
  ]);
  return {
    ...q,
    upvotes: summary.upvotes,
    downvotes: summary.downvotes,
    messageCount: summary.messageCount,
    likedBy: voters.likedBy,
    dislikedBy: voters.dislikedBy,
  };
}

/** Values at positions `(head − page·limit, head − (page−1)·limit]` of a dense sequence. */
async function seqPage<T>(
  kv: Deno.Kv,
  head: number,
  page: number,
  limit: number,
  keyOf: (seq: number) => Deno.KvKey,
): Promise<T[]> {
  const hi = head - (page - 1) * limit;
  const lo = Math.max(1, hi - limit + 1);
  if (hi < 1) return [];
  const out: T[] = [];
  const range = { start: keyOf(lo), end: keyOf(hi + 1) };
  for await (const e of kv.list<T>(range, { reverse: true, batchSize: limit })) out.push(e.value);
  return out;
}

/**
 * Page `page` (1-based) of all questions, newest first, read as one key range of the
 * creation sequence — no entries are skipped, so page 500 costs what page 1 costs.
 *
 * @example
 * ```ts
 * const { questions, total } = await listQuestionsPage(kv, { page: 1, limit: 20 });
 * ```
 */
export async function listQuestionsPage(
  kv: Deno.Kv,
  { page, limit, downvotes = true }: { page: number; limit: number; downvotes?: boolean },
): Promise<{ questions: QuestionSummary[]; total: number }> {
  const [head, total] = await kv.getMany<[number, Deno.KvU64]>([
    keys.questionSeqHead(),
    keys.counter("questions"),
  ]);
  const snapshots = await seqPage<QuestionSnapshot>(
    kv,
    head.value ?? 0,
    page,
    limit,
    keys.questionBySeq,
  );
  const questions = await summarize(kv, snapshots, { downvotes });
  return { questions, total: counterValue(total.value) };
}

/**
 * One page of questions, newest first, by the time index with a cursor (kept for callers
 * that walk the whole feed, e.g. "the 50 most recent questions").
 *
 * @example
 * ```ts
 * const { questions, cursor } = await listQuestionsNewestFirst(kv, { limit: 20 });
 * ```
 */
export async function listQuestionsNewestFirst(
  kv: Deno.Kv,
  { limit, cursor }: { limit: number; cursor?: string },
): Promise<{ questions: QuestionRecord[]; cursor?: string }> {
  const page = await listNewestFirst<string>(kv, keys.questionsByTimePrefix(), { limit, cursor });
  return { questions: await getQuestions(kv, page.values), cursor: page.cursor };
}

/** Query of the people feed. */
export interface FeedQuery {
  sort: "new" | "hot";
  q?: string;
  tag?: string;
  page: number;
  limit: number;
}

/** A page of the people feed. `total` is null when only a bounded scan was made. */
export interface FeedPage {
  questions: QuestionSummary[];
  total: number | null;
  page: number;
  limit: number;
  hasMore: boolean;
}

/**
 * Hot score: heat (up-votes + messages, as SPEC.md's participation heat) decayed by
 * age, so a busy new question beats an old one; questions without heat rank by recency.
 */
export function hotScore(s: QuestionSummary, now: number): number {
  const hours = Math.max(0, now - s.createdAt) / 3_600_000;
  return (s.upvotes - s.downvotes + s.messageCount + 1) / Math.pow(hours + 2, 1.5);
}

/** Search candidates: newest-first ids of the postings of the query's longest term. */
async function* postings(kv: Deno.Kv, term: string): AsyncGenerator<string> {
  let n = 0;
  for await (const e of kv.list<string>({ prefix: keys.questionTermPrefix(term) })) {
    yield e.value;
    if (++n >= SEARCH_SCAN_LIMIT) return;
  }
}

/** Filtered candidates, newest first, until `want` matches or the scan bound. */
async function searchMatches(
  kv: Deno.Kv,
  terms: string[],
  tag: string | undefined,
  want: number,
): Promise<{ matches: QuestionRecord[]; exhausted: boolean }> {
  const matches: QuestionRecord[] = [];
  let batch: string[] = [];
  const flush = async () => {
    for (const q of await getQuestions(kv, batch)) {
      const set = new Set(questionTerms(q));
      if (!terms.every((t) => set.has(t))) continue;
      if (tag && !q.tags.some((t) => tagKey(t) === tag)) continue;
      matches.push(q);
    }
    batch = [];
  };
  for await (const id of postings(kv, terms[0])) {
    batch.push(id);
    if (batch.length === 50) {
      await flush();
      if (matches.length >= want) return { matches, exhausted: false };
    }
  }
  await flush();
  return { matches, exhausted: true };
}

/**
 * The people feed: newest or hot, optionally filtered by a search query and a tag.
 * Newest without a query is a direct range of the (global or per-tag) sequence; hot
 * ranks the newest {@link HOT_WINDOW} candidates; a search scans the postings of its
 * rarest-looking term (at most {@link SEARCH_SCAN_LIMIT}).
 *
 * @example
 * ```ts
 * const page = await findQuestions(kv, { sort: "hot", tag: "deno", page: 1, limit: 20 }, Date.now());
 * ```
 */
export async function findQuestions(
  kv: Deno.Kv,
  query: FeedQuery,
  now: number,
): Promise<FeedPage> {
  const { page, limit, sort } = query;
  const tag = query.tag ? tagKey(query.tag) : undefined;
  const terms = queryTerms(query.q ?? "");
  const answer = (questions: QuestionSummary[], total: number | null, hasMore: boolean) => ({
    questions,
    total,
    page,
    limit,
    hasMore,
  });

  if (terms.length === 0 && sort === "new") {
    if (!tag) {
      const { questions, total } = await listQuestionsPage(kv, { page, limit });
      return answer(questions, total, page * limit < total);
    }
    const head = (await kv.get<number>(keys.tagSeqHead(tag))).value ?? 0;
    const ids = await seqPage<string>(kv, head, page, limit, (s) => keys.questionByTag(tag, s));
    const questions = await summarize(kv, await getQuestions(kv, ids));
    return answer(questions, head, page * limit < head);
  }

  let candidates: QuestionSnapshot[];
  let total: number | null;
  let more = false;
  if (terms.length > 0) {
    const want = sort === "hot" ? HOT_WINDOW : page * limit + 1;
    const { matches, exhausted } = await searchMatches(kv, terms, tag, want);
    candidates = matches;
    total = exhausted ? matches.length : null;
    more = !exhausted;
  } else {
    const head = (await kv.get<number>(tag ? keys.tagSeqHead(tag) : keys.questionSeqHead()))
      .value ?? 0;
    candidates = tag
      ? await getQuestions(
        kv,
        await seqPage<string>(kv, head, 1, HOT_WINDOW, (s) => keys.questionByTag(tag, s)),
      )
      : await seqPage<QuestionSnapshot>(kv, head, 1, HOT_WINDOW, keys.questionBySeq);
    total = candidates.length;
  }

  if (sort === "hot") {
    const ranked = (await summarize(kv, candidates))
      .map((s) => ({ s, score: hotScore(s, now) }))
      .sort((a, b) => b.score - a.score || b.s.createdAt - a.s.createdAt)
      .map((r) => r.s);
    const slice = ranked.slice((page - 1) * limit, page * limit);
    return answer(slice, total ?? ranked.length, page * limit < ranked.length);
  }
  const slice = candidates.slice((page - 1) * limit, page * limit);
  return answer(
    await summarize(kv, slice),
    total,
    page * limit < candidates.length || more,
  );
}
