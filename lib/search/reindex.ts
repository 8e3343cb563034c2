/**
 * Keeping a question's search documents in step with its thread. A question's own text is
 * indexed in its create and edit ops (lib/community/questions/); everything else that
 * changes what is searchable — an answer written, edited, deleted, hidden or restored, the
 * question hidden, restored or deleted — marks the question in its own op
 * ({@link markForReindex}) and is reindexed right after the commit; the `search` job
 * (lib/search/job.ts) picks up whatever a crash left marked. A message written, edited,
 * hidden, restored or deleted past the thread's first {@link ANSWERS_READ} messages marks
 * nothing ({@link inSearchDocument}): the document does not read it. Searches read question
 * records before they answer, so a deleted or hidden question never shows in between.
 *
 * @module
 */
import { perStore } from "../cache.ts";
import { coalesce, coalescer } from "../coalesce.ts";
import { getAll, updateAtomically } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { isPublic } from "../community/visibility.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import type { MessageRecord } from "../community/messages/model.ts";
import {
  ANSWERS_READ,
  docKey,
  indexOps,
  planAnswers,
  planQuestion,
  type StoredDoc,
  unindexOps,
} from "./index.ts";

/**
 * Mark a question for reindexing inside the op of the change.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const op = kv.atomic();
 * markForReindex(op, "q-1", Date.now());
 * ```
 */
export function markForReindex(op: Deno.AtomicOperation, questionId: string, now: number): void {
  op.set(keys.searchDirty(questionId), now);
}

/**
 * The index rows of a thread's first {@link ANSWERS_READ} messages (answers and replies
 * alike, in time order): the only messages its search document is made of.
 */
function firstMessages(kv: Deno.Kv, questionId: string): Promise<Deno.KvEntry<string>[]> {
  return Array.fromAsync(kv.list<string>(
    { prefix: keys.questionMessagesPrefix(questionId) },
    { limit: ANSWERS_READ, batchSize: ANSWERS_READ },
  ));
}

/**
 * Whether message `m` is, or once written will be, among the messages its thread's search
 * document is made of: when it is not, reindexing the thread after writing, editing,
 * hiding, restoring or deleting it would read those records and change nothing (about half
 * of an answer's time on a long thread). A new message usually sorts last; it sorts earlier
 * only when its clock is behind that of the messages before it. Deleting a message past the
 * first ones removes no row the document reads, so it too leaves the document as it is.
 *
 * @example
 * ```ts
 * import type { MessageRecord } from "@/lib/community/messages/model.ts";
 * declare const kv: Deno.Kv;
 * declare const m: MessageRecord;
 * if (await inSearchDocument(kv, m)) console.log("reindex the thread after it");
 * ```
 */
export async function inSearchDocument(
  kv: Deno.Kv,
  m: Pick<MessageRecord, "id" | "questionId" | "createdAt">,
): Promise<boolean> {
  const first = await firstMessages(kv, m.questionId);
  if (first.length < ANSWERS_READ) return true;
  const [, , at, id] = first.at(-1)!.key as [string, string, number, string];
  return m.createdAt < at || (m.createdAt === at && m.id <= id);
}

/** The text of the first visible messages of a thread (answers and replies alike). */
async function threadTexts(kv: Deno.Kv, questionId: string): Promise<string[]> {
  const ids = (await firstMessages(kv, questionId)).map((e) => e.value);
  const texts: string[] = [];
  for (const e of await getAll<MessageRecord>(kv, ids.map(keys.message))) {
    if (e.value && isPublic(e.value)) texts.push(e.value.content);
  }
  return texts;
}

/**
 * Bring a question's two search documents in line with what others can see now: both
 * removed when it is deleted or hidden; its own text indexed if it has no document (a
 * restored or older question); its answers' text reindexed. Clears the question's mark
 * unless it was marked again meanwhile. Idempotent.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await reindexQuestion(kv, "q-1");
 * ```
 */
export async function reindexQuestion(kv: Deno.Kv, questionId: string): Promise<void> {
  await updateAtomically(async () => {
    const [q, own, answers, mark] = await kv.getMany<
      [QuestionRecord, StoredDoc, StoredDoc, number]
    >([
      keys.question(questionId),
      docKey("question", questionId),
      docKey("answers", questionId),
      keys.searchDirty(questionId),
    ]);
    const op = kv.atomic().check(q, own, answers, mark);
    if (!q.value || !isPublic(q.value)) {
      if (own.value) unindexOps(op, "question", questionId, own.value);
      if (answers.value) unindexOps(op, "answers", questionId, answers.value);
    } else {
      if (!own.value) indexOps(op, await planQuestion(kv, q.value), null);
      const plan = await planAnswers(kv, questionId, await threadTexts(kv, questionId));
      if (plan) indexOps(op, plan, answers.value);
      else if (answers.value) unindexOps(op, "answers", questionId, answers.value);
    }
    if (mark.value !== null) op.delete(keys.searchDirty(questionId));
    return { op, result: undefined };
  });
}

/** Each store's coalesced reindex runs: a crowd of answers to one question costs ~2 runs. */
const runs = perStore((kv) => coalescer<true>((questionId) => reindexQuestion(kv, questionId)));

/**
 * Reindex a question after a change committed, sharing the run with concurrent changes to
 * the same question in this process; resolves when a run that started after the call ends.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await reindexSoon(kv, "q-1");
 * ```
 */
export function reindexSoon(kv: Deno.Kv, questionId: string): Promise<void> {
  return coalesce(runs(kv), questionId, true);
}
