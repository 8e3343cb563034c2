/**
 * The paging parameters of list endpoints and pages (`page`, `limit`), in a module of their
 * own so the home page's query (lib/schemas/questions_query.ts) loads without the rest of
 * the API's schemas; lib/schemas/community.ts re-exports them.
 *
 * @module
 */
import { z } from "zod";

/**
 * Query-string integer ≥ 1 (`page`, `limit`).
 *
 * @example
 * ```ts
 * import { positiveInt } from "@/lib/schemas/paging.ts";
 *
 * const replyPage = positiveInt("replyPage").optional();
 * ```
 */
export function positiveInt(name: string) {
  const error = `${name} must be an integer of at least 1`;
  const tooLarge = `${name} is too large`;
  // Past 2^53 the integer check itself fails as "too big": say that, not "not an integer".
  return z.coerce.number({ error })
    .int({ error: (iss) => iss.code === "too_big" ? tooLarge : error })
    .min(1, { error }).max(1e9, { error: tooLarge });
}

/** `limit`: default 20; values above 50 are clamped to 50. */
export const LimitParam = positiveInt("limit").default(20).transform((n) => Math.min(n, 50))
  .meta({ description: "Items per page: default 20, maximum 50 (larger values are clamped)." });

/** `page`: 1-based. */
export const PageParam = positiveInt("page").default(1).meta({
  description: "Page number, starting at 1. A page past the end returns an empty list.",
});
