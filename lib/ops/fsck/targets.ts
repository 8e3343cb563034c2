/**
 * What the fsck invariants share about vote and favorite targets: the record key of a
 * target, read defensively (a key part of the wrong type is a malformed entry, not a
 * crash).
 *
 * @module
 */
import { keys } from "../../kv/keys.ts";

/** Read where no record can be (a malformed entry's stand-in read). */
export const NOWHERE: Deno.KvKey = ["\u0000fsck", "nowhere"];

/**
 * True for {@link NOWHERE} (as read back from KV).
 *
 * @example
 * ```ts
 * isNowhere(targetRecordKey("poll", "p-1")); // true
 * ```
 */
export function isNowhere(key: Deno.KvKey): boolean {
  return key[0] === NOWHERE[0];
}

/**
 * The record key of a vote or favorite target, or {@link NOWHERE} when the type or id is
 * not one.
 *
 * @example
 * ```ts
 * targetRecordKey("message", "msg-1"); // ["messages", "msg-1"]
 * ```
 */
export function targetRecordKey(type: unknown, id: unknown): Deno.KvKey {
  if (typeof id !== "string") return NOWHERE;
  if (type === "question") return keys.question(id);
  if (type === "message") return keys.message(id);
  return NOWHERE;
}

/**
 * The author id of a question or message record, or null.
 *
 * @example
 * ```ts
 * authorIdOf({ author: { id: "u_1", name: "Ada", avatar: null } }); // "u_1"
 * ```
 */
export function authorIdOf(record: unknown): string | null {
  const author = (record as { author?: { id?: unknown } } | null)?.author;
  return typeof author?.id === "string" ? author.id : null;
}

/**
 * True for a record that exists and is not soft-deleted.
 *
 * @example
 * ```ts
 * isLive({ id: "q-1", deletedAt: 1 }); // false
 * ```
 */
export function isLive(record: unknown): boolean {
  return !!record && typeof record === "object" &&
    (record as { deletedAt?: unknown }).deletedAt === undefined;
}

/**
 * True for a record that exists and is neither soft-deleted nor hidden by moderation: what
 * the public counts and feeds count (lib/moderation/public_counts.ts).
 *
 * @example
 * ```ts
 * isCounted({ id: "q-1", hiddenAt: 1 }); // false
 * ```
 */
export function isCounted(record: unknown): boolean {
  return isLive(record) && (record as { hiddenAt?: unknown }).hiddenAt === undefined;
}
