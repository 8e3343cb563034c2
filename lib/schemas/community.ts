/**
 * Zod schemas of the community API (questions, messages, votes, favorites): the same
 * objects validate requests and generate `/api/openapi.json`.
 *
 * @module
 */
import { z } from "zod";
import {
  CONTENT_MAX,
  DESCRIPTION_MAX,
  SEARCH_QUERY_MAX,
  TAG_MAX_LENGTH,
  TITLE_MAX,
  TITLE_MIN,
} from "../shared.ts";
import { normalizeTags } from "../community/questions/model.ts";

/** Query-string integer ≥ 1 (`page`, `limit`). */
export function positiveInt(name: string) {
  const error = `${name} must be an integer of at least 1`;
  return z.coerce.number({ error }).int({ error }).min(1, { error }).max(1e9, {
    error: `${name} is too large`,
  });
}

/** `limit`: default 20; values above 50 are clamped to 50. */
export const LimitParam = positiveInt("limit").default(20).transform((n) => Math.min(n, 50))
  .meta({ description: "Items per page: default 20, maximum 50 (larger values are clamped)." });

/** `page`: 1-based. */
export const PageParam = positiveInt("page").default(1).meta({
  description: "Page number, starting at 1. A page past the end returns an empty list.",
});

export const TargetType = z.enum(["question", "message"], {
  error: 'targetType must be "question" or "message"',
}).meta({ id: "TargetType" });

export const VoteType = z.enum(["up", "down"], {
  error: 'voteType must be "up" or "down"',
}).meta({ id: "VoteType" });

const id = (name: string) =>
  z.string({ error: `${name} is required` }).trim().min(1, { error: `${name} is required` })
    .max(200, { error: `${name} is too long` });

/** Title rule of SPEC.md (2–120 characters after trimming). */
export function titleField(error: string) {
  return z.string({ error }).trim().min(TITLE_MIN, { error }).max(TITLE_MAX, { error });
}

/** Tags rule of SPEC.md: trimmed, empties dropped, first 5 kept (at most 50 sent). */
export const TagsField = z.array(
  z.string({ error: "each tag must be a string" }).trim().max(
    TAG_MAX_LENGTH,
    { error: `each tag must be at most ${TAG_MAX_LENGTH} characters` },
  ),
  { error: "tags must be an array of strings" },
).max(50, { error: "at most 50 tags may be sent (the first 5 are kept)" })
  .transform((t) => normalizeTags(t))
  .meta({ description: "Each trimmed, empty ones dropped, repeats dropped, the first 5 kept." });

export const DescriptionField = z.string({ error: "description must be a string" })
  .max(DESCRIPTION_MAX, {
    error: `description must be at most ${DESCRIPTION_MAX} characters`,
  });

export const AuthorSchema = z.object({
  id: z.string(),
  name: z.string(),
  avatar: z.string().nullable().meta({
    description:
      'The profile\'s avatarUrl when written: an http(s) URL, or "" when unset (null only on posts stored before that rule)',
  }),
}).meta({ id: "Author" });

// ——— Requests ———

export const QuestionsQuery = z.object({
  sort: z.enum(["new", "hot"], { error: 'sort must be "new" or "hot"' }).default("new"),
  q: z.string().max(SEARCH_QUERY_MAX, {
    error: `q must be at most ${SEARCH_QUERY_MAX} characters`,
  }).optional(),
  tag: z.string().max(TAG_MAX_LENGTH, { error: "tag is too long" }).optional(),
  page: PageParam,
  limit: LimitParam,
});

export const NewQuestionBody = z.object({
  title: titleField(`title must be ${TITLE_MIN} to ${TITLE_MAX} characters`),
  description: DescriptionField.nullish(),
  tags: TagsField.nullish(),
}).meta({ id: "NewQuestion" });

export const NewMessageBody = z.object({
  content: z.string({ error: "content is required" }).trim().min(1, {
    error: "content is required",
  }).max(CONTENT_MAX, { error: `content must be at most ${CONTENT_MAX} characters` }),
  replyTo: id("replyTo").nullish().meta({
    description: "Id of a message of the same question this message replies to.",
  }),
}).meta({ id: "NewMessage" });

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

export const QuestionSummary = QuestionListItem.extend({
  downvotes: z.int(),
  author: AuthorSchema,
  createdBy: z.enum(["user", "agent"]),
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
  authorType: z.enum(["user", "agent"]),
  createdBy: z.enum(["user", "agent"]),
  content: z.string().meta({ description: "Markdown" }),
  replyTo: z.string().optional(),
  createdAt: z.number(),
  via: z.literal("ai-avatar").optional().meta({
    description: "Present on answers the author's AI avatar wrote on its own.",
  }),
  standIn: z.literal(true).optional().meta({
    description: "Present when Parley's offline stand-in model wrote the content (local mode).",
  }),
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
  messageCount: z.int(),
  ...VoteFields,
}).meta({ id: "Question" });

export const QuestionWithMessages = QuestionSchema.extend({
  messages: z.array(MessageSchema).meta({
    description:
      "This page of the thread: up to 30 top-level answers, oldest first, each followed by up to 50 of its replies (any depth, time order). `messageCount` stays the whole thread's count.",
  }),
  answerCount: z.int().meta({ description: "Top-level answers in the whole thread." }),
  page: z.int().meta({ description: "This page (1-based); past the last page it is empty." }),
  pageCount: z.int().meta({ description: "Pages of 30 top-level answers (at least 1)." }),
  replyCounts: z.array(z.object({ answerId: z.string(), replies: z.int() })).meta({
    description:
      "Replies under each shown answer (all of them); more than 50 are paged with `?answer=<id>&replyPage=`.",
  }),
}).meta({ id: "QuestionWithMessages" });

/** Query of `GET /api/questions/:id` and `/questions/:id`: the thread page. */
export const ThreadQuery = z.object({
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
