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
import { TAGS_KEPT } from "../../shared.ts";

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
