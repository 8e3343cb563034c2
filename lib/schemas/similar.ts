/**
 * Zod schemas of similar questions (`GET /api/questions/similar`, the agent API's
 * `GET /api/agent/questions/similar` and the MCP `similar_questions` tool): one request
 * and one answer shape for all three.
 *
 * @module
 */
import { z } from "zod";
import { SEARCH_QUERY_MAX } from "../input_limits.ts";
import { SIMILAR_LIMIT } from "../search/similar.ts";

const TITLE_REQUIRED = "title is required";

/** `?title=`: the title being written, 1 to 200 characters after trimming. */
export const SimilarQuery = z.object({
  title: z.string({ error: TITLE_REQUIRED }).trim().min(1, { error: TITLE_REQUIRED })
    .max(SEARCH_QUERY_MAX, { error: `title must be at most ${SEARCH_QUERY_MAX} characters` })
    .meta({
      description:
        `The title being written (1 to ${SEARCH_QUERY_MAX} characters after trimming). Its words are matched like \`q\` of \`GET /api/questions\`.`,
    }),
});

/** One similar question. */
export const SimilarQuestionSchema = z.object({
  id: z.string(),
  title: z.string(),
  answerCount: z.int().meta({ description: "Top-level answers." }),
  accepted: z.boolean().meta({ description: "An answer is accepted." }),
  score: z.int().meta({ description: "The question's up-votes minus its down-votes." }),
}).meta({ id: "SimilarQuestion" });

/** The answer: at most 5 questions, those sharing the most words with the title first. */
export const SimilarQuestions = z.object({
  questions: z.array(SimilarQuestionSchema).max(SIMILAR_LIMIT),
}).meta({ id: "SimilarQuestions" });
