/**
 * Where a question's feed rows are. Questions written now carry `["question_seqs", id]`
 * (./write.ts); for older ones the positions are found once by scanning the feeds (a
 * fallback for existing data only — the edit or delete that needs it then stores them).
 * Edits and deletes read the record and its positions with {@link readQuestionToChange}.
 *
 * @module
 */
import { keys } from "../../kv/keys.ts";
import { type QuestionRecord, seqRowId, tagKey } from "./model.ts";
import type { QuestionSeqEntry } from "./write.ts";

/** A question read for an edit or a delete: its entry (to check), record and positions entry. */
export interface QuestionToChange {
  ok: true;
  cur: Deno.KvEntry<QuestionRecord>;
  q: QuestionRecord;
  seqsEntry: Deno.KvEntryMaybe<QuestionSeqEntry>;
}

/**
 * Read the question `questionId` and its feed positions for a change by `userId`: absent
 * or deleted is `question_not_found`; someone other than its author (unless `moderator`)
 * is refused with `denied`.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await readQuestionToChange(kv, { questionId: "q-1", userId: "u_1" }, "not_author");
 * if (r.ok) r.q.title;
 * ```
 */
export async function readQuestionToChange<D extends string>(
  kv: Deno.Kv,
  input: { questionId: string; userId: string; moderator?: boolean },
  denied: D,
): Promise<QuestionToChange | { ok: false; reason: "question_not_found" | D }> {
  const [cur, seqsEntry] = await kv.getMany<[QuestionRecord, QuestionSeqEntry]>([
    keys.question(input.questionId),
    keys.questionSeqs(input.questionId),
  ]);
  const q = cur.value;
  if (!q || q.deletedAt !== undefined) return { ok: false, reason: "question_not_found" };
  if (q.author.id !== input.userId && !input.moderator) return { ok: false, reason: denied };
  return { ok: true, cur: cur as Deno.KvEntry<QuestionRecord>, q, seqsEntry };
}

/** Longest scan of one feed when looking for an old question's position. */
const LEGACY_SCAN = 100_000;

/**
 * The feed positions of a question written before `question_seqs` existed (0 / absent
 * when not found).
 *
 * @example
 * ```ts
 * import type { QuestionRecord } from "@/lib/community/questions/model.ts";
 * declare const kv: Deno.Kv;
 * declare const q: QuestionRecord;
 * const { seq, tags } = await findSeqEntry(kv, q);
 * ```
 */
export async function findSeqEntry(kv: Deno.Kv, q: QuestionRecord): Promise<QuestionSeqEntry> {
  let seq = 0;
  let n = 0;
  for await (
    const e of kv.list({ prefix: keys.questionsBySeqPrefix() }, { reverse: true })
  ) {
    if (seqRowId(e.value) === q.id) {
      seq = e.key[1] as number;
      break;
    }
    if (++n >= LEGACY_SCAN) break;
  }
  const tags: Record<string, number> = {};
  for (const tag of new Set(q.tags.map(tagKey))) {
    n = 0;
    for await (
      const e of kv.list<string>({ prefix: keys.questionsByTagPrefix(tag) }, { reverse: true })
    ) {
      if (e.value === q.id) {
        tags[tag] = e.key[2] as number;
        break;
      }
      if (++n >= LEGACY_SCAN) break;
    }
  }
  return { seq, tags };
}
