/**
 * Questions, the writes: a new question with every index (record, time, sequence, tag,
 * term and author rows, counters) in one atomic op.
 *
 * @module
 */
import { perStore } from "../../cache.ts";
import { idSuffix } from "../../ids.ts";
import { afterCommit } from "../../kv/after_commit.ts";
import { addToCounter, invertTime, updateAtomically } from "../../kv/atomic.ts";
import type { PostingLimits, RateLimited } from "../../limits/posting.ts";
import { admitPost } from "../../limits/admission.ts";
import { keys } from "../../kv/keys.ts";
import { authorOf } from "../../profile/profiles.ts";
import { recordEarnedBadges } from "../../profile/stats.ts";
import { invalidateReads } from "../read_cache.ts";
import { markAnswerOrderBuilt } from "../answer_order.ts";
import { indexMutations, indexOps, type IndexPlan, planQuestion } from "../../search/index.ts";
import { markEmbeddingPending } from "../../search/question_vectors.ts";
import { embedAfterWrite } from "../../search/embed_on_write.ts";
import { followInOp } from "../../notifications/notifications.ts";
import type { Restricted } from "../../moderation/sanctions.ts";
import { type Author, feedKey, normalizeTags, type QuestionRecord, tagKey } from "./model.ts";

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
  /** True when a new account asks it (its links carry `rel="ugc nofollow"`). */
  newAccount?: boolean;
}

/** Options of {@link createQuestion}. */
export interface CreateQuestionOptions {
  now?: number;
  /** Id prefix: `q-agent-` for the agent interface, `q-` otherwise. */
  idPrefix?: string;
  /**
   * Extra mutations committed in the same atomic op (e.g. the initial message of a
   * question created by the participation endpoint: `writeFirstMessage` of
   * ../messages/write.ts).
   */
  extra?: (op: Deno.AtomicOperation, question: QuestionRecord) => void;
}

/** The sequence numbers a new question takes: global and one per tag. */
export interface QuestionSeqs {
  seq: number;
  tagSeqs: Map<string, number>;
}

/**
 * Where a question's feed rows are, under `["question_seqs", id]`: its position in the
 * newest feed and in each tag's feed (edits and deletes move them).
 */
export interface QuestionSeqEntry {
  seq: number;
  tags: Record<string, number>;
}

/** The stored form of {@link QuestionSeqs}. */
export function seqEntryOf(seqs: QuestionSeqs): QuestionSeqEntry {
  return { seq: seqs.seq, tags: Object.fromEntries(seqs.tagSeqs) };
}

/**
 * Add a question and all its index rows to `op` (record, time/sequence/tag/author
 * indexes, its search postings as `search` planned them, total and per-author counters).
 * The caller allocates `seqs` and checks the heads it read; {@link createQuestion} does
 * both.
 */
export function writeQuestion(
  op: Deno.AtomicOperation,
  q: QuestionRecord,
  seqs: QuestionSeqs,
  search: IndexPlan,
): Deno.AtomicOperation {
  const inv = invertTime(q.createdAt);
  op.set(keys.question(q.id), q)
    .set(feedKey(q), q.id)
    .set(keys.questionBySeq(seqs.seq), q.id)
    .set(keys.questionByAuthor(q.author.id, inv, q.id), q.id);
  for (const [tag, seq] of seqs.tagSeqs) op.set(keys.questionByTag(tag, seq), q.id);
  op.set(keys.questionSeqs(q.id), seqEntryOf(seqs));
  indexOps(op, search, null);
  addToCounter(op, keys.counter("questions"), 1);
  addToCounter(op, keys.userStat(q.author.id, "questions"), 1);
  followInOp(op, q.id, q.author.id, q.createdAt); // the asker follows
  // Every post a person wrote, deleted ones included (their account's deletion finds it).
  op.set(keys.authored(q.author.id, "question", q.id), true);
  markAnswerOrderBuilt(op, q.id); // every answer will carry its `sort=votes` row
  markEmbeddingPending(op, q.id); // its vector for semantic search (lib/search/)
  return op;
}

