/**
 * Revisions of edited questions and messages (docs/interface.md#content-lifecycle). Numbering: revision N is the
 * state after N − 1 edits — revision 1 is the original, and the newest revision is always
 * the current text. One key per revision (`["revisions", targetType, targetId, N]`), each
 * a full snapshot of the editable fields (never a diff), written in the edit's atomic op.
 * Nothing is written at creation: the first edit writes revision 1 (the original, dated
 * at the post's creation, by its author) together with revision 2, so an item never
 * edited has no rows and its one revision is its record.
 *
 * @module
 */
import { isLookupId, keys } from "../kv/keys.ts";
import type { TargetType } from "./targets.ts";

/** Who made a revision. */
export interface RevisionAuthor {
  id: string;
  name: string;
}

/** One version of a question (title, description, tags) or a message (content). */
export interface RevisionRecord {
  revision: number;
  editedAt: number;
  editedBy: RevisionAuthor;
  title?: string;
  description?: string;
  tags?: string[];
  content?: string;
}

/** The editable fields of a target, as a revision keeps them. */
export type RevisionFields = Pick<RevisionRecord, "title" | "description" | "tags" | "content">;

/** What a versioned record carries: its revision count and original author and time. */
export interface Versioned {
  id: string;
  revision?: number;
  createdAt: number;
  editedAt?: number;
  author: { id: string; name: string };
}

/**
 * Add to `op` the revision rows of an edit from `prev` to `next` (whose `revision` is
 * already `prev.revision + 1`): revision 1 from `prev` when this is the first edit, and
 * the new revision.
 */
export function writeRevisions(
  op: Deno.AtomicOperation,
  targetType: TargetType,
  prev: Versioned,
  prevFields: RevisionFields,
  next: { revision: number; editedAt: number },
  nextFields: RevisionFields,
  editedBy: RevisionAuthor,
): Deno.AtomicOperation {
  if ((prev.revision ?? 1) === 1) {
    op.set(
      keys.revision(targetType, prev.id, 1),
      {
        revision: 1,
        editedAt: prev.createdAt,
        editedBy: { id: prev.author.id, name: prev.author.name },
        ...prevFields,
      } satisfies RevisionRecord,
    );
  }
  return op.set(
    keys.revision(targetType, prev.id, next.revision),
    {
      revision: next.revision,
      editedAt: next.editedAt,
      editedBy,
      ...nextFields,
    } satisfies RevisionRecord,
  );
}

/** Most revisions one listing returns (newest first). */
export const MAX_REVISIONS_LISTED = 100;

/**
 * The revisions of a target, newest first; a never-edited target has one, its record.
 *
 * @example
 * ```ts
 * import type { QuestionRecord } from "@/lib/community/questions/model.ts";
 * declare const kv: Deno.Kv;
 * declare const q: QuestionRecord;
 * const revs = await listRevisions(kv, "question", q, {
 *   title: q.title,
 *   description: q.description,
 *   tags: q.tags,
 * });
 * revs[0].revision; // the current one
 * ```
 */
export async function listRevisions(
  kv: Deno.Kv,
  targetType: TargetType,
  record: Versioned,
  currentFields: RevisionFields,
): Promise<RevisionRecord[]> {
  const out: RevisionRecord[] = [];
  if (isLookupId(record.id)) {
    const iter = kv.list<RevisionRecord>(
      { prefix: keys.revisionsPrefix(targetType, record.id) },
      { reverse: true, limit: MAX_REVISIONS_LISTED },
    );
    for await (const e of iter) out.push(e.value);
  }
  if (out.length > 0) return out;
  return [{
    revision: 1,
    editedAt: record.createdAt,
    editedBy: { id: record.author.id, name: record.author.name },
    ...currentFields,
  }];
}
