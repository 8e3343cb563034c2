/**
 * What the question page adds for follows, live updates and moderation: whether the viewer
 * follows it, and which of its posts are hidden (their authors see a banner).
 *
 * @module
 */
import { hiddenAmong } from "../moderation/moderation.ts";
import { isFollowing } from "./notifications.ts";

/** The question page's extras. */
export interface QuestionPageExtras {
  following: boolean;
  /** Ids (question or message) hidden by moderation among those shown. */
  hidden: string[];
}

/**
 * The extras for a signed-in viewer (nothing to read when signed out). A hidden post is
 * shown only to its author and to moderators, so only those posts are looked up: the
 * viewer's own, or every post for a moderator.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const q = { id: "q-1", author: { id: "u_1" }, messages: [] };
 * const extras = await questionPageExtras(kv, "u_1", q, false);
 * ```
 */
export async function questionPageExtras(
  kv: Deno.Kv,
  userId: string | null,
  q: { id: string; author: { id: string }; messages: { id: string; author: { id: string } }[] },
  moderator: boolean,
): Promise<QuestionPageExtras> {
  if (!userId) return { following: false, hidden: [] };
  const mine = (authorId: string) => moderator || authorId === userId;
  const [following, hidden] = await Promise.all([
    isFollowing(kv, q.id, userId),
    hiddenAmong(kv, [
      ...(mine(q.author.id) ? [{ type: "question" as const, id: q.id }] : []),
      ...q.messages.filter((m) => mine(m.author.id)).map((m) => ({
        type: "message" as const,
        id: m.id,
      })),
    ]),
  ]);
  return { following, hidden: [...hidden] };
}
