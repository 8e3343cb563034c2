/**
 * Where each feed lives (docs/interface.md#feeds): one place for the routes, the pages'
 * `<link rel="alternate">` and the feeds' own `rel="self"` links.
 *
 * @module
 */
import { tagKey } from "../community/questions/model.ts";

/** The feeds' media type (Atom). */
export const ATOM_TYPE = "application/atom+xml";

/**
 * Path of the newest-questions feed.
 *
 * @example
 * ```ts
 * questionsFeedPath(); // "/feeds/questions"
 * ```
 */
export function questionsFeedPath(): string {
  return "/feeds/questions";
}

/**
 * Path of one tag's feed (the tag in its canonical form).
 *
 * @example
 * ```ts
 * tagFeedPath("Deno KV"); // "/feeds/tags/deno-kv"
 * ```
 */
export function tagFeedPath(tag: string): string {
  return `/feeds/tags/${encodeURIComponent(tagKey(tag))}`;
}

/**
 * Path of one question's answers feed.
 *
 * @example
 * ```ts
 * answersFeedPath("q-1"); // "/feeds/questions/q-1"
 * ```
 */
export function answersFeedPath(questionId: string): string {
  return `/feeds/questions/${encodeURIComponent(questionId)}`;
}

/**
 * Path of one user's public activity feed.
 *
 * @example
 * ```ts
 * userFeedPath("u-1"); // "/feeds/users/u-1"
 * ```
 */
export function userFeedPath(userId: string): string {
  return `/feeds/users/${encodeURIComponent(userId)}`;
}
