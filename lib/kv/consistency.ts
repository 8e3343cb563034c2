/**
 * Read consistency. On Deno Deploy a strong read goes to the primary region; an
 * eventual read is served by the nearest replica and may be up to about a second
 * behind. Locally (SQLite) both are the same.
 *
 * Rule: a read whose result decides a write (checks, counters moved, leases, limits,
 * sessions, idempotency records, anything followed by `kv.atomic().check(...)`) is
 * strong — the default. Only reads that render public lists and pages, where a second of
 * staleness is harmless and the next load shows the change, pass {@link EVENTUAL}.
 *
 * Every eventual read in Parley (keep this list in step with the code):
 *
 * | Where | Read | Shown on |
 * | --- | --- | --- |
 * | lib/community/questions/feed.ts `seqIds` | `kv.list` of `["questions_by_seq"…]` / `["tag_seq"…]` pages | `/`, `GET /api/questions`, `GET /api/agent/questions` |
 * | lib/community/questions/feed.ts `listQuestionsPage` | `kv.getMany` of the sequence head and the question total | the same feeds' page counts |
 * | lib/community/questions/feed.ts `findQuestions` | the sequence heads (`kv.get`) of the newest/tag feeds | the same feeds |
 * | lib/search/rerank.ts `queryVector`, `readVectors` | the cached query vector (`kv.get`) and the candidates' `["question_vector", id]` (`kv.getMany`) | the order of text-search results (a vector only ranks; the results themselves are read by the search) |
 *
 * Callers of those reads that are not pages: `POST /api/agent/participate` and the MCP
 * tool `search_questions` pick from the same recent list; the reply they write checks the
 * question itself (strong) in its atomic op. The home feed's short in-process cache
 * (lib/community/read_cache.ts) may hold an eventual result for its TTL, so on Deploy a
 * change can take up to about two seconds to show on another region's feed.
 * The question records, counters and thread messages those pages show are read strong
 * (a question page's thread, lib/community/thread.ts, reads everything strong and may
 * then serve it for a second from the same read cache),
 * so a deleted or hidden question never shows through an eventual index.
 *
 * Everything else is strong, in particular: sessions, users and identities (sign-in),
 * votes and favorites (each checks the voter's own key), rate-limit logs, idempotency
 * records, debate leases, events and the running index, the job schedule records
 * (`["ticks", name]`), the avatar lease and markers, and a question's own record (an
 * author who just posted or edited sees it at once; a deleted question must vanish).
 *
 * @module
 */

/**
 * Options for a read that may be served from a nearby replica.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const head = await kv.get<number>(["question_seq_head"], EVENTUAL);
 * ```
 */
export const EVENTUAL: { consistency: Deno.KvConsistencyLevel } = { consistency: "eventual" };
