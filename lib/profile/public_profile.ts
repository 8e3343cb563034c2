/**
 * The public face of a user (docs/interface.md#profiles): profile,
 * statistics, badges, and recent questions and answers — never email or tokens — plus
 * which activity kinds their privacy settings let others see.
 *
 * @module
 */
import { type ActivityType, listActivity, visibleActivityOf } from "./activity.ts";
import { getProfile } from "./profiles.ts";
import { getSettings } from "./settings.ts";
import {
  type BadgeStatus,
  badgeStatuses,
  readEarnedBadges,
  type Statistics,
  statisticsFrom,
} from "./stats.ts";
import { readUserStats } from "./user_stats.ts";

/** How many recent questions and answers a public profile shows. */
export const RECENT_ITEMS = 5;

/** A user's statistics and badges (also `GET /api/profile/stats`). */
export async function statsAndBadges(
  kv: Deno.Kv,
  userId: string,
): Promise<{ stats: Statistics; badges: BadgeStatus[] }> {
  const [counters, earned] = await Promise.all([
    readUserStats(kv, userId),
    readEarnedBadges(kv, userId),
  ]);
  return { stats: statisticsFrom(counters), badges: badgeStatuses(counters, earned) };
}

/** The JSON of a public profile. */
export interface PublicProfile {
  userId: string;
  displayName: string;
  avatarUrl: string;
  bio: string;
  coverUrl: string;
  memberSince: string;
  stats: Statistics;
  badges: BadgeStatus[];
  /** Empty when the activity feed is private (`activityVisibility`). */
  recentQuestions: unknown[];
  recentAnswers: unknown[];
  /** Which activity kinds others may open (lib/profile/activity.ts `activityVisibleToOthers`). */
  visibleActivity: Record<ActivityType, boolean>;
}

/**
 * The public profile of a user, or null for an unknown id.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const userId: string;
 * const p = await getPublicProfile(kv, userId, Date.now());
 * ```
 */
export async function getPublicProfile(
  kv: Deno.Kv,
  userId: string,
  now: number,
): Promise<PublicProfile | null> {
  if (!userId || userId.length > 100) return null;
  const [profile, settings] = await Promise.all([getProfile(kv, userId), getSettings(kv, userId)]);
  if (!profile) return null;
  const visible = visibleActivityOf(settings);
  const none = { activities: [] };
  const [{ stats, badges }, questions, answers] = await Promise.all([
    statsAndBadges(kv, userId),
    visible.questions ? listActivity(kv, userId, "questions", { limit: RECENT_ITEMS, now }) : none,
    visible.answers ? listActivity(kv, userId, "answers", { limit: RECENT_ITEMS, now }) : none,
  ]);
  return {
    userId: profile.userId,
    displayName: profile.displayName,
    avatarUrl: profile.avatarUrl,
    bio: profile.bio,
    coverUrl: profile.coverUrl,
    memberSince: new Date(profile.createdAt).toISOString(),
    stats,
    badges,
    recentQuestions: questions.activities,
    recentAnswers: answers.activities,
    visibleActivity: visible,
  };
}
