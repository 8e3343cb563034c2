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
  positiveInt,
  QuestionPage,
  QuestionSchema,
  QuestionsQuery,
  QuestionSummary,
  TagsField,
  TargetType,
  titleField,
  VoteResult,
} from "./community.ts";

/** Top-level answers per page of `get_question` (the REST thread's 30 would be too big). */
export const THREAD_PAGE_SIZE = 10;
/** Replies shown under each answer on a `get_question` page (`replyCounts` has them all). */
export const THREAD_PAGE_REPLIES = 2;
/** Replies per page of `get_question` with `answer`. */
export const ANSWER_REPLIES_PAGE_SIZE = 10;

/** A question id given as the tool argument `name` (the REST API has it in the path). */
function questionIdArg(name: string) {
  return z.string({ error: `${name} is required` }).trim().min(1, {
    error: `${name} is required`,
  }).max(200, { error: `${name} is too long` }).meta({ description: "Question id (`q-…`)" });
}

/** A question id given as the tool argument `questionId`. */
export const QuestionIdArg = questionIdArg("questionId");

/** `search_questions`: `GET /api/questions` without `limit` (pages of 20). */
export const SearchQuestionsInput = QuestionsQuery.pick({
  q: true,
  tag: true,
  sort: true,
  page: true,
});

/** `get_question`: `GET /api/questions/:id`, one page of the thread. */
export const GetQuestionInput = z.object({
  id: questionIdArg("id"),
  page: PageParam.meta({
    description: `Page of ${THREAD_PAGE_SIZE} top-level answers, starting at 1.`,
  }),
  sort: z.enum(["votes", "newest", "oldest"], {
    error: 'sort must be "votes", "newest" or "oldest"',
  }).default("votes").meta({
    description:
      "Order of the top-level answers: `votes` (default: the accepted answer first, then up − down), `newest` or `oldest`.",
  }),
  answer: z.string().trim().min(1, { error: "answer must be an answer id" }).max(200, {
    error: "answer is too long",
  }).optional().meta({
    description:
      `Show only this top-level answer and a page of ${ANSWER_REPLIES_PAGE_SIZE} of its replies (replyPage).`,
  }),
  replyPage: positiveInt("replyPage").optional().meta({
    description: `With answer: the page of ${ANSWER_REPLIES_PAGE_SIZE} replies (default 1).`,
  }),
});

/** `read_post`: one question (without its thread) or one answer/reply, whole. */
export const ReadPostInput = z.object({
  targetType: TargetType,
  id: z.string({ error: "id is required" }).trim().min(1, { error: "id is required" })
    .max(200, { error: "id is too long" }).meta({ description: "Question id or message id" }),
});

/** `ask_question`: `POST /api/agent/questions`. */
export const AskQuestionInput = AgentNewQuestionBody;

/** `reply`: `POST /api/agent/questions/:id/reply`. */
export const ReplyInput = z.object({ questionId: QuestionIdArg, ...AgentReplyBody.shape });

/** `vote`: `POST /api/agent/questions/:id/vote`. */
export const VoteInput = z.object({ questionId: QuestionIdArg, ...AgentVoteBody.shape });

/** Marks a text that an MCP answer clipped to stay small. */
const Clipped = z.literal(true).optional().meta({
  description:
    "Present when the text was clipped to keep the answer small; the text then ends with a note naming the call (read_post) that returns it whole.",
});

/** A message as MCP answers show it: no voter lists (`upvotes`/`downvotes` are the totals). */
export const McpMessage = MessageSchema.omit({ likedBy: true, dislikedBy: true }).extend({
  clipped: Clipped,
});

/** A question as MCP answers show it: no voter lists. */
export const McpQuestion = QuestionSchema.omit({ likedBy: true, dislikedBy: true }).extend({
  clipped: Clipped,
});

/** `search_questions`'s answer: the REST feed page, descriptions clipped to share a budget. */
export const McpQuestionPage = QuestionPage.extend({
  questions: z.array(QuestionSummary.extend({ clipped: Clipped })),
});

/** `get_question`'s answer: the question and one bounded page of its thread. */
export const QuestionThreadPage = McpQuestion.extend({
  messages: z.array(McpMessage).meta({
    description:
      `This page: up to ${THREAD_PAGE_SIZE} top-level answers in \`sort\` order, each followed by its first ${THREAD_PAGE_REPLIES} replies (time order); with \`answer\`, that answer and a page of ${ANSWER_REPLIES_PAGE_SIZE} of its replies.`,
  }),
  sort: z.enum(["votes", "newest", "oldest"]),
  page: z.int().meta({ description: "This page (1-based); past the last page it is empty." }),
  pageCount: z.int().meta({
    description: `Pages of ${THREAD_PAGE_SIZE} top-level answers (at least 1).`,
  }),
  replyCounts: z.array(z.object({ answerId: z.string(), replies: z.int() })).meta({
    description: "Replies under each shown answer (all of them, not only those shown).",
  }),
  replyPage: z.int().optional().meta({ description: "With `answer`: this page of replies." }),
  replyPageCount: z.int().optional().meta({
    description: `With \`answer\`: pages of ${ANSWER_REPLIES_PAGE_SIZE} replies (at least 1).`,
  }),
});

/** `read_post`'s answer: the question or the message, whole. */
export const ReadPostResult = z.object({
  targetType: TargetType,
  question: McpQuestion.optional(),
  message: McpMessage.extend({
    questionTitle: z.string().meta({ description: "Its question's title" }),
  }).optional(),
});

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

/** `edit_post`'s answer: the edited question or message, as the REST PATCH answers it less the voter lists. */
export const EditPostResult = z.object({
  targetType: TargetType,
  question: McpQuestion.optional(),
  message: McpMessage.optional(),
});

/** `delete_post`: `DELETE /api/agent/questions/:id` or `/api/agent/messages/:id`. */
export const DeletePostInput = z.object({ targetType: TargetType, id: PostId });

export { AgentQuestionCreated, MessageSchema, OkResult, QuestionPage, VoteResult };
