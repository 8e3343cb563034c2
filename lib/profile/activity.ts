/**
 * Profile activity: a user's questions, answers, debates, votes and favorites, newest
 * first, one page at a time, read from the per-user indexes the writes keep — and the
 * privacy rule that decides which of them another person may see.
 *
 * @module
 */
import { isPublic } from "../community/visibility.ts";
import { counterValue, getAll, InvalidCursorError, listNewestFirst } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { authorRowQuestionId, type MessageRecord } from "../community/messages/model.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import { summarize } from "../community/questions/read.ts";
import type { Settings } from "../schemas/profile.ts";
import type { TargetType } from "../community/targets.ts";
import { userVoteOf } from "../community/user_vote_rows.ts";
import type { UserFavoriteEntry } from "../community/favorites.ts";
import { pageDebateSummaries } from "../debates/store.ts";
import { withdrawnAmong } from "../moderation/withdrawn.ts";
import { excerpt } from "../text/excerpt.ts";

/** The five kinds of docs/interface.md#profiles. */
export const ACTIVITY_TYPES = ["questions", "answers", "debates", "likes", "favorites"] as const;
export type ActivityType = typeof ACTIVITY_TYPES[number];

/** Items per page by default, and at most. */
export const ACTIVITY_PAGE = 20;
export const ACTIVITY_PAGE_MAX = 50;

/**
 * What a like or favorite embeds of its target: its full content (SPEC: "plus the
 * target's full content") with what it takes to show and link it.
 */
export interface TargetContent {
  type: TargetType;
  id: string;
  questionId: string;
  /** The question's title (for a message, its question's). */
  title: string;
  /** The question's description or the message's text, whole (Markdown). */
  content: string;
  /** The question's tags (for a message, its question's). */
  tags: string[];
  /** {@link content} shortened to 200 characters, as the profile page lists it. */
  excerpt: string;
  url: string;
  author: { id: string; name: string; avatar: string | null };
  createdAt: number;
}

