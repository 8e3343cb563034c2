/**
 * The vote-ordered answer index: `?sort=votes` reads one
 * page of keys at any thread size instead of every answer's counters.
 *
 * Rows: `["answers_by_score", questionId, 0 − score, createdAt, id]`, one per top-level
 * answer (score = up − down), so listing the prefix gives docs/interface.md#threads's order after the
 * accepted answer: most votes first, ties oldest first (then by id). The accepted answer
 * keeps its row; the reader ({@link pageOfAnswerOrder}) puts it first and skips it below.
 * Replies have no row. A hidden answer keeps its row (its score cannot move while hidden:
 * hidden posts take no votes), so the index holds exactly the answers of the question's
 * time index (`question_answers`), and the reader filters hidden ones per viewer as it
 * does for every order; a "[deleted]" placeholder (an answer deleted with replies) keeps
 * its row too; an answer deleted without replies loses it in the delete's own op.
 *
 * Exact under concurrency: every row has a pointer `["answer_score", messageId]` holding
 * the score its row is filed under (`"removed"` once the answer is deleted). Every op that
 * changes an answer's score or existence carries a `check` on the pointer as it was read,
 * deletes the row the pointer names and writes the new row and pointer
 * ({@link moveAnswerScore}, {@link removeFromAnswerOrder}); two writers that read the
 * same pointer cannot both commit, so there is never a second row nor a stale one, and the
 * row moves exactly once per net change. The vote counters themselves still move with
 * `sum` (never read in the op): the pointer is the score those sums add up to, because
 * every op that moves an answer's counters moves its pointer by the same net amount in the
 * same op (lib/community/votes.ts). A group of votes (lib/kv/group_commit.ts) moves each
 * answer's row once by the group's net change; its base is the freshest pointer it knows —
 * read by its votes, or the one the previous group on that answer committed (groups on one
 * answer never overlap in flight: the answer is their lane, {@link committedScores}
 * remembers what each wrote, with its versionstamp); a pointer moved by anyone else fails
 * the check and the votes read again. An answer whose pointer was never written (a thread
 * older than the index, not yet backfilled) starts from its counters as read in the same
 * snapshot, with a check that the pointer is still absent.
 *
 * New questions are marked built (`["answers_by_score_built", id]`, with the question);
 * older ones get their rows from {@link backfillAnswerOrder} (resumable, bounded batches)
 * and, until then, `sort=votes` ranks every answer from its counters (lib/community/
 * thread.ts) — slower, never a wrong order.
 *
 * @module
 */
import { commit, counterValue, updateAtomically } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";

/** What `["answer_score", messageId]` holds: its row's score, or `"removed"` (deleted). */
export type ScorePointer = number | "removed";

/** The fields of an answer its row is keyed by. */
export interface AnswerRef {
  id: string;
  questionId: string;
  createdAt: number;
}

/** The row of `a` filed under `score` (`0 − score`: most votes first, and never `-0`). */
function rowKey(a: AnswerRef, score: number): Deno.KvKey {
  return keys.answerByScore(a.questionId, 0 - score, a.createdAt, a.id);
}

/**
 * Add a new top-level answer's row (score 0) and pointer to `op`: the answer's own
 * creation op (lib/community/messages.ts `writeMessage`). Nothing to check: the id is new.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const op = kv.atomic();
 * indexNewAnswer(op, { id: "msg-1", questionId: "q-1", createdAt: Date.now() });
 * ```
 */
export function indexNewAnswer(op: Deno.AtomicOperation, a: AnswerRef): void {
  op.set(keys.answerScore(a.id), 0 satisfies ScorePointer).set(rowKey(a, 0), true);
}

/**
 * Mark a question's rows complete (in the op that creates it, or when the backfill ends).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const op = kv.atomic();
 * markAnswerOrderBuilt(op, "q-1");
 * ```
 */
export function markAnswerOrderBuilt(op: Deno.AtomicOperation, questionId: string): void {
  op.set(keys.answersByScoreBuilt(questionId), true);
}

/** Where an answer's score stands: the pointer as read (its check), and the score. */
export interface ScoreBase {
  pointer: Deno.KvEntryMaybe<ScorePointer>;
  score: number;
}

/**
 * The base a score change starts from: the pointer's score, or — when the pointer was
 * never written (an answer older than the index) — the counters read in the same
 * snapshot as the pointer. Null when the answer is removed.
 *
 * @example
 * ```ts
 * declare const pointer: Deno.KvEntryMaybe<ScorePointer>;
 * const base = scoreBase(pointer, { up: 3, down: 1 }); // { pointer, score: 2 } if unwritten
 * ```
 */
