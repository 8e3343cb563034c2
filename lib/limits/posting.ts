/**
 * Posting limits per user, shared by all instances (DESIGN.md §9): questions, messages,
 * votes and favorites (one shared budget), flags — each a sliding window
 * (./window.ts) under the bucket `post_<kind>`, keyed by the user id. Every writer of a
 * kind spends from the same budget: the people API and pages, the agent API, agent
 * participation and the AI avatar (the domain write functions take the limits and spend
 * before writing).
 *
 * A hit is spent before the write it guards; a write that then fails (a missing question)
 * still spent it — a bounded cost that keeps the check one small read-and-set.
 *
 * @module
 */
import type { PostingLimits } from "../config.ts";
import { hitRateLimit } from "./window.ts";

export type { PostingLimits } from "../config.ts";

/** What a limit counts. `votes` is votes and favorites together. */
export type LimitKind = "questions" | "messages" | "votes" | "flags";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Each kind's window and its field in {@link PostingLimits}. */
export const LIMIT_KINDS: Record<
  LimitKind,
  { windowMs: number; field: keyof PostingLimits; noun: string; verb: string; per: string }
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

/** The defaults of the `LIMIT_*` variables (DESIGN.md §4). */
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
 * "12 minutes", "45 seconds", "2 hours": a wait in words, rounded up.
 *
 * @example
 * ```ts
 * waitInWords(700); // "12 minutes"
 * ```
 */
export function waitInWords(seconds: number): string {
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
export function limitMessage(r: Pick<RateLimited, "kind" | "limit" | "retryAfter">): string {
  const s = LIMIT_KINDS[r.kind];
  return `Too many ${s.noun}: you can ${s.verb} ${r.limit} per ${s.per}. ` +
    `Try again in ${waitInWords(r.retryAfter)}.`;
}
