/**
 * Questions, the model: record and view types, the limits of question fields, and the pure
 * helpers that shape them (tags, snapshots, list items). Vote counts, message counts and
 * voter lists live under their own keys (see lib/kv/keys.ts) and are joined in when a
 * question is served (./read.ts).
 *
 * @module
 */
import { invertTime } from "../../kv/atomic.ts";
import { keys } from "../../kv/keys.ts";
import { TAGS_KEPT } from "../../input_limits.ts";

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
  /** Unix ms of the last edit (lib/community/questions/edit.ts); absent if never edited. */
  editedAt?: number;
  /** Revisions so far (1 = never edited); absent means 1. See lib/community/revisions.ts. */
  revision?: number;
  /** Soft delete (lib/community/questions/delete.ts): when, and by whom. */
  deletedAt?: number;
  deletedBy?: string;
  /** Hidden by moderation (lib/moderation/): 404 to all but its author and moderators. */
  hiddenAt?: number;
  /**
   * Written by a new account (docs/interface.md#new-accounts): its links carry
   * `rel="ugc nofollow"`. Absent otherwise.
   */
  newAccount?: true;
}

/**
 * The fields of a question a feed summary is made of (a {@link QuestionRecord} has them
 * all). Stores written before compact storage 3 kept this copy as the value of each
 * `["questions_by_seq", seq]` row ({@link snapshotOf}); rows now hold the question's id
 * ({@link seqRowId}) and feeds read the record.
 */
export type QuestionSnapshot = Pick<
  QuestionRecord,
  | "id"
  | "title"
  | "description"
  | "tags"
  | "author"
  | "createdBy"
  | "createdAt"
  | "editedAt"
  | "newAccount"
>;

/**
 * The copy of a record older stores kept in its newest-feed row (what the compaction
 * migration, lib/ops/compact.ts, rewrites to the id; tests write it to make such stores).
 *
 * @example
 * ```ts
 * import type { QuestionRecord } from "@/lib/community/questions/model.ts";
 * declare const q: QuestionRecord;
 * snapshotOf(q).id === q.id; // true
 * ```
 */
export function snapshotOf(q: QuestionRecord): QuestionSnapshot {
  const s: QuestionSnapshot = {
    id: q.id,
    title: q.title,
    description: q.description,
    tags: q.tags,
    author: q.author,
    createdBy: q.createdBy,
    createdAt: q.createdAt,
  };
  if (q.editedAt !== undefined) s.editedAt = q.editedAt;
  if (q.newAccount) s.newAccount = true;
  return s;
}

/**
 * The id of the question a newest-feed row (`["questions_by_seq", seq]`) names: the row's
 * value, or — in a store written before compact storage 3, until the compaction migration
 * rewrites it — the `id` of the {@link snapshotOf} copy it holds. Null for anything else.
 *
 * @example
 * ```ts
 * seqRowId("q-1"); // "q-1"
 * seqRowId({ id: "q-1", title: "…" }); // "q-1" (the older shape)
 * seqRowId(7); // null
 * ```
 */
export function seqRowId(value: unknown): string | null {
  if (typeof value === "string") return value;
  const id = (value as { id?: unknown } | null)?.id;
  return typeof value === "object" && typeof id === "string" ? id : null;
}

/** An item of the agent list (docs/interface.md#agent-api: only these fields). */
export interface QuestionListItem {
  id: string;
  title: string;
  description: string;
  tags: string[];
  upvotes: number;
  messageCount: number;
  createdAt: number;
}

/**
 * An item of the people feed: the list item plus what a feed shows. `answerCount` is the
 * one definition of "answers" (top-level messages; replies are messages with `replyTo`,
 * `messageCount` stays docs/interface.md#agent-api's whole-thread count).
 */
export interface QuestionSummary extends QuestionListItem {
  downvotes: number;
  author: Author;
  createdBy: "user" | "agent";
  answerCount: number;
  acceptedMessageId: string | null;
  editedAt: number | null;
  /** Written by a new account (its links carry `rel="ugc nofollow"`). */
  newAccount?: true;
}

/** A full question (docs/interface.md#question-fields) plus the lifecycle fields (docs/interface.md#agent-api). */
export interface QuestionView extends Omit<QuestionRecord, "editedAt" | "revision"> {
  upvotes: number;
  downvotes: number;
  likedBy: string[];
  dislikedBy: string[];
  messageCount: number;
  answerCount: number;
  acceptedMessageId: string | null;
  editedAt: number | null;
}

/**
 * Tags as docs/interface.md#agent-api stores them ("each tag is trimmed, empty ones dropped, and only the first
 * 5 kept"), in their one canonical form ({@link tagKey}: NFKC, lower case, inner
 * whitespace runs joined by "-"), repeats dropped BEFORE the first 5 are taken — so
 * `["Deno", "deno", "kv"]` keeps both distinct tags. Any number may be sent.
 *
 * @example
 * ```ts
 * normalizeTags([" Deno ", "", "deno", "Deno KV"]); // ["deno", "deno-kv"]
 * ```
 */
export function normalizeTags(tags: readonly string[] | undefined): string[] {
  const out: string[] = [];
  for (const raw of tags ?? []) {
    const t = tagKey(raw);
    if (!t || out.includes(t)) continue;
    out.push(t);
    if (out.length === TAGS_KEPT) break;
  }
  return out;
}

/**
 * The canonical form of a tag, used for storage, indexes, links and filters: NFKC,
 * trimmed, lower case, inner whitespace runs replaced by one "-".
 *
 * @example
 * ```ts
 * tagKey("  Deno   KV "); // "deno-kv"
 * ```
 */
export function tagKey(tag: string): string {
  return tag.normalize("NFKC").trim().toLowerCase().replace(/\s+/g, "-");
}

/** Index key of a question in the newest-first time feed. */
export function feedKey(q: Pick<QuestionRecord, "id" | "createdAt">): Deno.KvKey {
  return keys.questionByTime(invertTime(q.createdAt), q.id);
}

/** Just the fields of the agent list (docs/interface.md#agent-api). */
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
