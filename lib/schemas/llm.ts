/**
 * Zod schemas of the stand-in model's API (`POST /api/local-llm/v1/chat/completions` and
 * `…/embeddings`): the subsets of OpenAI's requests it reads.
 *
 * @module
 */
import { z } from "zod";

const ContentPart = z.object({ type: z.string(), text: z.string().optional() }).loose();

/** The subset of OpenAI's chat completion request the stand-in reads. */
export const StandInRequestSchema = z.object({
  model: z.string().optional(),
  messages: z.array(
    z.object({
      role: z.string(),
      content: z.union([z.string(), z.array(ContentPart), z.null()]).optional(),
    }).loose(),
  ).min(1).max(200),
  stream: z.boolean().nullish(),
  temperature: z.number().nullish(),
  max_tokens: z.number().int().positive().nullish(),
  response_format: z.object({ type: z.string() }).loose().nullish(),
}).loose();

/** A validated stand-in request. */
export type StandInRequest = z.infer<typeof StandInRequestSchema>;

/** Most inputs in one embeddings request (OpenAI's limit). */
export const EMBEDDING_INPUTS_MAX = 2048;
/** Most dimensions the stand-in writes (text-embedding-3-large has 3072). */
export const EMBEDDING_DIMENSIONS_MAX = 4096;

/**
 * The subset of OpenAI's embeddings request the stand-in reads
 * (`POST /api/local-llm/v1/embeddings`): text input only, not token arrays.
 */
export const StandInEmbeddingRequestSchema = z.object({
  model: z.string().optional(),
  input: z.union([
    z.string().max(100_000),
    z.array(z.string().max(100_000)).min(1).max(EMBEDDING_INPUTS_MAX),
  ], { error: "input must be a string or an array of strings" }),
  dimensions: z.number().int().min(1).max(EMBEDDING_DIMENSIONS_MAX).nullish(),
  encoding_format: z.enum(["float", "base64"]).nullish(),
}).loose();

/** A validated stand-in embeddings request. */
export type StandInEmbeddingRequest = z.infer<typeof StandInEmbeddingRequestSchema>;
