/**
 * An account's standing (docs/decisions.md#new-accounts-and-trust): "new" while it is younger
 * than `NEW_ACCOUNT_HOURS` and nothing it wrote was up-voted or accepted, "established"
 * after. A new account's flag weighs half, so a handful of fresh sign-ups cannot hide a
 * post on their own.
 *
 * @module
 */
import type { User } from "../auth/users.ts";
import { counterValue } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";

/** How far the site trusts an account. */
export type Standing = "new" | "established";

/** Flag weight that hides a post: three established accounts, or six new ones. */
export const FLAG_WEIGHT_TO_HIDE = 3;

/**
 * What one flag weighs, by the flagger's standing.
 *
 * @example
 * ```ts
 * import { flagWeight } from "./standing.ts";
 *
 * flagWeight("new"); // 0.5
 * ```
 */
export function flagWeight(standing: Standing): number {
  return standing === "new" ? 0.5 : 1;
}

/**
 * The keys {@link standingFrom} reads, in order: the user, then the counters that prove
 * someone valued the account's content. Read them in the caller's own `getMany`.
 *
 * @example
 * ```ts
 * import { standingKeys } from "./standing.ts";
 *
 * standingKeys("u_1").length; // 5
 * ```
 */
export function standingKeys(userId: string): Deno.KvKey[] {
  return [
    keys.user(userId),
    keys.userStat(userId, "upvotes_received"),
    keys.userStat(userId, "best_question_upvotes"),
    keys.userStat(userId, "best_answer_upvotes"),
    keys.userStat(userId, "answer_accepted"),
  ];
}

/**
 * The standing from the entries of {@link standingKeys}. An unknown user has no age to
 * show, so it is new unless no account counts as new (`newAccountHours` 0).
 *
 * @example
 * ```ts
 * import { standingFrom, standingKeys } from "./standing.ts";
 *
 * declare const kv: Deno.Kv;
 * const entries = await kv.getMany(standingKeys("u_1"));
 * standingFrom(entries, 24, Date.now()); // "new" | "established"
 * ```
 */
export function standingFrom(
  entries: readonly Deno.KvEntryMaybe<unknown>[],
  newAccountHours: number,
  now: number,
): Standing {
  if (newAccountHours <= 0) return "established";
  const [user, ...counters] = entries;
  const createdAt = (user?.value as User | null)?.createdAt;
  if (createdAt !== undefined && now - createdAt >= newAccountHours * 3_600_000) {
    return "established";
  }
  const valued = counters.some((e) => counterValue(e.value) > 0);
  return valued ? "established" : "new";
}
