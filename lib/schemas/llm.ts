/**
 * Zod schema of the stand-in model's API (`POST /api/local-llm/v1/chat/completions`): the
 * subset of OpenAI's chat completion request it reads.
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
