/**
 * Editing a question (docs/interface.md#content-lifecycle): the author changes its title, description or tags.
 * One atomic op rewrites the record (under a check), the feed snapshot at its sequence
 * position, the search postings (old terms out, new ones in), and the tag feeds: a
 * dropped tag's row is removed (a hole, ./holes.ts), an added tag takes the next
 * position of that tag's feed under a check of its head — so a question given a tag by an
 * edit shows as the newest of that tag. The previous version is kept as a revision
 * (../revisions.ts). Markdown is rendered per request (no HTML cache to drop); the feed's
 * short read cache is dropped after the commit.
 *
 * @module
 */
import { type Restricted, restriction } from "../../moderation/sanctions.ts";
import { afterCommit } from "../../kv/after_commit.ts";
import { updateAtomically } from "../../kv/atomic.ts";
import { isLookupId, keys } from "../../kv/keys.ts";
import { invalidateReads } from "../read_cache.ts";
import { writeRevisions } from "../revisions.ts";
import { isPublic } from "../visibility.ts";
import { docKey, indexOps, planQuestion, type StoredDoc } from "../../search/index.ts";
import { markEmbeddingPending } from "../../search/question_vectors.ts";
import { embedAfterWrite } from "../../search/embed_on_write.ts";
import { addHole, tagFeed } from "./holes.ts";
import { normalizeTags, type QuestionRecord, tagKey } from "./model.ts";
import { findSeqEntry, readQuestionToChange } from "./seqs.ts";
import { bumpQuestion } from "./version.ts";
import type { QuestionSeqEntry } from "./write.ts";

/** The fields an edit may change (absent = unchanged). */
export interface QuestionEdit {
  title?: string;
  description?: string;
  tags?: string[];
}

/** The outcome of an edit. */
export type EditQuestionResult =
  | { ok: true; question: QuestionRecord }
  | { ok: false; reason: "question_not_found" | "not_author" }
  | Restricted;

/**
 * Edit a question as `userId` (its author only). An edit that changes nothing writes
 * nothing (no revision).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await editQuestion(kv, { questionId: "q-1", userId: "u_1", edit: { tags: ["deno"] } });
 * if (r.ok) r.question.editedAt;
 * ```
 */
export async function editQuestion(
  kv: Deno.Kv,
  input: { questionId: string; userId: string; edit: QuestionEdit },
  { now = Date.now() }: { now?: number } = {},
): Promise<EditQuestionResult> {
  if (!isLookupId(input.questionId)) return { ok: false, reason: "question_not_found" };
  // A silenced or suspended author edits nothing (docs/interface.md#sanctions).
  const restricted = await restriction(kv, input.userId, now);
  if (restricted) return restricted;
  const result = await updateAtomically<EditQuestionResult>(async () => {
    const read = await readQuestionToChange(kv, input, "not_author");
    if (!read.ok) return { op: null, result: read };
    const { cur, q, seqsEntry } = read;
    const { edit } = input;
    const title = edit.title?.trim() ?? q.title;
    const description = edit.description?.trim() ?? q.description;
    const tags = edit.tags ? normalizeTags(edit.tags) : q.tags;
    if (
      title === q.title && description === q.description &&
      tags.join("\u0000") === q.tags.join("\u0000")
    ) {
      return { op: null, result: { ok: true, question: q } };
    }
    const revision = (q.revision ?? 1) + 1;
    const next: QuestionRecord = { ...q, title, description, tags, editedAt: now, revision };
    const seqs = seqsEntry.value ?? await findSeqEntry(kv, q);
    const op = kv.atomic().check(cur, seqsEntry).set(keys.question(q.id), next);
    bumpQuestion(op, q.id); // live question page
    markEmbeddingPending(op, q.id); // re-embedded after the commit (lib/search/)

    // Search postings: only the difference from the stored document, in this op. A hidden
    // question has none; it is indexed again when restored (lib/search/reindex.ts).
    if (isPublic(next)) {
      const [stored, plan] = await Promise.all([
        kv.get<StoredDoc>(docKey("question", q.id)),
        planQuestion(kv, next),
      ]);
      op.check(stored);
      indexOps(op, plan, stored.value);
    }

    // Tag feeds: a dropped tag leaves a hole, an added tag takes its feed's next position.
    // A hidden question is in no feed: its positions are holes already, and a new one
    // starts as a hole, which its restore fills (./listing.ts).
    const listed = isPublic(q);
    const oldTags = new Set(q.tags.map(tagKey));
    const newTags = new Set(next.tags.map(tagKey));
    const tagSeqs: Record<string, number> = { ...seqs.tags };
    for (const t of oldTags) {
      if (newTags.has(t) || tagSeqs[t] === undefined) continue;
      if (listed) {
        op.delete(keys.questionByTag(t, tagSeqs[t]));
        addHole(op, tagFeed(t), tagSeqs[t], q.id);
      }
      delete tagSeqs[t];
    }
    const added = [...newTags].filter((t) => !oldTags.has(t));
    const heads = await kv.getMany<number[]>(added.map(keys.tagSeqHead));
    added.forEach((t, i) => {
      const seq = (heads[i].value ?? 0) + 1;
      op.check(heads[i]).set(keys.tagSeqHead(t), seq);
      if (listed) op.set(keys.questionByTag(t, seq), q.id);
      else addHole(op, tagFeed(t), seq, q.id);
      tagSeqs[t] = seq;
    });
    op.set(keys.questionSeqs(q.id), { seq: seqs.seq, tags: tagSeqs } satisfies QuestionSeqEntry);

    writeRevisions(
      op,
      "question",
      q,
      { title: q.title, description: q.description, tags: q.tags },
      { revision, editedAt: now },
      { title, description, tags },
      { id: q.author.id, name: q.author.name },
    );
    return { op, result: { ok: true, question: next } };
  });
  if (result.ok) await afterCommit("question edit caches", () => invalidateReads(kv));
  if (result.ok) await embedAfterWrite(kv, input.questionId); // bounded, never throws
  return result;
}
