/**
 * A vote's own row, `["votes", targetType, targetId, userId]`: its value is one number,
 * the vote's time, negative for a down-vote ({@link storedVote}) — the direction and the
 * time (which finds the voter's activity row, `["user_votes", userId, invertTime(time),
 * …]`) are all a vote row has to say, and a number is ~11 bytes where the object was ~39.
 * Stores written before compact storage 5 hold a `VoteRecord` object `{voteType,
 * createdAt}` until the compaction migration rewrites them (lib/ops/compact.ts);
 * {@link voteOf} reads both.
 *
 * @module
 */
import type { VoteRecord } from "./votes.ts";
import type { VoteType } from "./vote_table.ts";

const isVoteType = (v: unknown): v is VoteType => v === "up" || v === "down";

/**
 * The value a vote row stores: `createdAt` for an up-vote, `−createdAt` for a down-vote.
 *
 * @example
 * ```ts
 * storedVote("up", 1_700_000_000_000); // 1700000000000
 * storedVote("down", 1_700_000_000_000); // -1700000000000
 * ```
 */
export function storedVote(voteType: VoteType, createdAt: number): number {
  return voteType === "up" ? createdAt : -createdAt;
}

/**
 * The vote a row's value says, in either shape; null when neither.
 *
 * @example
 * ```ts
 * voteOf(-5); // { voteType: "down", createdAt: 5 }
 * voteOf({ voteType: "up", createdAt: 5 }); // the older shape: { voteType: "up", createdAt: 5 }
 * voteOf("up"); // null
 * ```
 */
export function voteOf(value: unknown): VoteRecord | null {
  if (typeof value === "number") {
    return Number.isFinite(value) && value !== 0
      ? { voteType: value > 0 ? "up" : "down", createdAt: Math.abs(value) }
      : null;
  }
  const v = value as Partial<VoteRecord> | null;
  return v && typeof v === "object" && isVoteType(v.voteType) && Number.isFinite(v.createdAt)
    ? { voteType: v.voteType, createdAt: v.createdAt! }
    : null;
}

/**
 * True when the row's value has the compact shape (a signed time).
 *
 * @example
 * ```ts
 * isCompactVote(-5); // true
 * isCompactVote({ voteType: "down", createdAt: 5 }); // false
 * ```
 */
export function isCompactVote(value: unknown): value is number {
  return typeof value === "number" && voteOf(value) !== null;
}
