/**
 * One tick of the AI avatar job (docs/decisions.md#ai-features, docs/interface.md#ai-avatar): take the
 * tick (a check-and-set on `["avatar_job"]`, so ticks start at least the interval apart
 * whoever calls them), then for each user on the roster whose `aiAvatar` setting is on, answer the
 * newest question older than 60 s that the user did not ask and their avatar has not
 * answered, within 10 answers per hour. The clock is a parameter, so tests drive ticks
 * without timers.
 *
 * @module
 */
import { restriction } from "../moderation/sanctions.ts";
import { keys } from "../kv/keys.ts";
import { LlmError } from "../llm/types.ts";
import { getProfile } from "../profile/profiles.ts";
import { type QuestionRecord, seqRowId } from "../community/questions/model.ts";
import { getQuestions } from "../community/questions/read.ts";
import { getSettings } from "../profile/settings.ts";
import type { Services } from "../services.ts";
import {
  answerAsAvatar,
  AVATAR_MIN_AGE_MS,
  type AvatarAnswered,
  type AvatarAnswerResult,
} from "./answer.ts";
import { commit } from "../kv/atomic.ts";

/** docs/interface.md#ai-avatar: the check interval. */
export const AVATAR_INTERVAL_MS = 30_000;

/**
 * Clocks on different instances drift by a few milliseconds; a tick that arrives this
 * much early still counts as on time, so the cadence does not halve to one per minute.
 */
export const INTERVAL_SLACK_MS = 1_000;

/** `["avatar_job"]`: when the last tick started and where its roster walk stopped. */
export interface AvatarTickState {
  lastTickAt: number;
  /** The roster user the last tick ended with; the next tick starts after them. */
  cursor: string | null;
}

/** Why no tick runs now. */
export type TickRefusal = "too_soon";

/** Take the tick starting at `now` (one check-and-set), or say it is too soon. */
async function takeTick(
  kv: Deno.Kv,
  now: number,
  intervalMs: number,
): Promise<{ state: AvatarTickState; versionstamp: string } | { refused: TickRefusal }> {
  const entry = await kv.get<AvatarTickState>(keys.avatarJob());
  const cur = entry.value;
  if (cur && now - cur.lastTickAt < intervalMs - INTERVAL_SLACK_MS) {
    return { refused: "too_soon" };
  }
  const state: AvatarTickState = { lastTickAt: now, cursor: cur?.cursor ?? null };
  const res = await commit(kv, (op) => op.check(entry).set(keys.avatarJob(), state));
  // Another caller took this very tick between our read and our write.
  if (!res.ok) return { refused: "too_soon" };
  return { state, versionstamp: res.versionstamp };
}

/** Remember where the roster walk stopped, unless a later tick already started. */
async function saveCursor(
  kv: Deno.Kv,
  taken: { state: AvatarTickState; versionstamp: string },
  cursor: string | null,
): Promise<void> {
  await commit(kv, (op) =>
    op.check({ key: keys.avatarJob(), versionstamp: taken.versionstamp })
      .set(keys.avatarJob(), { ...taken.state, cursor } satisfies AvatarTickState));
}

/** How many of the newest questions a tick looks at. */
export const AVATAR_QUESTION_WINDOW = 50;

/**
 * Stop starting new answers after this much real time in one tick (users not reached
 * come first next tick: the walk resumes after the last user served).
 */
export const TICK_BUDGET_MS = 45_000;

/** Options of {@link runAvatarTick}. */
export interface AvatarTickOptions {
  /** Answers per user in one tick (default 1: ten answers spread over five minutes). */
  perUserPerTick?: number;
  /** Cancels the tick (the job is stopping). */
  signal?: AbortSignal;
  /** The avatar job's fence: every answer of the tick checks it. */
  fence?: (op: Deno.AtomicOperation) => Deno.AtomicOperation;
  /**
   * The least time between two ticks (default {@link AVATAR_INTERVAL_MS}): the job's own
   * period, so a job run every second is not held to 30 s by its tick.
   */
  intervalMs?: number;
}

/** What a tick did. */
export interface AvatarTickReport {
  ran: boolean;
  /** Why the tick did nothing. */
  refused?: TickRefusal | "no_model";
  answers: { userId: string; questionId: string; messageId: string }[];
  /** Users skipped, with why. */
  skipped: { userId: string; reason: string }[];
}

/** Roster user ids, starting after `cursor` and wrapping around. */
async function rosterFrom(kv: Deno.Kv, cursor: string | null): Promise<string[]> {
  const ids: string[] = [];
  for await (const e of kv.list<boolean>({ prefix: keys.avatarRosterPrefix() })) {
    if (e.value) ids.push(String(e.key[1]));
  }
  // KV lists keys in order, so the walk resumes at the first id after the cursor.
  const start = cursor === null ? 0 : ids.findIndex((id) => id > cursor);
  if (start <= 0) return ids;
  return [...ids.slice(start), ...ids.slice(0, start)];
}

