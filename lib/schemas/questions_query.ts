/**
 * The question list's query (`GET /api/questions` and the home page), in a module of its
 * own: the home page is a new instance's usual first request, and building every community
 * schema (lib/schemas/community.ts, which re-exports this one) cost it ~4 ms.
 *
 * @module
 */
import { z } from "zod";
import { SEARCH_QUERY_MAX, TAG_MAX_LENGTH } from "../input_limits.ts";
import { LimitParam, PageParam } from "./paging.ts";

/**
 * `sort`, `q`, `tag`, `filter`, `page` and `limit` of a question list.
 *
 * @example
 * ```ts
 * import { QuestionsQuery } from "@/lib/schemas/questions_query.ts";
 *
 * const query = QuestionsQuery.parse({ sort: "hot", page: "2" });
 * ```
 */
export const QuestionsQuery = z.object({
  sort: z.enum(["new", "hot", "relevance"], {
    error: 'sort must be "new", "hot" or "relevance"',
  }).optional().meta({
    description:
      "Default: `relevance` when `q` searches, `new` otherwise. With `q`, `new` and `hot` reorder the best 200 matches.",
  }),
  q: z.string().max(SEARCH_QUERY_MAX, {
    error: `q must be at most ${SEARCH_QUERY_MAX} characters`,
  }).optional(),
  tag: z.string().max(TAG_MAX_LENGTH, { error: "tag is too long" }).optional(),
  filter: z.enum(["unanswered"], { error: 'filter must be "unanswered"' }).optional().meta({
    description:
      "`unanswered`: only questions with no top-level answer and no accepted answer (replies do not count). Newest-first pages scan at most 2000 questions (`total` is null when the scan stopped early).",
  }),
  page: PageParam,
  limit: LimitParam,
});
