/**
 * docs/interface.md#votes's vote table as a pure function, shared by the server (lib/community/votes.ts) and the
 * vote buttons' optimistic update in the browser.
 *
 * @module
 */

/** Direction of a vote. */
export type VoteType = "up" | "down";
/** What a vote request did (docs/interface.md#votes). */
export type VoteAction = "liked" | "unliked" | "downvoted" | "undownvoted";

/**
 * The action and next vote for a user's current vote and the requested type.
 *
 * @example
 * ```ts
 * nextVote("down", "up"); // { action: "liked", next: "up" }
 * nextVote("up", "up");   // { action: "unliked", next: null }
 * ```
 */
export function nextVote(
  current: VoteType | null,
  requested: VoteType,
): { action: VoteAction; next: VoteType | null } {
  if (requested === "up") {
    return current === "up" ? { action: "unliked", next: null } : { action: "liked", next: "up" };
  }
  return current === "down"
    ? { action: "undownvoted", next: null }
    : { action: "downvoted", next: "down" };
}

/**
 * Counts after moving from one vote to another (what the server will answer when no one
 * else votes meanwhile).
 *
 * @example
 * ```ts
 * applyVote({ upvotes: 1, downvotes: 0 }, "up", "down"); // { upvotes: 0, downvotes: 1 }
 * ```
 */
export function applyVote(
  counts: { upvotes: number; downvotes: number },
  from: VoteType | null,
  to: VoteType | null,
): { upvotes: number; downvotes: number } {
  let { upvotes, downvotes } = counts;
  if (from === "up") upvotes--;
  if (from === "down") downvotes--;
  if (to === "up") upvotes++;
  if (to === "down") downvotes++;
  return { upvotes: Math.max(0, upvotes), downvotes: Math.max(0, downvotes) };
}
