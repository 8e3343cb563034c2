/**
 * The stand-in embedding model's name, apart from its code: the embedder chooser
 * (lib/search/embeddings.ts) is on a new instance's start path and needs only the name,
 * while the stand-in's request schema (zod) loads with the stand-in endpoint.
 *
 * @module
 */

/**
 * The model name the stand-in's embeddings carry (never mixed with a real model's).
 *
 * @example
 * ```ts
 * import { STANDIN_EMBEDDING_MODEL } from "@/lib/llm/standin/embedding_model.ts";
 *
 * const local = { model: STANDIN_EMBEDDING_MODEL };
 * ```
 */
export const STANDIN_EMBEDDING_MODEL = "parley-stand-in-embedding";
