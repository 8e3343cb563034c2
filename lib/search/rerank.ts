/**
 * Semantic rerank of a text query's top candidates: each candidate's lexical score (scaled
 * by the best one) is blended with the cosine between the query's vector and the
 * question's stored vector (./question_vectors.ts):
 *
 *     final = (1 − w) · score / maxScore + w · cosine,   w = SEMANTIC_WEIGHT (0.35)
 *
 * A candidate without a vector of the current model keeps its lexical part only. The
 * query's vector is cached in KV for a day (`["query_vector", …]`), so a repeated search
 * costs no model call. The model never fails a search: no embedder, a failure or a call
 * past {@link RERANK_TIMEOUT_MS} returns the candidates as given, and after a failure the
 * store's searches skip the model for {@link RERANK_QUIET_MS}.
 *
 * @module
 */
import { perStore } from "../cache.ts";
import { EVENTUAL } from "../kv/consistency.ts";
import { FailureLog } from "../kv/failure_log.ts";
import { keys } from "../kv/keys.ts";
import { sha256Hex } from "../ids.ts";
import type { Embedder } from "./embeddings.ts";
import { type QuestionVector, vectorFits } from "./question_vectors.ts";
import { decodeVector, dot, encodeVector } from "./vectors.ts";

/** The weight of meaning against words in the final score. */
export const SEMANTIC_WEIGHT = 0.35;
/** Longest a search waits for its query's vector, in ms. */
export const RERANK_TIMEOUT_MS = 1_500;
/** How long a query's vector is cached, in ms. */
export const QUERY_VECTOR_TTL_MS = 24 * 60 * 60_000;
/** How long searches skip the model after it failed one, in ms. */
export const RERANK_QUIET_MS = 30_000;
/** Longest query text embedded (characters). */
const QUERY_TEXT_MAX = 1_000;

/** A cached query vector under `["query_vector", digest]`. */
export interface CachedQueryVector {
  model: string;
  dims: number;
  /** The L2-normalized Float32 values' little-endian bytes. */
  v: Uint8Array;
  /** Unix ms after which it is not used (KV's `expireIn` is not exact). */
  expiresAt: number;
}

/** Options of {@link rerankBySimilarity}. */
export interface RerankOptions {
  /** The weight of the cosine (default {@link SEMANTIC_WEIGHT}), 0..1. */
  weight?: number;
  /** Longest wait for the query's vector, in ms (default {@link RERANK_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** The clock of the cache's expiry (default `Date.now`). */
  now?: () => number;
}

/**
 * The form of a query whose vector is cached: NFKC, lower case, single spaces. Queries
 * that differ only in case or spacing share a vector.
 *
 * @example
 * ```ts
 * normalizeQueryText("  Atomic   Counters "); // "atomic counters"
 * ```
 */
export function normalizeQueryText(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim()
    .slice(0, QUERY_TEXT_MAX);
}

const quiet = perStore((): { until: number } => ({ until: 0 }));
const failures = new FailureLog();
const TOPIC = "Search rerank: the query's embedding (results stay in lexical order)";

/**
 * The vector of a query: from the cache, or from the model (then cached for a day).
 * Throws the model's failure.
 *
 * @example
 * ```ts
 * import type { Embedder } from "@/lib/search/embeddings.ts";
 * declare const kv: Deno.Kv;
 * declare const embedder: Embedder;
 * const v = await queryVector(kv, embedder, "atomic counters");
 * ```
 */
export async function queryVector(
  kv: Deno.Kv,
  embedder: Embedder,
  text: string,
  opts: { timeoutMs?: number; now?: () => number } = {},
): Promise<Float32Array> {
  const now = opts.now ?? Date.now;
  const normalized = normalizeQueryText(text);
  const key = keys.queryVector(
    await sha256Hex(`${embedder.model}\n${embedder.dims}\n${normalized}`),
  );
  // Eventual: a ranking input only; a replica a second behind just costs a model call.
  const cached = (await kv.get<CachedQueryVector>(key, EVENTUAL)).value;
  if (
    cached && cached.expiresAt > now() && cached.model === embedder.model &&
    cached.dims === embedder.dims && cached.v instanceof Uint8Array
  ) {
    return decodeVector(cached.v);
  }
  const [v] = await embedder.embed([normalized], {
    timeoutMs: opts.timeoutMs ?? RERANK_TIMEOUT_MS,
    maxRetries: 0,
  });
  const value: CachedQueryVector = {
    model: embedder.model,
    dims: v.length,
    v: encodeVector(v),
    expiresAt: now() + QUERY_VECTOR_TTL_MS,
  };
  // A lost cache write costs one model call later, nothing more.
  await kv.set(key, value, { expireIn: QUERY_VECTOR_TTL_MS }).catch(() => {});
  return v;
}

