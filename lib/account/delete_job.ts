/**
 * The bulk of an account's deletion, as a job of the runner (lib/jobs/runner.ts): a person
 * may have thousands of posts, votes and notifications, so after the request removed what
 * must go at once (./delete.ts: sessions, identities, keys, the profile), this job walks
 * the person's own indexes phase by phase, a batch at a time:
 *
 * follows → posts (`authored`, then the activity indexes for posts written before it) →
 * votes → favorites → flags → debates → roundtables → notifications → the rest (statistics, badges,
 * avatar and rate-limit state, idempotency records).
 *
 * Each batch erases its items (./erase.ts: each step idempotent), then one commit under the
 * job's fence deletes the index rows it listed and records the phase and counts in
 * `["account_deletions", userId]`. A resumed job (another instance, after a crash) lists
 * the phase again from its start and finds only what is left — the last unrecorded batch
 * is erased a second time, which changes nothing. The job's last op deletes the progress
 * record; the tombstone `["deleted_users", userId]` stays.
 *
 * @module
 */
import { commit } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { JobContext, JobKind } from "../jobs/runner.ts";
import { invalidateReads } from "../community/read_cache.ts";
import { renderedParts } from "../fresh/html_cache.ts";
import type { UserFavoriteEntry } from "../community/favorites.ts";
import type { TargetType } from "../community/targets.ts";
import type { KeptContent } from "./deleted_user.ts";
import {
  anonymizeFlag,
  anonymizeVotes,
  deletePrefix,
  eraseDebate,
  eraseMessage,
  eraseQuestion,
  eraseRoundtable,
  removeFavorite,
} from "./erase.ts";

/** The job kind's name; the job id is the user id. */
export const ACCOUNT_DELETION_JOB = "account-deletion";

/** The phases, in order. */
export const DELETION_PHASES = [
  "follows",
  "posts",
  "legacy_messages",
  "legacy_questions",
  "votes",
  "favorites",
  "flags",
  "debates",
  "roundtables",
  "notifications",
  "rest",
] as const;
export type DeletionPhase = typeof DELETION_PHASES[number];

/** `["account_deletions", userId]`: how far the deletion got. */
export interface AccountDeletion {
  content: KeptContent;
  phase: DeletionPhase;
  /** Items erased so far, per phase. */
  done: Partial<Record<DeletionPhase, number>>;
  startedAt: number;
  /** Set when the runner gave the job up (it crashed repeatedly): an operator re-runs it. */
  stalled?: true;
}

/** Items erased per batch. */
export const DELETION_BATCH = 50;

/** The index each listing phase walks (the person's own rows). */
function phasePrefix(phase: DeletionPhase, userId: string): Deno.KvKey | null {
  switch (phase) {
    case "follows":
      return keys.followsByUserPrefix(userId);
    case "posts":
      return keys.authoredPrefix(userId);
    case "legacy_messages":
      return keys.messagesByAuthorPrefix(userId);
    case "legacy_questions":
      return keys.questionsByAuthorPrefix(userId);
    case "votes":
      return keys.userVotesPrefix(userId);
    case "favorites":
      return keys.userFavoritesPrefix(userId);
    case "flags":
      return keys.flagsByUserPrefix(userId);
    case "debates":
      return keys.debatesByUserPrefix(userId);
    case "roundtables":
      return keys.roundtablesByUserPrefix(userId);
    case "notifications":
      return keys.notificationsPrefix(userId);
    case "rest":
      return null;
  }
}

/** Erase the items of one batch of `phase` (the rows themselves go in the job's commit). */
async function eraseBatch(
  kv: Deno.Kv,
  phase: DeletionPhase,
  userId: string,
  content: KeptContent,
  rows: Deno.KvEntry<unknown>[],
  now: number,
): Promise<void> {
  switch (phase) {
    case "follows":
      await commit(kv, (op) => {
        for (const r of rows) op.delete(keys.follow(r.key[2] as string, userId));
      });
      return;
    case "posts":
      for (const r of rows) {
        const [, , kind, id] = r.key as [string, string, "question" | "message", string];
        if (kind === "message") await eraseMessage(kv, id, userId, content, now);
        else await eraseQuestion(kv, id, userId, content, now);
      }
      return;
    case "legacy_messages":
      // The activity row's key names the message (its value is the question's id).
      for (const r of rows) await eraseMessage(kv, String(r.key[3]), userId, content, now);
      return;
    case "legacy_questions":
      for (const r of rows) await eraseQuestion(kv, r.value as string, userId, content, now);
      return;
    case "votes":
      await anonymizeVotes(kv, userId, rows);
      return;
    case "favorites":
      for (const r of rows) await removeFavorite(kv, userId, r as Deno.KvEntry<UserFavoriteEntry>);
      return;
    case "flags":
      for (const r of rows) {
        await anonymizeFlag(kv, userId, r.key[2] as TargetType, r.key[3] as string, content);
      }
      return;
    case "debates":
      for (const r of rows) await eraseDebate(kv, userId, r.value as string);
      return;
    case "roundtables":
      for (const r of rows) await eraseRoundtable(kv, userId, r.value as string);
      return;
    case "notifications":
    case "rest":
      return; // the rows are all there is
  }
}

