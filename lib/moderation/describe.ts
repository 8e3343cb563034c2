/**
 * Words for moderators: how many posts wait in the queue (the header's "Moderation" link)
 * and what each logged post is (its kind, its question's title, an excerpt) instead of an
 * internal id.
 *
 * @module
 */
import { keys } from "../kv/keys.ts";
import { excerpt } from "../text/excerpt.ts";
import type { MessageRecord } from "../community/messages/model.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import type { ModLogEntry } from "./moderation.ts";

/** What a post is, in words: a question, an answer, or a reply to an answer. */
export type PostKind = "question" | "answer" | "reply";

/** A logged post described for a person. */
export interface PostDescription {
  kind: PostKind;
  questionTitle: string;
  excerpt: string;
}

// Every page's header shows a moderator the queue's size: it lives apart, so the
// middleware does not load moderation (and with it search and Markdown).
export { modQueueSize } from "./queue_size.ts";

/**
 * The kind of a message: a reply when it answers another message.
 *
 * @example
 * ```ts
 * messageKind({ replyTo: "msg-1" }); // "reply"
 * ```
 */
export function messageKind(m: Pick<MessageRecord, "replyTo">): PostKind {
  return m.replyTo ? "reply" : "answer";
}

/** A post (or a person) as the queue and the log name it. */
export type PostTarget = Pick<ModLogEntry, "targetType" | "targetId" | "questionId">;

/**
 * Describe the posts the queue or a page of the log names, by target id (people, debates
 * and roundtables are left out; a post gone from the store is left out and shown by id).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const named = await describePosts(kv, [
 *   { targetType: "message", targetId: "msg-1", questionId: "q-1" },
 * ]);
 * named.get("msg-1")?.kind; // "answer" or "reply"
 * ```
 */
export async function describePosts(
  kv: Deno.Kv,
  entries: PostTarget[],
): Promise<Map<string, PostDescription>> {
  const posts = [
    ...new Map(
      entries.filter((e) => e.targetType === "question" || e.targetType === "message")
        .map((e) => [e.targetId, e]),
    ).values(),
  ];
  const out = new Map<string, PostDescription>();
  // getMany takes at most 10 keys: a post and its question per lookup.
  for (let i = 0; i < posts.length; i += 5) {
    const batch = posts.slice(i, i + 5);
    const found = await kv.getMany<(QuestionRecord | MessageRecord)[]>(
      batch.flatMap((e) => [
        e.targetType === "question" ? keys.question(e.targetId) : keys.message(e.targetId),
        keys.question(e.questionId),
      ]),
    );
    batch.forEach((e, j) => {
      const post = found[2 * j].value;
      const question = found[2 * j + 1].value as QuestionRecord | null;
      if (!post) return;
      const text = e.targetType === "question"
        ? (post as QuestionRecord).description || (post as QuestionRecord).title
        : (post as MessageRecord).content;
      out.set(e.targetId, {
        kind: e.targetType === "question" ? "question" : messageKind(post as MessageRecord),
        questionTitle: question?.title ?? "",
        excerpt: excerpt(text, 120),
      });
    });
  }
  return out;
}
