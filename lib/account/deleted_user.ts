/**
 * What is left of a deleted account (docs/interface.md#your-account): posts kept by a
 * person who deleted their account show "deleted user" — an author with no id, so no
 * profile link, no statistics, no notification and no link between their posts — and the
 * account's id is retired under a tombstone (`["deleted_users", id]`), never reused.
 *
 * @module
 */
import type { Author } from "../community/questions/model.ts";
import { isExpertAuthor } from "../panel/experts.ts";

/** The name a deleted account's kept posts show. */
export const DELETED_USER_NAME = "deleted user";

/** The author snapshot of a deleted account's kept posts (and of its revisions). */
export const DELETED_USER: Author = { id: "", name: DELETED_USER_NAME, avatar: "" };

/** What a person chose for their posts when deleting their account. */
export type KeptContent = "keep" | "delete";

/** `["deleted_users", userId]`: the tombstone of a deleted account. */
export interface DeletedUser {
  deletedAt: number;
  content: KeptContent;
}

/**
 * True when `authorId` names a person's account: not an AI expert (`expert-…`), not a
 * deleted account's kept post and not a deleted placeholder (both `""`). Statistics,
 * badges and notifications go only to such authors.
 *
 * @example
 * ```ts
 * import { isAccountAuthor } from "./deleted_user.ts";
 *
 * isAccountAuthor("u_1"); // true
 * isAccountAuthor(""); // false: "deleted user"
 * isAccountAuthor("expert-ada"); // false
 * ```
 */
export function isAccountAuthor(authorId: string): boolean {
  return authorId !== "" && !isExpertAuthor(authorId);
}

/**
 * True for the author of a deleted account's kept post (shown without a profile link).
 *
 * @example
 * ```ts
 * import { DELETED_USER, isDeletedUser } from "./deleted_user.ts";
 *
 * isDeletedUser(DELETED_USER); // true
 * isDeletedUser({ id: "u_1", name: "Ada" }); // false
 * ```
 */
export function isDeletedUser(author: { id: string; name: string }): boolean {
  return author.id === "" && author.name === DELETED_USER_NAME;
}
