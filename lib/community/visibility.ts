/**
 * The one visibility rule (docs/interface.md#moderation): a deleted or hidden post exists
 * only for its author and the moderators. Every reader — pages, REST, agent API, MCP,
 * search, feeds, notifications, activity — and every prompt Parley sends a model asks
 * here; a prompt's output is public, so prompts use {@link isPublic} (no viewer).
 *
 * @module
 */

/** Who is looking: a signed-in user (a moderator or not). Null or undefined: anonymous. */
export interface Viewer {
  userId: string;
  moderator?: boolean;
}

/** What the rule needs of a post: its author and its lifecycle marks. */
export interface PostMarks {
  author: { id: string };
  deletedAt?: number;
  hiddenAt?: number;
}

/**
 * True when the post was deleted or hidden by moderation.
 *
 * @example
 * ```ts
 * isWithdrawn({ hiddenAt: 1 }); // true
 * ```
 */
export function isWithdrawn(post: Pick<PostMarks, "deletedAt" | "hiddenAt">): boolean {
  return post.deletedAt !== undefined || post.hiddenAt !== undefined;
}

/**
 * True when everyone may see the post: what feeds, search and model prompts use.
 *
 * @example
 * ```ts
 * isPublic({}); // true
 * ```
 */
export function isPublic(post: Pick<PostMarks, "deletedAt" | "hiddenAt">): boolean {
  return !isWithdrawn(post);
}

/**
 * True when `viewer` may see the post: a live one for anyone, a deleted or hidden one only
 * for its author and moderators.
 *
 * @example
 * ```ts
 * const post = { author: { id: "u1" }, hiddenAt: 1 };
 * maySee(post, null); // false
 * maySee(post, { userId: "u1" }); // true
 * maySee(post, { userId: "m", moderator: true }); // true
 * ```
 */
export function maySee(post: PostMarks, viewer: Viewer | null | undefined): boolean {
  if (!isWithdrawn(post)) return true;
  return !!viewer && (viewer.moderator === true || viewer.userId === post.author.id);
}
