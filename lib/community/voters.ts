/**
 * Who voted on what, read from the per-voter vote keys: the read side of
 * lib/community/votes.ts, apart from it so a page that only reads (the home feed, a
 * question page) imports none of the vote writes and what they pull in (notifications,
 * posting limits, group commits — main.ts's start-up budget). votes.ts re-exports both.
 *
 * @module
 */
import { getAll } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { TargetType } from "./targets.ts";
import type { VoterPrivacy } from "./vote_privacy.ts";
import { voteOf } from "./vote_rows.ts";
import type { VoteType } from "./vote_table.ts";

/**
 * Who voted on a target, as `privacy`'s reader may see them: `likedBy` and `dislikedBy`
 * user ids (from the per-voter keys), only those whose vote history is public plus the
 * reader (lib/community/vote_privacy.ts).
 *
 * @example
 * ```ts
 * import { VoterPrivacy } from "@/lib/community/vote_privacy.ts";
 * declare const id: string;
 * declare const kv: Deno.Kv;
 * const privacy = new VoterPrivacy(kv, null);
 * const { likedBy, dislikedBy } = await listVoters(kv, "question", id, privacy);
 * ```
 */
export async function listVoters(
  kv: Deno.Kv,
  targetType: TargetType,
  targetId: string,
  privacy: VoterPrivacy,
): Promise<{ likedBy: string[]; dislikedBy: string[] }> {
  const likedBy: string[] = [];
  const dislikedBy: string[] = [];
  for await (const e of kv.list({ prefix: keys.votesPrefix(targetType, targetId) })) {
    const userId = e.key[e.key.length - 1] as string;
    const vote = voteOf(e.value);
    if (vote) (vote.voteType === "up" ? likedBy : dislikedBy).push(userId);
  }
  const [liked, disliked] = await Promise.all([privacy.shown(likedBy), privacy.shown(dislikedBy)]);
  return { likedBy: liked, dislikedBy: disliked };
}

/**
 * A user's votes on some targets: id → "up" | "down" (absent when none).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const userId: string;
 * const mine = await userVotesOn(kv, userId, "message", ["m1", "m2"]);
 * ```
 */
export async function userVotesOn(
  kv: Deno.Kv,
  userId: string,
  targetType: TargetType,
  ids: string[],
): Promise<Record<string, VoteType>> {
  const out: Record<string, VoteType> = {};
  const entries = await getAll(kv, ids.map((id) => keys.vote(targetType, id, userId)));
  entries.forEach((e, i) => {
    const vote = voteOf(e.value);
    if (vote) out[ids[i]] = vote.voteType;
  });
  return out;
}
