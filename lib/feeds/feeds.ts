/**
 * The feeds' contents (docs/interface.md#feeds): newest questions, one tag's questions, one
 * question's answers and one user's public activity, each the newest {@link FEED_ENTRIES}
 * entries, read as an anonymous visitor would — deleted and hidden posts never appear
 * (lib/community/visibility.ts `isPublic`), and a user whose activity is private has no
 * feed. Returns data; ./atom.ts turns it into XML.
 *
 * @module
 */
import { isPublic } from "../community/visibility.ts";
import { findQuestions } from "../community/questions/feed.ts";
import { getQuestion } from "../community/questions/read.ts";
import { tagKey } from "../community/questions/model.ts";
import { listThreadTail } from "../community/messages/read.ts";
import { messagePath, type MessageRecord, rootAnswerOf } from "../community/messages/model.ts";
import { activityVisibleToOthers, listActivity } from "../profile/activity.ts";
import { getProfile } from "../profile/profiles.ts";
import { getSettings } from "../profile/settings.ts";
import { excerpt, renderMarkdown } from "../markdown.ts";
import { standingFrom, standingKeys } from "../moderation/standing.ts";
import { answersFeedPath, questionsFeedPath, tagFeedPath, userFeedPath } from "./paths.ts";

/** A question's page path. */
function base(questionId: string): string {
  return `/questions/${encodeURIComponent(questionId)}`;
}

/** Most entries in one feed. */
export const FEED_ENTRIES = 50;

/** One entry of a feed; paths are site-relative (./atom.ts makes them absolute). */
export interface FeedEntry {
  /** The entry's link: where the post shows (a message's thread page may change). */
  path: string;
  /**
   * The Atom id, when it is not `path`: a message's stays the `/questions/<id>#<message>`
   * it always was, so a reader does not see an entry again because its link changed.
   */
  idPath?: string;
  title: string;
  author: string;
  /** Unix ms. */
  published: number;
  /** Unix ms of the last edit, or `published`. */
  updated: number;
  /** Plain-text summary. */
  summary: string;
  /** Sanitized HTML of the post. */
  html: string;
}

/** A feed as data. */
export interface FeedDoc {
  title: string;
  subtitle: string;
  /** The page the feed mirrors. */
  pagePath: string;
  /** The feed's own path. */
  selfPath: string;
  entries: FeedEntry[];
}

type QuestionLike = {
  id: string;
  title: string;
  description: string;
  author: { name: string };
  createdAt: number;
  editedAt?: number | null;
  newAccount?: true;
};

function questionEntry(q: QuestionLike): FeedEntry {
  return {
    path: `/questions/${encodeURIComponent(q.id)}`,
    title: q.title,
    author: q.author.name,
    published: q.createdAt,
    updated: q.editedAt ?? q.createdAt,
    summary: excerpt(q.description || q.title),
    html: renderMarkdown(q.description, undefined, { newAccount: q.newAccount }),
  };
}

/**
 * The newest questions, or the newest of one tag.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const all = await questionsFeed(kv, Date.now());
 * const deno = await questionsFeed(kv, Date.now(), "deno");
 * ```
 */
export async function questionsFeed(kv: Deno.Kv, now: number, tag?: string): Promise<FeedDoc> {
  const canonical = tag === undefined ? undefined : tagKey(tag);
  const page = await findQuestions(
    kv,
    { sort: "new", tag: canonical, page: 1, limit: FEED_ENTRIES },
    now,
  );
  return {
    title: canonical ? `Questions tagged “${canonical}” · Parley` : "Newest questions · Parley",
    subtitle: canonical
      ? `The newest Parley questions tagged “${canonical}”.`
      : "The newest questions asked on Parley.",
    pagePath: canonical ? `/?tag=${encodeURIComponent(canonical)}` : "/",
    selfPath: canonical ? tagFeedPath(canonical) : questionsFeedPath(),
    entries: page.questions.map(questionEntry),
  };
}

/**
 * The top-level answer of each of `messages` (a thread's tail, in any order), for its link:
 * walked within the tail where the chain stays in it, else in the store.
 */
