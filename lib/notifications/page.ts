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
 * The extras for a signed-in viewer (nothing to read when signed out).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const extras = await questionPageExtras(kv, "u_1", { id: "q-1", messages: [] });
 * ```
 */
export async function questionPageExtras(
  kv: Deno.Kv,
  userId: string | null,
  q: { id: string; messages: { id: string }[] },
): Promise<QuestionPageExtras> {
  if (!userId) return { following: false, hidden: [] };
  const [following, hidden] = await Promise.all([
    isFollowing(kv, q.id, userId),
    hiddenAmong(kv, [
      { type: "question" as const, id: q.id },
      ...q.messages.map((m) => ({ type: "message" as const, id: m.id })),
    ]),
  ]);
  return { following, hidden: [...hidden] };
}
