/**
 * Posting limits per user, shared by all instances (docs/decisions.md#configuration): questions, messages,
 * votes and favorites (one shared budget), flags — each a sliding window
 * (./window.ts) under the bucket `post_<kind>`, keyed by the user id. Every writer of a
 * kind spends from the same budget: the people API and pages, the agent API, agent
 * participation and the AI avatar (the domain write functions take the limits and spend
 * before writing).
 *
 * Messages, votes and favorites spend inside the write's own atomic op ({@link budgetOf} +
 * {@link spendInOp}): one commit for both, and a write that fails spends nothing. Questions
 * (and agent participation, the AI avatar) spend just before the write
 * ({@link spendPostingBudget}), because question creates are numbered and committed in
 * batches (lib/community/questions/write.ts) and KV allows only 10 checks per op; a
 * question write that then fails has spent one of 10 an hour.
 *
 * @module
 */
import type { PostingLimits } from "../config.ts";
import { keys } from "../kv/keys.ts";
import { addHit, type HitLog, hitRateLimit, MAX_LOGGED_HITS } from "./window.ts";

export type { PostingLimits } from "../config.ts";

/** What a limit counts. `votes` is votes and favorites together. */
export type LimitKind = "questions" | "messages" | "votes" | "flags";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Each kind's window and its field in {@link PostingLimits}. */
export const LIMIT_KINDS: Record<
  LimitKind,
  {
    windowMs: number;
    field: Exclude<keyof PostingLimits, "newAccount">;
    noun: string;
    verb: string;
    per: string;
  }
> = {
  questions: {
    windowMs: HOUR,
    field: "questionsPerHour",
    noun: "questions",
    verb: "ask",
    per: "hour",
  },
  messages: {
    windowMs: HOUR,
    field: "messagesPerHour",
    noun: "answers and replies",
    verb: "post",
    per: "hour",
  },
  votes: {
    windowMs: HOUR,
    field: "votesPerHour",
    noun: "votes and favorites",
    verb: "cast",
    per: "hour",
  },
  flags: { windowMs: DAY, field: "flagsPerDay", noun: "flags", verb: "raise", per: "day" },
};

/** The defaults of the `LIMIT_*` variables (docs/decisions.md#configuration). */
export const DEFAULT_LIMITS: PostingLimits = {
  questionsPerHour: 10,
  messagesPerHour: 60,
  votesPerHour: 600,
  flagsPerDay: 20,
};

/** A refused write: over the user's limit of `kind`, free again in `retryAfter` seconds. */
export interface RateLimited {
  ok: false;
  reason: "rate_limited";
  kind: LimitKind;
  limit: number;
  retryAfter: number;
  /**
   * Set when it is a new account's daily limit (docs/interface.md#new-accounts): the
   * message says how to earn the usual limits.
   */
  newAccount?: { hours: number };
}

/** One user's budget of one kind, to spend inside a write's own atomic op. */
export interface Budget {
  kind: LimitKind;
  limit: number;
  windowMs: number;
  /** The log key to read with the write's other reads. */
  key: Deno.KvKey;
  /** A new account's daily budget: its refusal says how to earn the usual limits. */
  newAccount?: { hours: number };
}

/**
 * A new account's daily budget of `kind` (questions, or answers and replies) for `userId`,
 * or null when that limit is off, there is none for the kind, or no account counts as new.
 * The caller decides the account is new (lib/limits/admission.ts); the log lives under
 * `post_new_<kind>`, a sliding 24-hour window.
 *
 * @example
 * ```ts
 * const b = newAccountBudgetOf(
 *   { ...DEFAULT_LIMITS, newAccount: { hours: 24, questionsPerDay: 3, messagesPerDay: 10 } },
 *   "questions",
 *   "u1",
 * ); // { kind: "questions", limit: 3, windowMs: 86_400_000, key, newAccount: { hours: 24 } }
 * ```
 */
export function newAccountBudgetOf(
  limits: PostingLimits | undefined,
  kind: LimitKind,
  userId: string,
): Budget | null {
  const rules = limits?.newAccount;
  if (!rules || rules.hours <= 0) return null;
  const limit = kind === "questions"
    ? rules.questionsPerDay
    : kind === "messages"
    ? rules.messagesPerDay
    : 0;
  if (limit <= 0 || limit > MAX_LOGGED_HITS) return null;
  return {
    kind,
    limit,
    windowMs: DAY,
    key: keys.rateLimitLog(`post_new_${kind}`, userId),
    newAccount: { hours: rules.hours },
  };
}

/**
 * The budget of `kind` for `userId`, or null when unlimited. Writers read `key` with their
 * other reads, then call {@link spendInOp} while building their op: the hit and the write
 * commit together (one commit, not two), and a write that fails spends nothing.
 *
 * @example
 * ```ts
 * const b = budgetOf(DEFAULT_LIMITS, "messages", "u1"); // { kind, limit: 60, windowMs, key }
 * ```
 */
