/**
 * Embedding a question right after the write that marked it (create, edit), so a new
 * question is found by meaning at once rather than after the next job run. Bounded: the
 * request waits at most {@link WRITE_EMBED_BOUND_MS} for it; a failure is logged (once per
 * outage, without secrets) and leaves the marker for the job (./embedding_job.ts); after a
 * failure, writes skip the model for {@link WRITE_EMBED_QUIET_MS}, so an outage costs no
 * request its wait. Nothing here can fail the write.
 *
 * The domain writes (lib/community/questions/) know only the store; the store's embedder is
 * registered here once by the embeddings job kind (`embeddingJobKind`, which `createApp`
 * registers for every app), as the job runner itself is one per store.
 *
 * @module
 */
import { perStore } from "../cache.ts";
import { FailureLog } from "../kv/failure_log.ts";
import type { Embedder } from "./embeddings.ts";
import { embedPendingQuestions } from "./question_vectors.ts";

/** Longest a write's response waits for its question's vector, in ms. */
export const WRITE_EMBED_BOUND_MS = 2_000;
/** How long writes leave embedding to the job after the model failed one, in ms. */
export const WRITE_EMBED_QUIET_MS = 30_000;

interface WriteEmbedding {
  embedder?: Embedder;
  /** `performance.now()` before which writes do not call the model. */
  quietUntil: number;
}

const stores = perStore((): WriteEmbedding => ({ quietUntil: 0 }));
const failures = new FailureLog();
/** The log topic; a failure's line says the job retries what this left. */
const TOPIC = "Embedding questions after their writes (the embeddings job fills the gaps)";

/**
 * Use `embedder` for the writes on `kv` (undefined: writes leave no work but the marker).
 *
 * @example
 * ```ts
 * import type { Embedder } from "@/lib/search/embeddings.ts";
 * declare const kv: Deno.Kv;
 * declare const embedder: Embedder;
 * embedOnWrites(kv, embedder);
 * ```
 */
export function embedOnWrites(kv: Deno.Kv, embedder: Embedder | undefined): void {
  const s = stores(kv);
  s.embedder = embedder;
  s.quietUntil = 0;
}

/**
 * After a committed write that marked `questionId`: embed it now, within the bound. Never
 * throws; a no-op when the store has no embedder or the model failed moments ago.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await embedAfterWrite(kv, "q-1");
 * ```
 */
export async function embedAfterWrite(kv: Deno.Kv, questionId: string): Promise<void> {
  const s = stores(kv);
  const embedder = s.embedder;
  if (!embedder || performance.now() < s.quietUntil) return;
  const work = embedPendingQuestions(kv, embedder, [questionId], {
    timeoutMs: WRITE_EMBED_BOUND_MS,
    maxRetries: 0,
  }).then(
    () => failures.succeeded(TOPIC),
    (err) => {
      s.quietUntil = performance.now() + WRITE_EMBED_QUIET_MS;
      failures.failed(TOPIC, err);
    },
  );
  // The model call has its own deadline; this bounds the store's part too.
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    work,
    new Promise<void>((resolve) => timer = setTimeout(resolve, WRITE_EMBED_BOUND_MS + 250)),
  ]);
  clearTimeout(timer);
}