/**
 * Create a question. The global and per-tag sequence heads are read, checked and moved
 * in the same op as the record, so sequences stay dense (page N of the feed stays one key
 * range, as cheap as page 1) and every index is written or none is.
 *
 * Contention: every create moves the one global head, so creates cannot run in parallel
 * without conflicting — measured with 3 processes × 90 writers, the per-create
 * read-check-commit loop retried so often that p99 reached ~2 s and some creates gave up
 * (500s). Creates are therefore numbered in batches per process: concurrent creates in
 * this process queue up, and one writer commits them a batch at a time — one read of the
 * heads, the next numbers handed out in arrival order, one atomic op for the batch (at
 * most {@link MAX_CREATES_PER_COMMIT} questions and KV's 10 checks), read and committed
 * again whole when another instance moved a head meanwhile. Only the instances contend on
 * the heads, not every request, and sequences stay dense and gap-free. (Not
 * lib/kv/group_commit.ts: there each item has its own key and a group that fails a check
 * splits into items alone; here every create moves the same heads, so alone they would
 * race for them again, and the numbers follow arrival order.)
 *
 * @example
 * ```ts
 * import type { Author } from "@/lib/community/questions/model.ts";
 * declare const author: Author;
 * declare const kv: Deno.Kv;
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
  if (input.newAccount) record.newAccount = true;
  // The search index's part of the op: which stems to keep is decided by reading the
  // dictionary now, before the op (a stale read only makes the choice slightly different).
  const search = await planQuestion(kv, record);
  const created = await queueCreate(kv, {
    record,
    search,
    extra: opts.extra,
  });
  // After the commit: nothing here may fail the request (the question exists).
  await afterCommit("question caches and badges", async () => {
    invalidateReads(kv); // the feed shows it on the next load
    await recordEarnedBadges(kv, record.author.id, now); // First Question
  });
  await embedAfterWrite(kv, created.id); // bounded, never throws; the job fills gaps
  return created;
}

/** Most questions numbered and committed in one op. */
export const MAX_CREATES_PER_COMMIT = 16;
/** KV's portable limit of checks per atomic op. */
const MAX_CHECKS = 10;
/** Mutations budget per op (KV allows 1000; a question with new words writes a few hundred). */
const MAX_MUTATIONS = 800;

interface PendingCreate {
  record: QuestionRecord;
  search: IndexPlan;
  /** Mutations only: the batch's checks are the sequence heads (≤ 10). */
  extra?: (op: Deno.AtomicOperation, question: QuestionRecord) => void;
  resolve: (q: QuestionRecord) => void;
  reject: (err: unknown) => void;
}

/** Each store's creates waiting for the writer, and whether it is running. */
const createQueues = perStore((): CreateQueue => ({ pending: [], running: false }));

interface CreateQueue {
  pending: PendingCreate[];
  running: boolean;
}

function queueCreate(
  kv: Deno.Kv,
  item: Omit<PendingCreate, "resolve" | "reject">,
): Promise<QuestionRecord> {
  const queue = createQueues(kv);
  const done = new Promise<QuestionRecord>((resolve, reject) => {
    queue.pending.push({ ...item, resolve, reject });
  });
  if (!queue.running) {
    queue.running = true;
    commitQueuedCreates(kv, queue).finally(() => (queue.running = false));
  }
  return done;
}

function mutationsOf(item: Pick<PendingCreate, "record" | "search">): number {
  // The fixed rows of writeQuestion (with the asker's follow index, its `authored` row and
  // the embedding marker), the search index's, and room for a first message's.
  return 12 + item.record.tags.length + indexMutations(item.search, null) + 4;
}