export function budgetOf(
  limits: PostingLimits | undefined,
  kind: LimitKind,
  userId: string,
): Budget | null {
  const spec = LIMIT_KINDS[kind];
  const limit = limits?.[spec.field] ?? 0;
  if (limit <= 0 || limit > MAX_LOGGED_HITS) return null;
  return { kind, limit, windowMs: spec.windowMs, key: keys.rateLimitLog(`post_${kind}`, userId) };
}

/**
 * Spend from `budget` inside `op` (a check of the log read and its new value), or return
 * the refusal (the op is left alone).
 *
 * @example
 * ```ts
 * import type { HitLog } from "@/lib/limits/window.ts";
 * declare const kv: Deno.Kv;
 * const b = budgetOf(DEFAULT_LIMITS, "votes", "u1")!;
 * const op = kv.atomic();
 * const refused = spendInOp(op, await kv.get<HitLog>(b.key), b, Date.now());
 * ```
 */
export function spendInOp(
  op: Deno.AtomicOperation,
  entry: Deno.KvEntryMaybe<HitLog>,
  budget: Budget,
  now: number,
): RateLimited | null {
  const r = addHit(op, entry, budget.limit, budget.windowMs, now);
  if (r.allowed) return null;
  return {
    ok: false,
    reason: "rate_limited",
    kind: budget.kind,
    limit: budget.limit,
    retryAfter: r.retryAfter,
    ...(budget.newAccount ? { newAccount: budget.newAccount } : {}),
  };
}

/**
 * Spend one unit of `budget` in its own commit (writers that spend before writing).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const b = budgetOf(DEFAULT_LIMITS, "questions", "u1")!;
 * const r = await spendBudget(kv, b, Date.now());
 * ```
 */
export async function spendBudget(
  kv: Deno.Kv,
  budget: Budget,
  now: number,
): Promise<{ ok: true } | RateLimited> {
  const bucket = budget.key[1] as string;
  const r = await hitRateLimit(
    kv,
    bucket,
    budget.key[2] as string,
    budget.limit,
    budget.windowMs,
    now,
  );
  if (r.allowed) return { ok: true };
  return {
    ok: false,
    reason: "rate_limited",
    kind: budget.kind,
    limit: budget.limit,
    retryAfter: r.retryAfter,
    ...(budget.newAccount ? { newAccount: budget.newAccount } : {}),
  };
}

/** Thrown by writers that report a limit by exception (agent participation). */
export class PostingLimitError extends Error {
  constructor(readonly outcome: RateLimited) {
    super(limitMessage(outcome));
    this.name = "PostingLimitError";
  }
}

/**
 * Spend one unit of `userId`'s `kind` budget, or say when to retry. `limits` undefined or
 * a limit of 0 means unlimited (seeding, benchmarks, a limit turned off).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await spendPostingBudget(kv, DEFAULT_LIMITS, "questions", "u1", Date.now());
 * if (!r.ok) console.log(limitMessage(r)); // "Too many questions: …"
 * ```
 */
export async function spendPostingBudget(
  kv: Deno.Kv,
  limits: PostingLimits | undefined,
  kind: LimitKind,
  userId: string,
  now: number,
): Promise<{ ok: true } | RateLimited> {
  const spec = LIMIT_KINDS[kind];
  const limit = limits?.[spec.field] ?? 0;
  if (limit <= 0) return { ok: true };
  const r = await hitRateLimit(kv, `post_${kind}`, userId, limit, spec.windowMs, now);
  if (r.allowed) return { ok: true };
  return { ok: false, reason: "rate_limited", kind, limit, retryAfter: r.retryAfter };
}

/**
 * "12 minutes", "45 seconds", "2 hours": a wait in words, rounded up to one unit (what
 * a refusal's sentence says; the browser's countdown is `preciseWaitInWords` in
 * lib/client/api.ts).
 *
 * @example
 * ```ts
 * roundedWaitInWords(700); // "12 minutes"
 * ```
 */
export function roundedWaitInWords(seconds: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (seconds < 60) return unit(Math.max(1, Math.ceil(seconds)), "second");
  if (seconds < 2 * HOUR / 1000) return unit(Math.ceil(seconds / 60), "minute");
  return unit(Math.ceil(seconds / 3600), "hour");
}

/**
 * The sentence a refused write answers with: what, the limit, when to retry.
 *
 * @example
 * ```ts
 * limitMessage({ kind: "questions", limit: 10, retryAfter: 700 });
 * // "Too many questions: you can ask 10 per hour. Try again in 12 minutes."
 * ```
 */
export function limitMessage(
  r: Pick<RateLimited, "kind" | "limit" | "retryAfter" | "newAccount">,
): string {
  const s = LIMIT_KINDS[r.kind];
  if (r.newAccount) {
    return `Too many ${s.noun} for a new account: you can ${s.verb} ${r.limit} per day ` +
      `until something you wrote is up-voted or accepted as an answer, or your account is ` +
      `${r.newAccount.hours} hours old; then the usual limits apply. ` +
      `Try again in ${roundedWaitInWords(r.retryAfter)}.`;
  }
  return `Too many ${s.noun}: you can ${s.verb} ${r.limit} per ${s.per}. ` +
    `Try again in ${roundedWaitInWords(r.retryAfter)}.`;
}