/** The rate-limit buckets keyed by a user id alone. */
const USER_BUCKETS = [
  "post_questions",
  "post_messages",
  "post_votes",
  "post_flags",
  "post_new_questions",
  "post_new_messages",
  "debates_daily",
  "roundtables_daily",
  "ai_ideas",
  "ai_draft",
  "markdown_preview",
  "account_export",
];

/** Everything else a person leaves under their id, removed in the last phase. */
async function eraseRest(kv: Deno.Kv, userId: string): Promise<void> {
  for (
    const prefix of [
      ["user_stats", userId],
      keys.badgePrefix(userId),
      ["avatar_answered", userId],
      ["participation_drafts", userId],
      ["notification_daily", userId],
      keys.notificationUnreadDuePrefix(userId),
      ["idempotency", userId],
      keys.sessionsByUserPrefix(userId),
      keys.authoredPrefix(userId),
    ] as Deno.KvKey[]
  ) await deletePrefix(kv, prefix);
  await commit(kv, (op) => {
    op.delete(keys.notificationUnread(userId))
      .delete(keys.notificationUnread(userId).concat("mark"))
      .delete(keys.avatarAnswerLog(userId))
      .delete(keys.debateAgent(userId))
      .delete(keys.agentKeyCount(userId))
      // A sanction names them and its reason; the moderation log keeps the record.
      .delete(keys.sanction(userId));
    // Rate-limit logs keyed by the person alone (those keyed by person and address, and
    // every other log, expire a minute after their window by themselves).
    for (const bucket of USER_BUCKETS) op.delete(keys.rateLimitLog(bucket, userId));
  });
}

/** Run (or resume) the deletion of `ctx.id`. */
async function run(ctx: JobContext, now: () => number): Promise<void> {
  const { kv, id: userId } = ctx;
  for (;;) {
    if (ctx.signal.aborted) return;
    const entry = await kv.get<AccountDeletion>(keys.accountDeletion(userId));
    const state = entry.value;
    if (!state) {
      await commit(kv, (op) => ctx.finish(op));
      return;
    }
    const prefix = phasePrefix(state.phase, userId);
    if (prefix === null) {
      await eraseRest(kv, userId);
      const res = await commit(kv, (op) => ctx.finish(op).check(entry).delete(entry.key));
      if (res.ok) {
        // This process forgets what it rendered with the person's name; other instances'
        // parts are keyed by the old snapshot, which no page asks for any more.
        renderedParts.clear();
        invalidateReads(kv);
      }
      return;
    }
    const rows = await Array.fromAsync(kv.list({ prefix }, { limit: DELETION_BATCH }));
    await eraseBatch(kv, state.phase, userId, state.content, rows, now());
    const last = rows.length < DELETION_BATCH;
    const next: AccountDeletion = {
      ...state,
      phase: last ? DELETION_PHASES[DELETION_PHASES.indexOf(state.phase) + 1] : state.phase,
      done: { ...state.done, [state.phase]: (state.done[state.phase] ?? 0) + rows.length },
    };
    const res = await commit(kv, (op) => {
      ctx.fence(op).check(entry).set(entry.key, next);
      for (const r of rows) op.delete(r.key);
    });
    if (!res.ok) return; // not ours any more: the new holder continues
    if (rows.length > 0) invalidateReads(kv); // feeds and threads show the change
  }
}

/**
 * The deletion job kind.
 *
 * @example
 * ```ts
 * import { jobRunner } from "@/lib/jobs/runner.ts";
 * declare const kv: Deno.Kv;
 * jobRunner(kv).register(accountDeletionJobKind(Date.now));
 * ```
 */
export function accountDeletionJobKind(now: () => number): JobKind {
  return {
    kind: ACCOUNT_DELETION_JOB,
    run: (ctx) => run(ctx, now),
    giveUp: async (ctx) => {
      console.error(
        `Account deletion of ${ctx.id} was given up after repeated crashes; ` +
          `its progress is in ["account_deletions", "${ctx.id}"]`,
      );
      const entry = await ctx.kv.get<AccountDeletion>(keys.accountDeletion(ctx.id));
      if (entry.value) {
        await commit(
          ctx.kv,
          (op) => ctx.fence(op).check(entry).set(entry.key, { ...entry.value!, stalled: true }),
        );
      }
    },
  };
}
