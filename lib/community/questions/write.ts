/**
 * Questions, the writes: a new question with every index (record, time, sequence, tag,
 * term and author rows, counters) in one atomic op.
 *
 * @module
 */
import { idSuffix } from "../../ids.ts";
import { addToCounter, invertTime, updateAtomically } from "../../kv/atomic.ts";
import { keys } from "../../kv/keys.ts";
import { authorOf } from "../../profile/profiles.ts";
import { recordEarnedBadges } from "../../profile/stats.ts";
import { invalidateReads } from "../read_cache.ts";
import { questionTerms } from "../search_terms.ts";
import {
  type Author,
  feedKey,
  normalizeTags,
  type QuestionRecord,
  snapshotOf,
  tagKey,
} from "./model.ts";

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

/** A question as a user (or their agent) asks it: the author is looked up from `userId`. */
export type AskedQuestion = Omit<NewQuestion, "author"> & { userId: string };

/** The created question, or `no_author` when the user has no profile. */
export type AskQuestionResult =
  | { ok: true; question: QuestionRecord }
  | { ok: false; reason: "no_author" };

/**
 * Ask a question as a user or their agent: the author snapshot is taken from the user's
 * profile, then the question is created as by {@link createQuestion}.
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
  opts: CreateQuestionOptions = {},
): Promise<AskQuestionResult> {
  const author = await authorOf(kv, userId);
  if (!author) return { ok: false, reason: "no_author" };
  return { ok: true, question: await createQuestion(kv, { ...input, author }, opts) };
}