/** The newest public questions, newest first (the creation sequence, then the records). */
async function newestQuestions(kv: Deno.Kv): Promise<QuestionRecord[]> {
  const ids: string[] = [];
  const iter = kv.list({ prefix: keys.questionsBySeqPrefix() }, {
    reverse: true,
    limit: AVATAR_QUESTION_WINDOW,
  });
  for await (const e of iter) {
    const id = seqRowId(e.value);
    if (id) ids.push(id);
  }
  return await getQuestions(kv, ids);
}

/** The questions `userId`'s avatar may answer now, newest first, skipping answered ones. */
async function* openQuestions(
  kv: Deno.Kv,
  userId: string,
  questions: QuestionRecord[],
  now: number,
): AsyncGenerator<QuestionRecord> {
  const eligible = questions.filter((q) =>
    now - q.createdAt > AVATAR_MIN_AGE_MS && q.author.id !== userId
  );
  for (let i = 0; i < eligible.length; i += 10) {
    const batch = eligible.slice(i, i + 10);
    const markers = await kv.getMany<AvatarAnswered[]>(
      batch.map((q) => keys.avatarAnswered(userId, q.id)),
    );
    for (let j = 0; j < batch.length; j++) if (!markers[j].value) yield batch[j];
  }
}

/**
 * Run one tick at `now`. Does nothing when the last tick started less than 30 s ago
 * (here or on another instance), or when there is no language model.
 *
 * @example
 * ```ts
 * import type { Services } from "@/lib/services.ts";
 * declare const services: Services;
 * const report = await runAvatarTick(services, services.now());
 * console.log(report.answers.length);
 * ```
 */
export async function runAvatarTick(
  services: Services,
  now: number,
  opts: AvatarTickOptions = {},
): Promise<AvatarTickReport> {
  const { kv, llm } = services;
  const report: AvatarTickReport = { ran: false, answers: [], skipped: [] };
  if (!llm) return { ...report, refused: "no_model" };
  // Nobody has the avatar on: no need to write the tick record every 30 s.
  const anyone = await Array.fromAsync(
    kv.list({ prefix: keys.avatarRosterPrefix() }, { limit: 1 }),
  );
  if (anyone.length === 0) return report;
  const tick = await takeTick(kv, now, opts.intervalMs ?? AVATAR_INTERVAL_MS);
  if ("refused" in tick) return { ...report, refused: tick.refused };
  report.ran = true;

  const started = performance.now();
  const perUser = Math.max(1, opts.perUserPerTick ?? 1);
  let cursor = tick.state.cursor;
  try {
    const roster = await rosterFrom(kv, cursor);
    if (roster.length === 0) return report;
    const questions = await newestQuestions(kv);
    for (const userId of roster) {
      if (opts.signal?.aborted || performance.now() - started > TICK_BUDGET_MS) break;
      cursor = userId;
      const skip = (reason: string) => report.skipped.push({ userId, reason });
      if (!(await getSettings(kv, userId)).aiAvatar) {
        skip("ai_avatar_off");
        continue;
      }
      const profile = await getProfile(kv, userId);
      if (!profile) {
        skip("unknown_user");
        continue;
      }
      // A silenced or suspended person's avatar writes nothing (docs/interface.md#sanctions);
      // asked before the model runs.
      if (await restriction(kv, userId, now)) {
        skip("restricted");
        continue;
      }
      // The author snapshot, as `authorOf` writes it, from the profile already read.
      const author = { id: profile.userId, name: profile.displayName, avatar: profile.avatarUrl };
      const owner = { author, bio: profile.bio };
      let done = 0;
      let outcome = "nothing_to_answer";
      for await (const q of openQuestions(kv, userId, questions, now)) {
        let r: AvatarAnswerResult;
        try {
          r = await answerAsAvatar(
            { kv, llm, signal: opts.signal, limits: services.config.limits, fence: opts.fence },
            owner,
            q,
            now,
          );
        } catch (err) {
          if (!(err instanceof LlmError)) throw err;
          // The model failed: nothing was written; this user is tried again next tick.
          if (err.kind !== "aborted") console.error(`AI avatar: the model failed: ${err.message}`);
          outcome = "model_failed";
          break;
        }
        if (r.ok) {
          report.answers.push({ userId, questionId: q.id, messageId: r.message.id });
          if (++done >= perUser) break;
          continue;
        }
        outcome = r.reason;
        // Capped, or another instance is answering for this user: next tick.
        if (
          r.reason === "hourly_cap" || r.reason === "lost_race" || r.reason === "rate_limited" ||
          r.reason === "restricted"
        ) {
          break;
        }
      }
      if (done === 0) skip(outcome);
    }
    return report;
  } finally {
    await saveCursor(kv, tick, cursor);
  }
}