function answersOf(kv: Deno.Kv, messages: readonly MessageRecord[]): Promise<string[]> {
  const tail = new Map(messages.map((m) => [m.id, m]));
  return Promise.all(messages.map(async (m) => {
    // The highest of the chain within the tail: an answer, or a reply whose parent is older.
    const top = tail.get(await rootAnswerOf(tail, m)) ?? m;
    return top.replyTo ? await rootAnswerOf(kv, top) : top.id;
  }));
}

/**
 * A question's newest answers and replies, or null when the question is not public.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const feed = await answersFeed(kv, "q-1");
 * ```
 */
export async function answersFeed(kv: Deno.Kv, questionId: string): Promise<FeedDoc | null> {
  const q = await getQuestion(kv, questionId, null);
  if (!q || !isPublic(q)) return null;
  const messages = (await listThreadTail(kv, q.id, FEED_ENTRIES)).filter(isPublic).reverse();
  const answerIds = await answersOf(kv, messages);
  return {
    title: `Answers to “${q.title}” · Parley`,
    subtitle: `The newest answers and replies to “${q.title}”.`,
    pagePath: `/questions/${encodeURIComponent(q.id)}`,
    selfPath: answersFeedPath(q.id),
    entries: messages.map((m, i) => ({
      path: messagePath(q.id, answerIds[i], m.id),
      idPath: `${base(q.id)}#${encodeURIComponent(m.id)}`,
      title: `${m.replyTo ? "Reply" : "Answer"} by ${m.author.name} to “${q.title}”`,
      author: m.author.name,
      published: m.createdAt,
      updated: m.editedAt ?? m.createdAt,
      summary: excerpt(m.content),
      html: renderMarkdown(m.content, undefined, { newAccount: m.newAccount }),
    })),
  };
}

/**
 * A user's newest public questions and answers, or null for an unknown user or one whose
 * activity is private (`activityVisibility`).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const feed = await userFeed(kv, "u-1", Date.now());
 * ```
 */
export async function userFeed(
  kv: Deno.Kv,
  userId: string,
  now: number,
  /** `NEW_ACCOUNT_HOURS`: a new account's links carry `rel="ugc nofollow"` (0: none is new). */
  newAccountHours = 0,
): Promise<FeedDoc | null> {
  if (!userId || userId.length > 100) return null;
  const [profile, settings, standing] = await Promise.all([
    getProfile(kv, userId),
    getSettings(kv, userId),
    kv.getMany(standingKeys(userId)),
  ]);
  // The one privacy rule (lib/profile/activity.ts): a private activity feed has no Atom feed.
  if (!profile || !activityVisibleToOthers("questions", settings)) return null;
  // One person: new now means new when each post was written (standing only grows).
  const newAccount = standingFrom(standing, newAccountHours, now) === "new";
  const [questions, answers] = await Promise.all([
    listActivity(kv, userId, "questions", { limit: FEED_ENTRIES, now }),
    listActivity(kv, userId, "answers", { limit: FEED_ENTRIES, now }),
  ]);
  const name = profile.displayName;
  const entries: FeedEntry[] = [
    ...(questions.activities as QuestionLike[]).map((q) => ({
      ...questionEntry({ ...q, author: { name }, ...(newAccount ? { newAccount: true } : {}) }),
      title: `Asked: ${q.title}`,
    })),
    ...(answers.activities as {
      id: string;
      content: string;
      questionId: string;
      questionTitle: string;
      createdAt: number;
    }[]).map((a) => ({
      // Activity's answers are top-level messages: each is its own answer.
      path: messagePath(a.questionId, a.id),
      idPath: `${base(a.questionId)}#${encodeURIComponent(a.id)}`,
      title: `Answered: ${a.questionTitle}`,
      author: name,
      published: a.createdAt,
      updated: a.createdAt,
      summary: excerpt(a.content),
      html: renderMarkdown(a.content, undefined, { newAccount }),
    })),
  ].sort((a, b) => b.published - a.published).slice(0, FEED_ENTRIES);
  return {
    title: `${name}'s activity · Parley`,
    subtitle: `The newest questions and answers of ${name} on Parley.`,
    pagePath: `/u/${encodeURIComponent(userId)}`,
    selfPath: userFeedPath(userId),
    entries,
  };
}
