/**
 * Zod schemas of the community API (questions, messages, votes, favorites): the same
 * objects validate requests and generate `/api/openapi.json`.
 *
 * @module
 */
import { z } from "zod";
import { closedObject } from "./closed.ts";
import {
  CONTENT_EMPTY,
  CONTENT_MAX,
  contentTooLong,
  DESCRIPTION_MAX,
  descriptionTooLong,
  TITLE_MAX,
  TITLE_MIN,
  titleRule,
} from "../input_limits.ts";
import { LimitParam, PageParam, positiveInt } from "./paging.ts";
import { QuestionsQuery } from "./questions_query.ts";
import { TagsField } from "./tags.ts";

// Split out so the home page's query and paging rules, and the tag rules the router checks a
// `[tag]` with, load without the rest of the API's schemas (a new instance's first `GET /`,
// lib/app.ts); the same objects, re-exported here.
export { LimitParam, PageParam, positiveInt };
export { QuestionsQuery };
export { TagsField };

export const TargetType = z.enum(["question", "message"], {
  error: 'targetType must be "question" or "message"',
}).meta({ id: "TargetType" });

export const VoteType = z.enum(["up", "down"], {
  error: 'voteType must be "up" or "down"',
}).meta({ id: "VoteType" });

const id = (name: string) =>
  z.string({ error: `${name} is required` }).trim().min(1, { error: `${name} is required` })
    .max(200, { error: `${name} is too long` });

/** The length of a string input a check saw (undefined for anything else). */
function lengthOf(input: unknown): number | undefined {
  return typeof input === "string" ? input.length : undefined;
}

/**
 * Title rule of docs/interface.md#question-fields (2–120 characters after trimming). The
 * error is the sentence of {@link titleRule} (with the title's length), unless an endpoint
 * pins its own (`POST /api/agent/questions`).
 */
export function titleField(error: string | typeof titleRule = titleRule) {
  const say = typeof error === "string"
    ? () => error
    : (iss: { input?: unknown }) => error(lengthOf(iss.input));
  return z.string({ error: () => (typeof error === "string" ? error : error()) }).trim()
    .min(TITLE_MIN, { error: say }).max(TITLE_MAX, { error: say });
}

export const DescriptionField = z.string({ error: "Details must be text." })
  .max(DESCRIPTION_MAX, { error: (iss) => descriptionTooLong(lengthOf(iss.input) ?? 0) });

export const AuthorSchema = z.object({
  id: z.string(),
  name: z.string(),
  avatar: z.string().nullable().meta({
    description:
      'The profile\'s avatarUrl when written: an http(s) URL, or "" when unset (null only on posts stored before that rule)',
  }),
}).meta({ id: "Author" });

// ——— Requests ———

export const NewQuestionBody = z.object({
  title: titleField(),
  description: DescriptionField.nullish(),
  tags: TagsField.nullish(),
  panel: z.boolean().optional().meta({
    description:
      "Let the AI expert panel discuss the question (default true; the asker's `expertPanel` setting can turn it off too).",
  }),
}).meta({ id: "NewQuestion" });

/**
 * Message content: the creation rule (1 to 10 000 characters after trimming, at least one of
 * them visible), refused in sentences (lib/input_limits.ts) — never cut.
 */
export const ContentField = z.string({
  // No content at all is an empty answer; content that is not a string says so.
  error: (iss) => iss.input === undefined ? CONTENT_EMPTY : "content must be text (Markdown)",
}).trim().min(1, {
  error: CONTENT_EMPTY,
}).max(CONTENT_MAX, { error: (iss) => contentTooLong(lengthOf(iss.input) ?? 0) })
  // Only control, format or unpaired surrogate characters (`"\u0000"`) show nothing: as
  // empty as spaces, and it would still count as an answer.
  .refine((text) => /[^\p{C}\p{Z}]/u.test(text), { error: CONTENT_EMPTY });

export const NewMessageBody = z.object({
  content: ContentField,
  replyTo: id("replyTo").nullish().meta({
    description: "Id of a message of the same question this message replies to.",
  }),
  aiDraft: z.string().max(CONTENT_MAX).nullish().meta({
    description:
      "The AI draft (`POST /api/ai/draft`) the content started from: unless substantially edited, the message shows `draftedWithAi: true`.",
  }),
}).meta({ id: "NewMessage" });

