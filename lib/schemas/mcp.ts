/**
 * Zod schemas of the MCP tools at `/mcp` (docs/interface.md#mcp). Each tool's
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
  ContentField,
  DescriptionField,
  MessageSchema,
  OkResult,
  PageParam,
  QuestionPage,
  QuestionSchema,
  QuestionsQuery,
  QuestionWithMessages,
  TagsField,
  TargetType,
  titleField,
  VoteResult,
} from "./community.ts";

/** Top-level answers per page of `get_question` (docs/interface.md#threads). */
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

/** The post an `edit_post` / `delete_post` names. */
const PostId = z.string({ error: "id is required" }).trim().min(1, { error: "id is required" })
  .max(200, { error: "id is too long" }).meta({ description: "Question id or message id" });

/**
 * `edit_post`: `PATCH /api/agent/questions/:id` (title, description, tags) or
 * `PATCH /api/agent/messages/:id` (content), by `targetType`.
 */
export const EditPostInput = z.object({
  targetType: TargetType,
  id: PostId,
  title: titleField().optional(),
  description: DescriptionField.optional(),
  tags: TagsField.optional(),
  content: ContentField.optional().meta({ description: "A message's new content (Markdown)" }),
}).superRefine((v, ctx) => {
  const questionFields = v.title !== undefined || v.description !== undefined ||
    v.tags !== undefined;
  if (v.targetType === "question" && (!questionFields || v.content !== undefined)) {
    ctx.addIssue({
      code: "custom",
      path: ["title"],
      message: "A question edit takes title, description and/or tags (not content)",
    });
  }
  if (v.targetType === "message" && (v.content === undefined || questionFields)) {
    ctx.addIssue({
      code: "custom",
      path: ["content"],
      message: "A message edit takes content only",
    });
  }
});

/** `edit_post`'s answer: the edited question or message, as the REST PATCH answers it. */
export const EditPostResult = z.object({
  targetType: TargetType,
  question: QuestionSchema.optional(),
  message: MessageSchema.optional(),
});

/** `delete_post`: `DELETE /api/agent/questions/:id` or `/api/agent/messages/:id`. */
export const DeletePostInput = z.object({ targetType: TargetType, id: PostId });

export { AgentQuestionCreated, MessageSchema, OkResult, QuestionPage, VoteResult };
