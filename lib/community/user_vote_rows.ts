/**
 * A voter's activity row, `["user_votes", userId, invertTime(createdAt), targetType,
 * targetId]`: its key already says who voted, when and on what, so its value is only the
 * vote's direction, `"up"` or `"down"`. Stores written before compact storage hold a
 * `UserVoteEntry` object (the key's parts copied, plus the direction) until the compaction
 * migration rewrites them (lib/ops/compact.ts); {@link userVoteOf} and
 * {@link voteTypeOfRow} read both.
 *
 * @module
 */
import { invertTime } from "../kv/atomic.ts";
import type { TargetType } from "./targets.ts";
import type { VoteType } from "./vote_table.ts";

/** A voter's activity row read into one form (either stored shape). */
export interface UserVote {
  targetType: TargetType;
  targetId: string;
  voteType: VoteType;
  createdAt: number;
}

const isVoteType = (v: unknown): v is VoteType => v === "up" || v === "down";

/**
 * The direction an activity row's value says, in either shape; null when neither.
 *
 * @example
 * ```ts
 * voteTypeOfRow("up"); // "up"
 * voteTypeOfRow({ targetType: "message", targetId: "msg-1", voteType: "down", createdAt: 1 }); // "down"
 * ```
 */
export function voteTypeOfRow(value: unknown): VoteType | null {
  if (isVoteType(value)) return value;
  const v = (value as { voteType?: unknown } | null)?.voteType;
  return isVoteType(v) ? v : null;
}

/**
 * True when the row's value has the compact shape (the direction alone).
 *
 * @example
 * ```ts
 * isCompactUserVote("up"); // true
 * ```
 */
export function isCompactUserVote(value: unknown): value is VoteType {
  return isVoteType(value);
}

/**
 * The activity row at `key` with `value` (either shape), or null when malformed.
 *
 * @example
 * ```ts
 * import { invertTime } from "@/lib/kv/atomic.ts";
 * const v = userVoteOf(["user_votes", "u_1", invertTime(5), "message", "msg-1"], "up");
 * v?.createdAt; // 5
 * ```
 */
export function userVoteOf(key: Deno.KvKey, value: unknown): UserVote | null {
  const [, , inv, targetType, targetId] = key;
  const voteType = voteTypeOfRow(value);
  if (
    !voteType || typeof inv !== "number" || typeof targetId !== "string" ||
    (targetType !== "question" && targetType !== "message")
  ) return null;
  return { targetType, targetId, voteType, createdAt: invertTime(inv) };
}