/** `PATCH /api/questions/:id`: the fields to change, each under its creation rule. */
export const EditQuestionBody = closedObject({
  title: titleField().optional(),
  description: DescriptionField.optional(),
  tags: TagsField.optional(),
}).refine((b) => b.title !== undefined || b.description !== undefined || b.tags !== undefined, {
  error: "Send at least one of title, description or tags to change.",
}).meta({ id: "EditQuestion" });

/** `PATCH /api/messages/:id`. */
export const EditMessageBody = closedObject({ content: ContentField }).meta({ id: "EditMessage" });

/** `POST /api/questions/:id/accept`. */
export const AcceptBody = z.object({
  messageId: z.string({ error: "messageId must be a message id or null" }).trim().min(1, {
    error: "messageId must be a message id or null",
  }).max(200, { error: "messageId is too long" }).nullable().meta({
    description: "A top-level answer of this question, or null to clear the mark.",
  }),
}).meta({ id: "AcceptRequest" });

export const AcceptResult = z.object({
  acceptedMessageId: z.string().nullable(),
}).meta({ id: "AcceptResult" });

/** `{ok: true}` of a delete. */
export const OkResult = z.object({ ok: z.literal(true) }).meta({ id: "Ok" });

export const Revision = z.object({
  revision: z.int().meta({
    description:
      "Revision N is the state after N − 1 edits: 1 is the original, the highest is the current text.",
  }),
  editedAt: z.number().meta({ description: "Unix ms (revision 1: the creation time)" }),
  editedBy: z.object({ id: z.string(), name: z.string() }),
  title: z.string().optional(),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  content: z.string().optional(),
}).meta({ id: "Revision" });

export const RevisionList = z.object({
  revisions: z.array(Revision).meta({ description: "Newest first" }),
}).meta({ id: "RevisionList" });

export const LikeBody = z.object({
  targetId: id("targetId"),
  targetType: TargetType,
  voteType: VoteType.default("up"),
}).meta({ id: "LikeRequest" });

export const FavoriteBody = z.object({
  targetId: id("targetId"),
  targetType: TargetType,
}).meta({ id: "FavoriteRequest" });

export const FavoritesQuery = z.object({
  targetType: TargetType,
  targetIds: z.string().optional().meta({
    description: "Comma-separated ids, at most 200. None (or empty) answers `{statuses: {}}`.",
  }),
});

// ——— Responses (documentation and tests) ———

export const ErrorBody = z.object({
  error: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  retryAfter: z.number().optional(),
}).meta({ id: "Error" });

export const QuestionListItem = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  upvotes: z.int(),
  messageCount: z.int(),
  createdAt: z.number().meta({ description: "Unix time in milliseconds" }),
}).meta({ id: "QuestionListItem" });

const answerCount = z.int().meta({
  description:
    "Top-level answers by people or their agents. Replies (messages with replyTo) are not answers, nor are the AI expert panel's messages (authorType `ai`); messageCount counts every message.",
});
const acceptedMessageId = z.string().nullable().meta({
  description: "The accepted answer's id; null when none.",
});
const editedAt = z.number().nullable().meta({
  description: "Unix ms of the last edit; null if never edited.",
});
const newAccount = z.literal(true).optional().meta({
  description:
    'Present when a new account wrote it (younger than NEW_ACCOUNT_HOURS, nothing up-voted or accepted yet): pages render its links with rel="ugc nofollow".',
});

export const QuestionSummary = QuestionListItem.extend({
  downvotes: z.int(),
  author: AuthorSchema,
  createdBy: z.enum(["user", "agent"]),
  answerCount,
  acceptedMessageId,
  editedAt,
  newAccount,
}).meta({ id: "QuestionSummary" });

export const QuestionPage = z.object({
  questions: z.array(QuestionSummary),
  total: z.int().nullable().meta({
    description: "Matching questions; null when a search stopped at its scan bound.",
  }),
  page: z.int(),
  limit: z.int(),
  hasMore: z.boolean(),
}).meta({ id: "QuestionPage" });

const VoteFields = {
  upvotes: z.int(),
  downvotes: z.int(),
  likedBy: z.array(z.string()),
  dislikedBy: z.array(z.string()),
};