/** Number and commit queued creates, a batch at a time, until the queue is empty. */
async function commitQueuedCreates(kv: Deno.Kv, queue: CreateQueue): Promise<void> {
  while (queue.pending.length > 0) {
    const batch: PendingCreate[] = [];
    const headKeys = new Map<string, Deno.KvKey>([["", keys.questionSeqHead()]]);
    let mutations = 0;
    for (const item of queue.pending) {
      const tags = [...new Set(item.record.tags.map(tagKey))];
      const added = tags.filter((t) => !headKeys.has(t));
      const m = mutationsOf(item);
      if (batch.length > 0) {
        if (batch.length >= MAX_CREATES_PER_COMMIT || headKeys.size + added.length > MAX_CHECKS) {
          break;
        }
        if (mutations + m > MAX_MUTATIONS) break;
      }
      for (const t of added) headKeys.set(t, keys.tagSeqHead(t));
      mutations += m;
      batch.push(item);
    }
    queue.pending.splice(0, batch.length);
    try {
      await commitNumbered(kv, batch, headKeys);
      for (const item of batch) item.resolve(item.record);
    } catch (err) {
      if (batch.length === 1) {
        batch[0].reject(err);
        continue;
      }
      // One bad item must not fail its neighbours: retry each on its own.
      for (const item of batch) {
        const tags = new Map<string, Deno.KvKey>([["", keys.questionSeqHead()]]);
        for (const t of new Set(item.record.tags.map(tagKey))) tags.set(t, keys.tagSeqHead(t));
        try {
          await commitNumbered(kv, [item], tags);
          item.resolve(item.record);
        } catch (e) {
          item.reject(e);
        }
      }
    }
  }
}

/** One atomic op: read the heads, number the batch in order, write every question. */
async function commitNumbered(
  kv: Deno.Kv,
  batch: PendingCreate[],
  headKeys: Map<string, Deno.KvKey>,
): Promise<void> {
  const names = [...headKeys.keys()];
  await updateAtomically(async () => {
    const heads = await kv.getMany<number[]>([...headKeys.values()]);
    const op = kv.atomic();
    const next = new Map<string, number>();
    names.forEach((name, i) => {
      op.check(heads[i]);
      next.set(name, heads[i].value ?? 0);
    });
    for (const item of batch) {
      const seq = next.get("")! + 1;
      next.set("", seq);
      const tagSeqs = new Map<string, number>();
      for (const tag of new Set(item.record.tags.map(tagKey))) {
        const n = next.get(tag)! + 1;
        next.set(tag, n);
        tagSeqs.set(tag, n);
      }
      writeQuestion(op, item.record, { seq, tagSeqs }, item.search);
      item.extra?.(op, item.record);
    }
    op.set(keys.questionSeqHead(), next.get(""));
    for (const name of names) if (name) op.set(keys.tagSeqHead(name), next.get(name));
    return { op, result: undefined };
  });
}

/** A question as a user (or their agent) asks it: the author is looked up from `userId`. */
export type AskedQuestion = Omit<NewQuestion, "author"> & { userId: string };

/** The created question, `no_author` when the user has no profile, or over the limit. */
export type AskQuestionResult =
  | { ok: true; question: QuestionRecord }
  | { ok: false; reason: "no_author" }
  | RateLimited
  | Restricted;

/** Options of {@link askQuestion}: creation options plus the posting limits to spend from. */
export interface AskQuestionOptions extends CreateQuestionOptions {
  /** The user's posting limits (`config.limits`); absent = unlimited. */
  limits?: PostingLimits;
}

/**
 * Ask a question as a user or their agent: the author snapshot is taken from the user's
 * profile, one unit of the user's `questions` budget is spent (`rate_limited` when none
 * is left), then the question is created as by {@link createQuestion}.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await askQuestion(kv, { userId: "u1", title: "Why KV?", createdBy: "agent" });
 * if (r.ok) console.log(r.question.id);
 * ```
 */
export async function askQuestion(
  kv: Deno.Kv,
  { userId, ...input }: AskedQuestion,
  opts: AskQuestionOptions = {},
): Promise<AskQuestionResult> {
  const author = await authorOf(kv, userId);
  if (!author) return { ok: false, reason: "no_author" };
  const now = opts.now ?? Date.now();
  // A silenced or suspended person asks nothing (docs/interface.md#sanctions); a new
  // account asks under its daily limit too (docs/interface.md#new-accounts).
  const admitted = await admitPost(kv, opts.limits, "questions", userId, now);
  if (!admitted.ok) return admitted;
  const question = await createQuestion(kv, {
    ...input,
    author,
    newAccount: admitted.newAccount,
  }, { ...opts, now });
  return { ok: true, question };
}
