/**
 * The one set of words for a debate's (or roundtable's) status, used wherever one is shown:
 * the public list, the permalink, the signed-in person's history and roundtable lists. The
 * live follower's "The debate has finished." says the same.
 *
 * @example
 * ```ts
 * DEBATE_STATUS_TEXT.completed; // "finished"
 * ```
 */
export const DEBATE_STATUS_TEXT: Record<string, string> = {
  pending: "starting",
  in_progress: "live",
  completed: "finished",
  failed: "stopped early",
};