/**
 * The candidates' stored vectors, 10 keys per `getMany`, the calls in parallel. Eventual
 * reads: a vector only orders results, and a second-old one orders them as well.
 */
async function readVectors(
  kv: Deno.Kv,
  ids: string[],
): Promise<Deno.KvEntryMaybe<QuestionVector>[]> {
  const chunks: Deno.KvKey[][] = [];
  for (let i = 0; i < ids.length; i += 10) {
    chunks.push(ids.slice(i, i + 10).map((id) => keys.questionVector(id)));
  }
  const got = await Promise.all(chunks.map((c) => kv.getMany<QuestionVector[]>(c, EVENTUAL)));
  return got.flat();
}

/**
 * Rerank `candidates` (a text query's top lexical results, best first, e.g. the top 30–50)
 * by meaning. Returns them sorted by the blended score (in `score`; ties keep their
 * order), or — no embedder, a blank query, a model failure or timeout — as given. Never
 * throws.
 *
 * @example
 * ```ts
 * import type { Embedder } from "@/lib/search/embeddings.ts";
 * declare const kv: Deno.Kv;
 * declare const embedder: Embedder | undefined;
 * const ranked = await rerankBySimilarity(kv, embedder, "atomic counters", [
 *   { id: "q-1", score: 7.2 },
 *   { id: "q-2", score: 6.9 },
 * ]);
 * ranked[0].id; // the closer in meaning, when the scores are near
 * ```
 */
export async function rerankBySimilarity<T extends { id: string; score: number }>(
  kv: Deno.Kv,
  embedder: Embedder | null | undefined,
  queryText: string,
  candidates: T[],
  opts: RerankOptions = {},
): Promise<T[]> {
  if (!embedder || candidates.length === 0 || !normalizeQueryText(queryText)) {
    return candidates.slice();
  }
  const skip = quiet(kv);
  if (performance.now() < skip.until) return candidates.slice();
  const timeoutMs = opts.timeoutMs ?? RERANK_TIMEOUT_MS;
  let q: Float32Array;
  let vectors: Deno.KvEntryMaybe<QuestionVector>[];
  try {
    // The model call has its own deadline; the race bounds the store's part too.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) =>
      timer = setTimeout(
        () => reject(new Error(`no answer within ${timeoutMs} ms`)),
        timeoutMs + 250,
      )
    );
    try {
      [q, vectors] = await Promise.race([
        Promise.all([
          queryVector(kv, embedder, queryText, { timeoutMs, now: opts.now }),
          readVectors(kv, candidates.map((c) => c.id)),
        ]),
        late,
      ]);
    } finally {
      clearTimeout(timer);
    }
    failures.succeeded(TOPIC);
  } catch (err) {
    skip.until = performance.now() + RERANK_QUIET_MS;
    failures.failed(TOPIC, err);
    return candidates.slice();
  }
  const w = Math.min(1, Math.max(0, opts.weight ?? SEMANTIC_WEIGHT));
  const maxScore = Math.max(0, ...candidates.map((c) => c.score));
  const blended = candidates.map((c, i) => {
    const lexical = maxScore > 0 ? c.score / maxScore : 0;
    const vec = vectors[i].value;
    const semantic = vectorFits(vec, embedder) ? dot(q, decodeVector(vec.v)) : null;
    const score = semantic === null ? (1 - w) * lexical : (1 - w) * lexical + w * semantic;
    return { c: { ...c, score }, i };
  });
  blended.sort((a, b) => b.c.score - a.c.score || a.i - b.i);
  return blended.map((b) => b.c);
}
