/**
 * What the question page adds for one signed-in viewer: their votes and favorites on the
 * question and the page's messages, and whether they follow it — all in one `getAll`
 * (`getMany` chunks of 10, issued together: one round trip; 3 + 2 × messages keys, so
 * 7 calls for 30 answers). Which posts are hidden comes with the thread itself
 * (lib/community/thread.ts `readThreadPage`, from the records' `hiddenAt`), not from here.
 *
 * @module
 */
import { getAll } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { VoteRecord, VoteType } from "../community/votes.ts";

/** One viewer's state on a question page. */
export interface QuestionPageViewerState {
  /** The viewer's votes by target id (question or message). */
  votes: Record<string, VoteType>;
  /** The viewer's favorites by target id (true when favorited). */
  favorites: Record<string, boolean>;
  following: boolean;
}

/** The state of nobody (signed out): nothing to read. */
export const NO_VIEWER_STATE: QuestionPageViewerState = Object.freeze({
  votes: {},
  favorites: {},
  following: false,
});

/**
 * `userId`'s votes, favorites and follow on question `questionId` and the messages
 * `messageIds`, in one round trip.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const s = await questionPageViewerState(kv, "u_1", "q-1", ["msg-1", "msg-2"]);
 * s.votes["msg-1"]; s.favorites["q-1"]; s.following;
 * ```
 */
export async function questionPageViewerState(
  kv: Deno.Kv,
  userId: string,
  questionId: string,
  messageIds: string[],
): Promise<QuestionPageViewerState> {
  const targets = [
    { type: "question" as const, id: questionId },
    ...messageIds.map((id) => ({ type: "message" as const, id })),
  ];
  const got = await getAll(kv, [
    keys.follow(questionId, userId),
    ...targets.map((t) => keys.vote(t.type, t.id, userId)),
    ...targets.map((t) => keys.favorite(userId, t.type, t.id)),
  ]);
  const votes: Record<string, VoteType> = {};
  const favorites: Record<string, boolean> = {};
  targets.forEach((t, i) => {
    const vote = got[1 + i].value as VoteRecord | null;
    if (vote) votes[t.id] = vote.voteType;
    favorites[t.id] = got[1 + targets.length + i].value !== null;
  });
  return { votes, favorites, following: got[0].value !== null };
}
