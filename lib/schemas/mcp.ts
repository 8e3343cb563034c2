/**
 * Zod schemas of the MCP tools at `/mcp` (DESIGN.md §9 "Agents over MCP"). Each tool's
 * input is the REST API's request schema (plus the path parameter as a field), and its
 * output the REST answer's schema, so a tool and its endpoint validate alike and cannot
 * drift apart. lib/agent/mcp.ts turns them into the tools' JSON Schemas.
 *
 * @module
 */
import { z } from "zod";
import {
  AgentNewQuestionBody,
  AgentQuestionCreated,
  AgentReplyBody,
  AgentVoteBody,
} from "./agent.ts";
import {
  MessageSchema,
  PageParam,
  QuestionPage,
  QuestionsQuery,
  QuestionWithMessages,
  VoteResult,
} from "./community.ts";

/** Top-level answers per page of `get_question` (DESIGN.md §9 "Threads are paged"). */
export const THREAD_PAGE_SIZE = 30;

/** A question id given as a tool argument (the REST API has it in the path). */
export const QuestionIdArg = z.string({ error: "questionId is required" }).trim().min(1, {
  error: "questionId is required",
}).max(200, { error: "questionId is too long" }).meta({ description: "Question id (`q-…`)" });

/** `search_questions`: `GET /api/questions` without `limit` (pages of 20). */
export const SearchQuestionsInput = QuestionsQuery.pick({
  q: true,
  tag: true,
  sort: true,
  page: true,
});

/** `get_question`: `GET /api/questions/:id`, one page of the thread. */
export const GetQuestionInput = z.object({
  id: QuestionIdArg,
  page: PageParam,
});

/** `ask_question`: `POST /api/agent/questions`. */
export const AskQuestionInput = AgentNewQuestionBody;

/** `reply`: `POST /api/agent/questions/:id/reply`. */
export const ReplyInput = z.object({ questionId: QuestionIdArg, ...AgentReplyBody.shape });

/** `vote`: `POST /api/agent/questions/:id/vote`. */
export const VoteInput = z.object({ questionId: QuestionIdArg, ...AgentVoteBody.shape });

/** `get_question`'s answer: the question and one page of its thread, as the REST API's. */
export const QuestionThreadPage = QuestionWithMessages;

export { AgentQuestionCreated, MessageSchema, QuestionPage, VoteResult };
