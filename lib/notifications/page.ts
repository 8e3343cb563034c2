/**
 * What the question page adds for one signed-in viewer: their votes and favorites on the
 * question and the page's messages, and whether they follow it, in one round trip: one
 * `getMany` (follow, and the vote and favorite on the question) beside one bounded `list`
 * of each of the viewer's own indexes, `["user_votes", userId]` and
 * `["user_favorites", userId]` (written in the same atomic op as each vote and favorite,
 * so they are exact). A viewer with fewer than {@link OWN_INDEX_LIMIT} votes (or
 * favorites) anywhere is answered from the list alone — 3 calls instead of `getMany`s of
 * 2 × 30 keys (a key costs about 8 µs on SQLite, an empty list about 24 µs); none of
 * those three needs the page's message ids, so they overlap the thread's own read. A viewer
 * with more falls back to `getMany` of their vote (or favorite) key of each message on
 * the page (10 per call): the list was then extra work, at most {@link OWN_INDEX_LIMIT}
 * entries. Which posts are hidden comes with the thread itself (lib/community/thread.ts
 * `readThreadPage`, from the records' `hiddenAt`), not from here. The same `getMany` reads
 * the question's panel job, for the experts already in the thread (only a signed-in viewer
 * sees the "Invite an expert" list that leaves them out), at no extra call.
 *
 * @module
 */
import { getAll } from "../kv/atomic.ts";
import { isLookupId, keys } from "../kv/keys.ts";
import type { VoteType } from "../community/votes.ts";
import { voteOf } from "../community/vote_rows.ts";
import { voteTypeOfRow } from "../community/user_vote_rows.ts";
import { expertsInThread, type PanelJob } from "../panel/model.ts";

/**
 * Entries of the viewer's own vote / favorite index read before falling back to reading
 * each message's key.
 */
export const OWN_INDEX_LIMIT = 40;

/** One viewer's state on a question page. */
export interface QuestionPageViewerState {
  /** The viewer's votes by target id (question or message). */
  votes: Record<string, VoteType>;
  /** The viewer's favorites by target id (true when favorited). */
  favorites: Record<string, boolean>;
  following: boolean;
  /** Ids of the AI experts in the question's thread (written, or still to write). */
  expertsInThread: string[];
}

/** The state of nobody (signed out): nothing to read. */
export const NO_VIEWER_STATE: QuestionPageViewerState = Object.freeze({
  votes: {},
  favorites: {},
  following: false,
  expertsInThread: [],
});

/**
 * `userId`'s votes, favorites and follow on question `questionId` and the messages
 * `messageIds`, in one round trip. `messageIds` may be a promise (the thread still being
 * read): the reads that do not need them start at once, so they overlap the thread's.
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
  messageIdsOrPending: string[] | Promise<string[]>,
): Promise<QuestionPageViewerState> {
  if (!isLookupId(questionId)) {
    await messageIdsOrPending;
    return { votes: {}, favorites: {}, following: false, expertsInThread: [] };
  }
  const [direct, ownVotes, ownFavorites, messageIds] = await Promise.all([
    kv.getMany([
      keys.follow(questionId, userId),
      keys.vote("question", questionId, userId),
      keys.favorite(userId, "question", questionId),
      keys.panelJob(questionId),
    ]),
    listUpTo(kv, keys.userVotesPrefix(userId)),
    listUpTo(kv, keys.userFavoritesPrefix(userId)),
    messageIdsOrPending,
  ]);
  const votes: Record<string, VoteType> = {};
  const favorites: Record<string, boolean> = {};
  const qVote = voteOf(direct[1].value);
  if (qVote) votes[questionId] = qVote.voteType;
  favorites[questionId] = direct[2].value !== null;
  for (const id of messageIds) favorites[id] = false;
  const onPage = new Set(messageIds);
  // Complete lists answer for the page; a long one means per-message reads instead.
  const fallback: Deno.KvKey[] = [];
  if (ownVotes) {
    for (const e of ownVotes) {
      const v = voteTypeOfRow(e.value);
      if (v && e.key[3] === "message" && onPage.has(e.key[4] as string)) {
        votes[e.key[4] as string] = v;
      }
    }
  } else fallback.push(...messageIds.map((id) => keys.vote("message", id, userId)));
  if (ownFavorites) {
    for (const e of ownFavorites) {
      if (e.key[3] === "message" && onPage.has(e.key[4] as string)) {
        favorites[e.key[4] as string] = true;
      }
    }
  } else fallback.push(...messageIds.map((id) => keys.favorite(userId, "message", id)));
  if (fallback.length) {
    const got = await getAll(kv, fallback);
    let i = 0;
    if (!ownVotes) {
      for (const id of messageIds) {
        const v = voteOf(got[i++].value);
        if (v) votes[id] = v.voteType;
      }
    }
    if (!ownFavorites) { for (const id of messageIds) favorites[id] = got[i++].value !== null; }
  }
  return {
    votes,
    favorites,
    following: direct[0].value !== null,
    expertsInThread: expertsInThread(direct[3].value as PanelJob | null),
  };
}

/** Up to {@link OWN_INDEX_LIMIT} − 1 entries under `prefix`, or null when there are more. */
async function listUpTo(kv: Deno.Kv, prefix: Deno.KvKey): Promise<Deno.KvEntry<unknown>[] | null> {
  const out: Deno.KvEntry<unknown>[] = [];
  const opts = { limit: OWN_INDEX_LIMIT, batchSize: OWN_INDEX_LIMIT };
  for await (const e of kv.list({ prefix }, opts)) out.push(e);
  return out.length < OWN_INDEX_LIMIT ? out : null;
}