/** One page of activity. */
export interface ActivityPage<T = unknown> {
  activities: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * Whether `type` of a user's activity is visible to someone else under `settings` — the
 * one privacy rule every surface asks (the public profile page and API, the activity API,
 * the Atom feed of a user's activity, the sitemap's profiles). `activityVisibility`
 * ("Activity feed") private hides the whole feed, every kind; when it is public, debates
 * follow the debate archive setting and votes the vote history setting. The posts
 * themselves stay public where they were posted: only the list of what the person did is
 * private.
 *
 * @example
 * ```ts
 * import type { Settings } from "@/lib/profile/settings.ts";
 * declare const settings: Settings;
 * activityVisibleToOthers("likes", settings); // feed public and vote history public
 * ```
 */
export function activityVisibleToOthers(type: ActivityType, settings: Settings): boolean {
  if (settings.activityVisibility !== "public") return false;
  switch (type) {
    case "questions":
    case "answers":
    case "favorites":
      return true;
    case "debates":
      return settings.debateArchive === "public";
    case "likes":
      return settings.voteHistory === "public";
  }
}

/**
 * Which kinds of a user's activity someone else may see (the owner sees all).
 *
 * @example
 * ```ts
 * import type { Settings } from "@/lib/profile/settings.ts";
 * declare const settings: Settings;
 * const visible = visibleActivityOf(settings);
 * if (!Object.values(visible).some(Boolean)) console.log("no activity shown to others");
 * ```
 */
export function visibleActivityOf(settings: Settings): Record<ActivityType, boolean> {
  return Object.fromEntries(
    ACTIVITY_TYPES.map((t) => [t, activityVisibleToOthers(t, settings)]),
  ) as Record<ActivityType, boolean>;
}

/** Deleted posts, and posts hidden by moderators, leave every activity list at once. */
function shown(record: { deletedAt?: number; hiddenAt?: number }): boolean {
  return isPublic(record);
}

/** Resolve like/favorite targets to their embedded content (null when deleted). */
async function targetContents(
  kv: Deno.Kv,
  items: { targetType: TargetType; targetId: string }[],
): Promise<(TargetContent | null)[]> {
  const records = await getAll<QuestionRecord | MessageRecord>(
    kv,
    items.map((i) =>
      i.targetType === "question" ? keys.question(i.targetId) : keys.message(i.targetId)
    ),
  );
  // Messages need their question's title.
  const questionIds = records.map((r, i) =>
    items[i].targetType === "message" && r.value ? (r.value as MessageRecord).questionId : null
  );
  const parents = await getAll<QuestionRecord>(
    kv,
    questionIds.map((id) => keys.question(id ?? "\u0000none")),
  );
  return records.map((r, i) => {
    // A deleted question or message (or a message of a deleted question) shows as removed.
    if (!r.value || !shown(r.value)) return null;
    if (parents[i].value && !shown(parents[i].value)) return null;
    if (items[i].targetType === "question") {
      const q = r.value as QuestionRecord;
      return {
        type: "question",
        id: q.id,
        questionId: q.id,
        title: q.title,
        content: q.description,
        tags: q.tags,
        excerpt: excerpt(q.description),
        url: `/questions/${encodeURIComponent(q.id)}`,
        author: q.author,
        createdAt: q.createdAt,
      };
    }
    const m = r.value as MessageRecord;
    return {
      type: "message",
      id: m.id,
      questionId: m.questionId,
      title: parents[i].value?.title ?? "(question removed)",
      content: m.content,
      tags: parents[i].value?.tags ?? [],
      excerpt: excerpt(m.content),
      url: `/questions/${encodeURIComponent(m.questionId)}#${encodeURIComponent(m.id)}`,
      author: m.author,
      createdAt: m.createdAt,
    };
  });
}

/**
 * One page of a user's activity of one kind, newest first, in docs/interface.md#profiles's item shapes.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const now: number;
 * declare const userId: string;
 * const page = await listActivity(kv, userId, "answers", { limit: 20, now: Date.now() });
 * if (page.hasMore) await listActivity(kv, userId, "answers", { cursor: page.nextCursor!, now });
 * ```
 */
export async function listActivity(
  kv: Deno.Kv,
  userId: string,
  type: ActivityType,
  opts: { limit?: number; cursor?: string; now: number },
): Promise<ActivityPage> {
  const limit = Math.min(ACTIVITY_PAGE_MAX, Math.max(1, opts.limit ?? ACTIVITY_PAGE));
  const page = <T>(prefix: Deno.KvKey) =>
    listNewestFirst<T>(kv, prefix, { limit, cursor: opts.cursor });
  const done = <T>(activities: T[], cursor?: string): ActivityPage<T> => ({
    activities,
    hasMore: cursor !== undefined,
    nextCursor: cursor ?? null,
  });

  switch (type) {
    case "questions": {
      const { values, cursor } = await page<string>(keys.questionsByAuthorPrefix(userId));
      const records = (await getAll<QuestionRecord>(kv, values.map(keys.question)))
        .flatMap((e) => e.value && shown(e.value) ? [e.value] : []);
      const summaries = await summarize(kv, records, { downvotes: false });
      return done(
        summaries.map((s) => ({
          id: s.id,
          title: s.title,
          description: s.description,
          tags: s.tags,
          createdAt: s.createdAt,
          upvotes: s.upvotes,
          messageCount: s.messageCount,
          // Additive: the one definition of "answers" (top-level messages).
          answerCount: s.answerCount,
        })),
        cursor,
      );
    }
    case "answers": {
      const rows = await page<unknown>(keys.messagesByAuthorPrefix(userId));
      const cursor = rows.cursor;
      // The key's last part is the message; the value its question (older stores: an
      // object holding both, lib/community/messages/model.ts authorRowQuestionId).
      const values = rows.keys.map((key, i) => ({
        id: String(key[3]),
        questionId: authorRowQuestionId(rows.values[i]) ?? "",
      }));
      const [messages, questions, ups] = await Promise.all([
        getAll<MessageRecord>(kv, values.map((v) => keys.message(v.id))),
        getAll<QuestionRecord>(kv, values.map((v) => keys.question(v.questionId || "-"))),
        getAll(kv, values.map((v) => keys.voteCount("message", v.id, "up"))),
      ]);
      // Answers of a deleted question leave activity with it (a deleted message has no row).
      const items = messages.flatMap((m, i) =>
        m.value && shown(m.value) &&
          (!questions[i].value || shown(questions[i].value))
          ? [{
            id: m.value.id,
            content: m.value.content,
            questionId: m.value.questionId,
            questionTitle: questions[i].value?.title ?? "(question removed)",
            createdAt: m.value.createdAt,
            upvotes: counterValue(ups[i].value),
          }]
          : []
      );
      return done(items, cursor);
    }
    case "debates": {
      const { items, cursor } = await pageDebateSummaries(kv, userId, opts.now, {
        limit,
        cursor: opts.cursor,
      });
      // Like hidden posts above, a debate moderators withdrew leaves the activity feed.
      const withdrawn = await withdrawnAmong(kv, "debate", items.map((d) => d.id));
      return done(items.filter((d) => !withdrawn.has(d.id)), cursor);
    }
    case "likes": {
      const rows = await page<unknown>(keys.userVotesPrefix(userId));
      const cursor = rows.cursor;
      const values = rows.keys.flatMap((key, i) => {
        const v = userVoteOf(key, rows.values[i]);
        return v ? [v] : [];
      });
      const targets = await targetContents(kv, values);
      return done(
        values.map((v, i) => ({
          targetId: v.targetId,
          targetType: v.targetType,
          voteType: v.voteType,
          createdAt: v.createdAt,
          target: targets[i],
        })),
        cursor,
      );
    }
    case "favorites": {
      const { values, cursor } = await page<UserFavoriteEntry>(keys.userFavoritesPrefix(userId));
      const targets = await targetContents(kv, values);
      return done(
        values.map((v, i) => ({
          targetId: v.targetId,
          targetType: v.targetType,
          createdAt: v.createdAt,
          target: targets[i],
        })),
        cursor,
      );
    }
  }
}

/**
 * {@link listActivity} for pages: a cursor that is no longer valid (edited by hand, or
 * from another tab's list) shows the newest page instead of failing.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const now: number;
 * declare const url: URL;
 * declare const userId: string;
 * const page = await listActivityForPage(kv, userId, "questions", url.searchParams.get("cursor"), now);
 * ```
 */
export async function listActivityForPage(
  kv: Deno.Kv,
  userId: string,
  type: ActivityType,
  cursor: string | null,
  now: number,
): Promise<ActivityPage & { fromCursor: boolean }> {
  if (cursor) {
    try {
      return { ...await listActivity(kv, userId, type, { cursor, now }), fromCursor: true };
    } catch (err) {
      if (!(err instanceof InvalidCursorError)) throw err;
    }
  }
  return { ...await listActivity(kv, userId, type, { now }), fromCursor: false };
}
