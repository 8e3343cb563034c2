/**
 * Zod schemas of the profile API's answers (own profile, statistics and badges, privacy
 * settings, activity feeds, public profiles, bound identities, the session). They
 * generate `/api/openapi.json` and let tests check real answers against the documentation.
 *
 * @module
 */
import { z } from "zod";
import { PROVIDERS } from "../config.ts";
import { AuthorSchema, TargetType, VoteType } from "./community.ts";
import { bioProblem, imageUrlProblem } from "../profile/rules.ts";
import { displayNameRulesProblem } from "../profile/names.ts";

const Provider = z.enum(PROVIDERS).meta({ id: "Provider" });
const unixMs = z.number().meta({ description: "Unix time in milliseconds" });
const isoDate = z.string().meta({ description: "ISO 8601" });

/** An image URL docs/interface.md#profiles types as a string: `""` when unset, never null. */
const unsetIsEmpty = z.string().meta({ description: 'http(s) URL, or "" when unset' });

/** `GET /api/profile/me` (docs/interface.md#profiles). */
export const ProfileSchema = z.object({
  userId: z.string(),
  displayName: z.string(),
  avatarUrl: unsetIsEmpty,
  bio: z.string(),
  provider: Provider,
  coverUrl: unsetIsEmpty,
  customized: z.boolean(),
  createdAt: isoDate,
  updatedAt: isoDate,
}).meta({ id: "Profile" });

/** docs/interface.md#profiles's statistics fields. */
export const StatisticsSchema = z.object({
  questionsCount: z.int(),
  answersCount: z.int(),
  debatesCount: z.int(),
  upvotesReceived: z.int(),
  favoritesReceived: z.int(),
  contributionScore: z.int().meta({
    description: "question 5, answer 3, upvote received 1, debate 10",
  }),
}).meta({ id: "Statistics" });

export const BadgeSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  earned: z.boolean(),
  earnedAt: unixMs.nullable(),
  progress: z.object({ current: z.int(), target: z.int() }),
}).meta({ id: "Badge" });

/** `GET /api/profile/stats`: the statistics with the badges beside them. */
export const StatsResponse = StatisticsSchema.extend({
  badges: z.array(BadgeSchema),
}).meta({ id: "StatsAndBadges" });

export const ActivityQuestion = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  createdAt: unixMs,
  upvotes: z.int(),
  messageCount: z.int(),
  answerCount: z.int().meta({
    description: "Top-level answers (messageCount also counts replies)",
  }),
}).meta({ id: "ActivityQuestion" });

export const ActivityAnswer = z.object({
  id: z.string().meta({ description: "Message id" }),
  content: z.string(),
  questionId: z.string(),
  questionTitle: z.string(),
  createdAt: unixMs,
  upvotes: z.int(),
}).meta({ id: "ActivityAnswer" });

export const DebateStatus = z.enum(["pending", "in_progress", "completed", "failed"]).meta({
  id: "DebateStatus",
  description: "`failed` marks a debate the model or storage could not finish.",
});

export const Winner = z.enum(["user", "opponent", "tie"]).meta({ id: "Winner" });

export const ActivityDebate = z.object({
  id: z.string(),
  topic: z.string(),
  opponentName: z.string(),
  status: DebateStatus,
  createdAt: unixMs,
  winner: Winner.optional(),
}).meta({ id: "ActivityDebate" });

/**
 * What a like or favorite embeds of its target, its full content included (null when the
 * target is gone).
 */
export const TargetContentSchema = z.object({
  type: TargetType,
  id: z.string(),
  questionId: z.string(),
  title: z.string().meta({ description: "The question's title (for a message, its question's)" }),
  content: z.string().meta({
    description: "The question's description or the message's text, whole (Markdown)",
  }),
  tags: z.array(z.string()).meta({
    description: "The question's tags (for a message, its question's)",
  }),
  excerpt: z.string().meta({ description: "First 200 characters of the text" }),
  url: z.string().meta({ description: "Site path of the target" }),
  author: AuthorSchema,
  createdAt: unixMs,
}).meta({ id: "TargetContent" });

export const ActivityLike = z.object({
  targetId: z.string(),
  targetType: TargetType,
  voteType: VoteType,
  createdAt: unixMs,
  target: TargetContentSchema.nullable(),
}).meta({ id: "ActivityLike" });

export const ActivityFavorite = z.object({
  targetId: z.string(),
  targetType: TargetType,
  createdAt: unixMs,
  target: TargetContentSchema.nullable(),
}).meta({ id: "ActivityFavorite" });