export function scoreBase(
  pointer: Deno.KvEntryMaybe<ScorePointer>,
  counts: { up: number; down: number },
): ScoreBase | null {
  if (pointer.value === "removed") return null;
  if (pointer.versionstamp === null) return { pointer, score: counts.up - counts.down };
  return { pointer, score: pointer.value as number };
}

/**
 * Move an answer's row by `delta` (its vote counters' net change in the same op): check
 * the pointer as read, delete the row it names (if any), write the new row and pointer.
 * A zero delta writes and checks nothing (concurrent moves commute with it). Returns the
 * score after the op.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const base: ScoreBase;
 * const a = { id: "msg-1", questionId: "q-1", createdAt: 1 };
 * const op = kv.atomic();
 * const next = moveAnswerScore(op, a, base, +1);
 * ```
 */
export function moveAnswerScore(
  op: Deno.AtomicOperation,
  a: AnswerRef,
  base: ScoreBase,
  delta: number,
): number {
  if (delta === 0) return base.score;
  op.check(base.pointer);
  if (base.pointer.versionstamp !== null) op.delete(rowKey(a, base.score));
  const next = base.score + delta;
  op.set(keys.answerScore(a.id), next satisfies ScorePointer).set(rowKey(a, next), true);
  return next;
}

/**
 * Take a deleted answer out of the order, in the delete's op: check the pointer as read,
 * delete its row, leave the pointer `"removed"` (so a vote that read no pointer cannot
 * write a row for the deleted answer: its check of an absent pointer fails).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const a = { id: "msg-1", questionId: "q-1", createdAt: 1 };
 * const pointer = await kv.get<ScorePointer>(["answer_score", a.id]);
 * removeFromAnswerOrder(kv.atomic(), a, pointer);
 * ```
 */
export function removeFromAnswerOrder(
  op: Deno.AtomicOperation,
  a: AnswerRef,
  pointer: Deno.KvEntryMaybe<ScorePointer>,
): void {
  op.check(pointer);
  if (typeof pointer.value === "number") op.delete(rowKey(a, pointer.value));
  op.set(keys.answerScore(a.id), "removed" satisfies ScorePointer);
}

/**
 * The first `limit` answer ids of a question in score order (the accepted one among them
 * where its score puts it): one bounded `list` of keys.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const ids = await listAnswerOrder(kv, "q-1", 31);
 * ```
 */
export async function listAnswerOrder(
  kv: Deno.Kv,
  questionId: string,
  limit: number,
): Promise<string[]> {
  const ids: string[] = [];
  const iter = kv.list({ prefix: keys.answersByScorePrefix(questionId) }, {
    limit,
    batchSize: Math.min(limit, 500),
  });
  for await (const e of iter) ids.push(e.key[4] as string);
  return ids;
}

/**
 * How many rows {@link pageOfAnswerOrder} needs for page `page` of `perPage`: the rows
 * before and on the page, plus one in case the accepted answer is among them.
 *
 * @example
 * ```ts
 * rowsForPage(1, 30); // 31
 * ```
 */
export function rowsForPage(page: number, perPage: number): number {
  return page * perPage + 1;
}

/**
 * Page `page` of the `sort=votes` order from the first {@link rowsForPage} rows: the
 * accepted answer first (on page 1), then the rows without it.
 *
 * @example
 * ```ts
 * pageOfAnswerOrder(["a", "b", "c"], "b", 1, 2); // ["b", "a"]
 * pageOfAnswerOrder(["a", "b", "c"], "b", 2, 2); // ["c"]
 * ```
 */
export function pageOfAnswerOrder(
  rows: string[],
  accepted: string | null,
  page: number,
  perPage: number,
): string[] {
  const order = accepted ? [accepted, ...rows.filter((id) => id !== accepted)] : rows;
  return order.slice((page - 1) * perPage, page * perPage);
}

/** The last score a store's vote groups wrote per answer, with its versionstamp. */
export interface CommittedScores {
  /** The pointer entry last committed for an answer by this process's groups. */
  pointerOf(id: string): Deno.KvEntryMaybe<ScorePointer> | null;
  /** Record a committed pointer. */
  record(id: string, score: number, versionstamp: string): void;
  /** Forget an answer (its pointer is being moved outside the groups). */
  forget(id: string): void;
}

/** Most answers remembered per store (the oldest are forgotten first). */
const REMEMBERED = 10_000;

/**
 * The pointers this process's vote groups committed, per answer: the next group on an
 * answer starts from the freshest of these and its votes' own reads (by versionstamp),
 * so a crowd's consecutive groups on one answer need no read of their own. Anything
 * stale only fails a check (the votes then read again), never writes a wrong row.
 *
 * @example
 * ```ts
 * const scores = committedScores();
 * scores.record("msg-1", 4, "00000000000000010000");
 * scores.pointerOf("msg-1")?.value; // 4
 * ```
 */