export const MessageSchema = z.object({
  id: z.string(),
  questionId: z.string(),
  author: AuthorSchema,
  authorType: z.enum(["user", "agent", "ai"]).meta({
    description: "`ai` for messages of Parley's AI expert panel (never a person's post).",
  }),
  createdBy: z.enum(["user", "agent", "system"]).meta({
    description: "`system` for AI expert messages.",
  }),
  expertId: z.string().optional().meta({
    description: "The AI expert who wrote the message (`GET /api/experts`); only on `ai` messages.",
  }),
  draftedWithAi: z.literal(true).optional().meta({
    description:
      "Present when the author posted an AI draft (`POST /api/ai/draft`) mostly unedited.",
  }),
  content: z.string().meta({ description: "Markdown" }),
  replyTo: z.string().optional(),
  createdAt: z.number(),
  via: z.literal("ai-avatar").optional().meta({
    description: "Present on answers the author's AI avatar wrote on its own.",
  }),
  standIn: z.literal(true).optional().meta({
    description: "Present when Parley's offline stand-in model wrote the content (local mode).",
  }),
  newAccount,
  editedAt,
  deleted: z.literal(true).optional().meta({
    description:
      'A deleted message kept as a placeholder because it has replies: content "", author {id: "", name: "[deleted]", avatar: null}.',
  }),
  deletedAt: z.number().optional(),
  ...VoteFields,
}).meta({ id: "Message" });

export const QuestionSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().meta({ description: "Markdown" }),
  tags: z.array(z.string()),
  author: AuthorSchema,
  createdBy: z.enum(["user", "agent"]),
  createdAt: z.number(),
  status: z.literal("active"),
  discussionRounds: z.int(),
  standIn: z.literal(true).optional().meta({
    description: "Present when Parley's offline stand-in model wrote the question (local mode).",
  }),
  newAccount,
  messageCount: z.int(),
  answerCount,
  acceptedMessageId,
  editedAt,
  deletedAt: z.number().optional().meta({
    description: "Present only on a deleted question, which only its author and moderators see.",
  }),
  ...VoteFields,
}).meta({ id: "Question" });

export const QuestionWithMessages = QuestionSchema.extend({
  messages: z.array(MessageSchema).meta({
    description:
      "This page of the thread: up to 30 top-level answers in `sort` order, each followed by up to 50 of its replies (any depth, time order). `messageCount` stays the whole thread's count.",
  }),
  sort: z.enum(["votes", "newest", "oldest"]).meta({ description: "The answer order used." }),
  page: z.int().meta({ description: "This page (1-based); past the last page it is empty." }),
  pageCount: z.int().meta({ description: "Pages of 30 top-level answers (at least 1)." }),
  replyCounts: z.array(z.object({ answerId: z.string(), replies: z.int() })).meta({
    description:
      "Replies under each shown answer (all of them); more than 50 are paged with `?answer=<id>&replyPage=`.",
  }),
}).meta({ id: "QuestionWithMessages" });

/** Query of `GET /api/questions/:id` and `/questions/:id`: the thread page. */
export const ThreadQuery = z.object({
  sort: z.enum(["votes", "newest", "oldest"], {
    error: 'sort must be "votes", "newest" or "oldest"',
  }).default("votes").meta({
    description:
      "Order of the top-level answers: `votes` (default: the accepted answer first, then up-votes − down-votes, ties oldest first), `newest` or `oldest`. Replies stay under their answer in time order.",
  }),
  page: PageParam,
  answer: z.string().min(1).max(200).optional().meta({
    description: "Show only this top-level answer and a page of its replies.",
  }),
  replyPage: positiveInt("replyPage").optional().meta({
    description: "With `answer`: the page of 50 replies (default 1).",
  }),
});

export const VoteResult = z.object({
  action: z.enum(["liked", "unliked", "downvoted", "undownvoted"]),
  upvotes: z.int(),
  downvotes: z.int(),
  liked: z.boolean(),
  downvoted: z.boolean(),
}).meta({ id: "VoteResult" });

export const FavoriteToggleResult = z.object({
  favorited: z.boolean(),
  action: z.enum(["favorited", "unfavorited"]),
}).meta({ id: "FavoriteToggle" });

export const FavoriteStatuses = z.object({
  statuses: z.record(z.string(), z.boolean()),
}).meta({ id: "FavoriteStatuses" });

/** `GET /api/feed`: how many questions exist. */
export const FeedTotal = z.object({ total: z.int() });
