/**
 * The stand-in model's embeddings, as an OpenAI-compatible `POST /v1/embeddings`:
 * deterministic vectors that still carry some meaning, so semantic search runs offline
 * and tests can say which texts are close.
 *
 * A text's vector is feature hashing of its words: each lower-cased word (a trailing
 * plural `s` dropped, a few function words skipped) and each pair of neighbouring words
 * adds ±1 (pairs ±½) at a dimension chosen by a hash of it, and the sum is L2-normalized.
 * Texts that share words point the same way; texts that share none are near orthogonal.
 * The same text always gives the same vector, in every process.
 *
 * @module
 */
import { type StandInEmbeddingRequest, StandInEmbeddingRequestSchema } from "../../schemas/llm.ts";
import { encodeVector, l2Normalize } from "../../search/vectors.ts";
import { STANDIN_EMBEDDING_MODEL } from "./embedding_model.ts";

export { STANDIN_EMBEDDING_MODEL };

/** Dimensions when a request names none. */
export const STANDIN_DEFAULT_DIMENSIONS = 256;

/** Function words that say nothing about a topic; without them every question looks alike. */
const SKIPPED = new Set(
  ("a an and are as at be but by can do does for from how i if in into is it its of on or " +
    "should so than that the their there these this to was what when where which who why " +
    "will with would you your").split(" "),
);

/** The words a text's vector is built from, in order. */
export function embeddingWords(text: string): string[] {
  const words = text.normalize("NFKC").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((w) => !SKIPPED.has(w)).map((w) =>
    w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w
  );
}

/** FNV-1a over the UTF-16 code units, seeded: a stable 32-bit hash. */
function fnv1a(text: string, seed: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function addFeature(v: Float64Array, feature: string, weight: number): void {
  const at = fnv1a(feature, 0) % v.length;
  const sign = fnv1a(feature, 0x9e3779b9) & 1 ? 1 : -1;
  v[at] += sign * weight;
}

/**
 * The stand-in's vector of one text: `dimensions` long, L2-normalized (all zero for a text
 * without words).
 *
 * @example
 * ```ts
 * import { dot } from "@/lib/search/vectors.ts";
 * const a = standInEmbedding("atomic counters in Deno KV", 256);
 * const b = standInEmbedding("How do I keep a counter in KV?", 256);
 * dot(a, b) > dot(a, standInEmbedding("sourdough bread recipe", 256)); // true
 * ```
 */
export function standInEmbedding(text: string, dimensions: number): Float32Array {
  const v = new Float64Array(dimensions);
  const words = embeddingWords(text);
  for (let i = 0; i < words.length; i++) {
    addFeature(v, `w:${words[i]}`, 1);
    if (i > 0) addFeature(v, `b:${words[i - 1]} ${words[i]}`, 0.5);
  }
  return l2Normalize(v);
}

function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** The outcome of an embeddings request. */
export type StandInEmbeddingsOutcome =
  | { ok: false; reason: "invalid_request"; message: string }
  | { ok: true; response: Record<string, unknown> };

/**
 * Answer an embeddings request body (already parsed as JSON) in OpenAI's shape: one
 * vector per input, as numbers or — `encoding_format: "base64"`, which the `openai`
 * client asks for by default — as base64 of the little-endian Float32 bytes.
 *
 * @example
 * ```ts
 * const outcome = standInEmbeddings({ input: ["one", "two"], dimensions: 64 });
 * if (outcome.ok) console.log(outcome.response.data);
 * ```
 */
export function standInEmbeddings(body: unknown): StandInEmbeddingsOutcome {
  const parsed = StandInEmbeddingRequestSchema.safeParse(body);
  if (!parsed.success) {
    return {
      ok: false,
      reason: "invalid_request",
      message: `Invalid embeddings request: ${parsed.error.issues[0].message}`,
    };
  }
  const req: StandInEmbeddingRequest = parsed.data;
  const inputs = typeof req.input === "string" ? [req.input] : req.input;
  const dims = req.dimensions ?? STANDIN_DEFAULT_DIMENSIONS;
  const base64 = req.encoding_format === "base64";
  const tokens = inputs.reduce((n, t) => n + Math.ceil(t.length / 4), 0);
  return {
    ok: true,
    response: {
      object: "list",
      data: inputs.map((text, index) => {
        const v = standInEmbedding(text, dims);
        return {
          object: "embedding",
          index,
          embedding: base64 ? base64Of(encodeVector(v)) : [...v],
        };
      }),
      model: req.model || STANDIN_EMBEDDING_MODEL,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    },
  };
}