export function committedScores(): CommittedScores {
  const seen = new Map<string, { score: number; versionstamp: string }>();
  return {
    pointerOf(id) {
      const s = seen.get(id);
      return s ? { key: keys.answerScore(id), value: s.score, versionstamp: s.versionstamp } : null;
    },
    record(id, score, versionstamp) {
      seen.delete(id);
      seen.set(id, { score, versionstamp });
      if (seen.size > REMEMBERED) seen.delete(seen.keys().next().value!);
    },
    forget(id) {
      seen.delete(id);
    },
  };
}

/**
 * The freshest of some reads of one answer's pointer (the highest versionstamp; a never
 * written pointer only when no read found one), with the counts read beside it.
 *
 * @example
 * ```ts
 * declare const a: Deno.KvEntryMaybe<ScorePointer>;
 * declare const b: Deno.KvEntryMaybe<ScorePointer>;
 * const base = freshestBase([{ pointer: a, counts: { up: 1, down: 0 } }, {
 *   pointer: b,
 *   counts: { up: 2, down: 0 },
 * }]);
 * ```
 */
export function freshestBase(
  reads: { pointer: Deno.KvEntryMaybe<ScorePointer>; counts: { up: number; down: number } }[],
): ScoreBase | null {
  let best = reads[0];
  for (const r of reads) {
    const b = best.pointer.versionstamp;
    const v = r.pointer.versionstamp;
    if (v !== null && (b === null || v > b)) best = r;
  }
  return scoreBase(best.pointer, best.counts);
}

/** Progress of {@link backfillAnswerOrder}. */
export interface BackfillProgress {
  /** True once every answer has its row and the question is marked built. */
  done: boolean;
  /** Where the next call continues (null when done). */
  cursor: string | null;
  /** Answers given a row by this call. */
  indexed: number;
}

/** Answers whose pointer and counters one `getMany` reads (3 keys each, one snapshot). */
const PER_READ = 3;
/** Answers per backfill op (one check and two sets each). */
const PER_OP = 30;

/**
 * Build a question's score rows from its answers (a question older than the index): up
 * to `limit` answers of its time index per call, from `cursor` (null: the start), each
 * without a pointer given its row from its counters — read with the pointer in one
 * snapshot and written under a check that the pointer is still absent, so a vote or
 * delete meanwhile makes that batch read again. Answers that have a pointer (written
 * since the index, or by an earlier run) are skipped, so a repeated or interrupted run is
 * harmless. When the time index is exhausted the question is marked built: `sort=votes`
 * then reads the rows. Call until `done`.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * let p = await backfillAnswerOrder(kv, "q-1");
 * while (!p.done) p = await backfillAnswerOrder(kv, "q-1", { cursor: p.cursor });
 * ```
 */
export async function backfillAnswerOrder(
  kv: Deno.Kv,
  questionId: string,
  { cursor = null, limit = 300 }: { cursor?: string | null; limit?: number } = {},
): Promise<BackfillProgress> {
  const answers: AnswerRef[] = [];
  const iter = kv.list<string>({ prefix: keys.questionAnswersPrefix(questionId) }, {
    limit,
    cursor: cursor ?? undefined,
    batchSize: Math.min(limit, 500),
  });
  for await (const e of iter) {
    answers.push({ id: e.value, questionId, createdAt: e.key[2] as number });
  }
  let indexed = 0;
  for (let i = 0; i < answers.length; i += PER_OP) {
    indexed += await backfillBatch(kv, answers.slice(i, i + PER_OP));
  }
  if (answers.length === limit) return { done: false, cursor: iter.cursor, indexed };
  await commit(kv, (op) => op.set(keys.answersByScoreBuilt(questionId), true));
  return { done: true, cursor: null, indexed };
}

/** Rows for the answers of one batch that have no pointer; retried while a check fails. */
async function backfillBatch(kv: Deno.Kv, batch: AnswerRef[]): Promise<number> {
  return await updateAtomically(async () => {
    const reads = await Promise.all(
      chunks(batch, PER_READ).map((c) =>
        kv.getMany<unknown[]>(c.flatMap((a) => [
          keys.answerScore(a.id),
          keys.voteCount("message", a.id, "up"),
          keys.voteCount("message", a.id, "down"),
        ]))
      ),
    );
    const got = reads.flat();
    const op = kv.atomic();
    let n = 0;
    batch.forEach((a, i) => {
      const pointer = got[3 * i] as Deno.KvEntryMaybe<ScorePointer>;
      if (pointer.versionstamp !== null) return;
      const score = counterValue(got[3 * i + 1].value) - counterValue(got[3 * i + 2].value);
      op.check(pointer).set(keys.answerScore(a.id), score satisfies ScorePointer)
        .set(rowKey(a, score), true);
      n++;
    });
    return { op: n ? op : null, result: n };
  });
}

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