/** One page of activity; the item shape follows `type`. */
export const ActivityPageSchema = z.object({
  activities: z.array(
    z.union([ActivityQuestion, ActivityAnswer, ActivityDebate, ActivityLike, ActivityFavorite]),
  ).meta({
    description:
      "Newest first. questions → ActivityQuestion, answers → ActivityAnswer, debates → ActivityDebate, likes → ActivityLike, favorites → ActivityFavorite.",
  }),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable().meta({
    description: "Pass back as `cursor` for the next page",
  }),
}).meta({ id: "ActivityPage" });

/** `GET /api/profile/public/:userId`. */
export const PublicProfileSchema = z.object({
  userId: z.string(),
  displayName: z.string(),
  avatarUrl: unsetIsEmpty,
  bio: z.string(),
  coverUrl: unsetIsEmpty,
  memberSince: isoDate,
  stats: StatisticsSchema,
  badges: z.array(BadgeSchema),
  recentQuestions: z.array(ActivityQuestion).meta({
    description: "Empty when the activity feed is private (`activityVisibility`).",
  }),
  recentAnswers: z.array(ActivityAnswer).meta({
    description: "Empty when the activity feed is private (`activityVisibility`).",
  }),
  visibleActivity: z.object({
    questions: z.boolean(),
    answers: z.boolean(),
    debates: z.boolean(),
    likes: z.boolean(),
    favorites: z.boolean(),
  }).meta({
    description:
      "Which activity kinds others may open: none while the activity feed is private; otherwise questions, answers and favorites, debates with a public debate archive, votes with a public vote history.",
  }),
}).meta({ id: "PublicProfile" });

export const IdentitySchema = z.object({
  provider: Provider,
  providerAccountId: z.string(),
  name: z.string(),
  avatar: z.string().nullable(),
  createdAt: unixMs,
  updatedAt: unixMs,
}).meta({ id: "Identity" });

export const IdentityList = z.object({ identities: z.array(IdentitySchema) }).meta({
  id: "IdentityList",
});

export const SessionSchema = z.object({
  user: z.object({
    id: z.string(),
    name: z.string(),
    image: z.string().nullable(),
    provider: Provider,
  }),
}).meta({ id: "Session" });

export const Ok = z.object({ ok: z.literal(true) }).meta({ id: "Ok" });

// ——— Requests ———

/** Schema of the settings, also used to validate `PUT /api/profile/settings`. */
export const SettingsSchema = z.object({
  activityVisibility: z.enum(["public", "private"]),
  voteHistory: z.enum(["public", "private"]),
  debateArchive: z.enum(["public", "private"]),
  aiAvatar: z.boolean(),
  expertPanel: z.boolean().optional().meta({
    description: "Let the AI expert panel discuss the user's new questions (default true).",
  }),
}).strict();

/** A user's settings. */
export type Settings = z.infer<typeof SettingsSchema>;

/** Schema of a settings edit: any subset of the four settings. */
export const SettingsUpdateSchema = SettingsSchema.partial().strict();

/** A zod check from a rule function that returns a problem or null. */
function rule(problem: (v: string) => string | null) {
  return (v: string, ctx: z.core.$RefinementCtx<string>) => {
    const message = problem(v);
    if (message) ctx.addIssue({ code: "custom", message });
  };
}

/** An image URL, or an empty string / null to clear it. */
const imageUrl = z.union([
  z.null(),
  z.string().trim().superRefine(rule(imageUrlProblem)).transform((v) => v === "" ? null : v),
]);

/**
 * The schema of `PATCH /api/profile/me`: every field optional, unknown fields refused.
 *
 * @example
 * ```ts
 * import type { Config } from "@/lib/config.ts";
 * import { parseInput } from "@/lib/schemas/parse.ts";
 * declare const body: unknown;
 * declare const config: Config;
 * const input = parseInput(profileUpdateSchema(config.offensiveWords), body);
 * ```
 */
export function profileUpdateSchema(offensiveWords: readonly string[]) {
  return z.object({
    displayName: z.string().trim().superRefine(
      rule((v) => displayNameRulesProblem(v, offensiveWords)),
    ),
    avatarUrl: imageUrl,
    bio: z.string().trim().superRefine(rule(bioProblem)),
    coverUrl: imageUrl,
  }).partial().strict();
}

/** A validated profile edit. */
export type ProfileUpdate = z.infer<ReturnType<typeof profileUpdateSchema>>;

/** `DELETE /api/profile/identities?provider=…`. */
export const UnbindQuery = z.object({
  provider: z.enum(["provider_a", "provider_b", "provider_c"], {
    error: "expected provider_a, provider_b or provider_c",
  }).meta({
    description: "The provider to unbind",
  }),
});
