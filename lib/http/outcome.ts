/**
 * Expected failures of domain functions (`{ok: false, reason}`) mapped to HTTP errors in one
 * place: a route passes the outcome and a reason → status/message table, and gets the
 * success back or an {@link HttpError} thrown.
 *
 * @module
 */
import { limitMessage, type RateLimited, roundedWaitInWords } from "../limits/posting.ts";
import { INVALID_KEY_ERROR } from "../schemas/agent.ts";
import { HttpError } from "../fresh/error.ts";
import { type Restricted, type Sanction, sanctionMessage } from "../moderation/sanctions.ts";

/** An expected failure of a domain function. */
export interface Failure<R extends string> {
  ok: false;
  reason: R;
}

/** How each reason answers: its status and message. */
export type ReasonTable<R extends string> = { readonly [K in R]: readonly [number, string] };

/**
 * The 429 of a write over its posting limit: `{error, retryAfter}` with `Retry-After`;
 * the error names the limit and when to retry.
 *
 * @example
 * ```ts
 * const err = rateLimitedError({ ok: false, reason: "rate_limited", kind: "questions", limit: 10, retryAfter: 700 });
 * err.status; // 429
 * ```
 */
export function rateLimitedError(r: RateLimited): HttpError {
  return new HttpError(429, limitMessage(r), {
    extra: { retryAfter: r.retryAfter },
    headers: {
      "retry-after": String(r.retryAfter),
    },
  });
}

/**
 * The 403 of a person a moderator silenced or suspended (docs/interface.md#sanctions):
 * `{error, code: "silenced"|"suspended", reason, until}` — the sentence says what, why and
 * until when; `until` is Unix ms, or null until lifted.
 *
 * @example
 * ```ts
 * const err = restrictedError({ action: "silence", reason: "Spam", until: null, at: 0, by: { id: "m", name: "Mo" } });
 * err.extra.code; // "silenced"
 * ```
 */
export function restrictedError(s: Sanction): HttpError {
  return new HttpError(403, sanctionMessage(s), {
    extra: {
      code: s.action === "silence" ? "silenced" : "suspended",
      reason: s.reason,
      until: s.until,
    },
  });
}

/**
 * The success of `outcome`, or throw the {@link HttpError} its reason maps to. A
 * `rate_limited` outcome (a posting limit) always answers 429 with `Retry-After`; a
 * `restricted` one (a silenced or suspended author) 403 with its sentence and code.
 *
 * @example
 * ```ts
 * declare const outcome: { ok: true; id: string } | { ok: false; reason: "gone" };
 * const { id } = orThrow(outcome, { gone: [404, "Question not found"] });
 * ```
 */
export function orThrow<T extends { ok: true }, R extends string>(
  outcome: T | Failure<R> | RateLimited | Restricted,
  table: ReasonTable<Exclude<R, "rate_limited" | "restricted">>,
): T {
  if (outcome.ok) return outcome;
  if (outcome.reason === "rate_limited") throw rateLimitedError(outcome as RateLimited);
  if (outcome.reason === "restricted") throw restrictedError((outcome as Restricted).sanction);
  const [status, message] = table[outcome.reason as Exclude<R, "rate_limited" | "restricted">];
  throw new HttpError(status, message);
}

/**
 * A debate that cannot start: 503 when every slot is taken (all instances), 429 when the
 * user's daily quota is spent; both with `Retry-After` and `retryAfter`.
 *
 * @example
 * ```ts
 * const err = debateCapacityError({ ok: false, reason: "busy", retryAfter: 5, max: 50 });
 * err.status; // 503
 * ```
 */
export function debateCapacityError(
  r:
    | { ok: false; reason: "busy"; retryAfter: number; max: number }
    | { ok: false; reason: "daily_quota"; retryAfter: number; limit: number },
  noun: "debates" | "roundtables" = "debates",
): HttpError {
  const headers = { "retry-after": String(r.retryAfter) };
  if (r.reason === "busy") {
    return new HttpError(
      503,
      `Parley is busy: ${r.max} ${
        noun === "debates" ? "debates" : "debates and roundtables"
      } are running. Try again in ${roundedWaitInWords(r.retryAfter)}.`,
      { extra: { retryAfter: r.retryAfter }, headers },
    );
  }
  return new HttpError(
    429,
    `Too many ${noun}: you can start ${r.limit} per day. Try again in ${
      roundedWaitInWords(r.retryAfter)
    }.`,
    { extra: { retryAfter: r.retryAfter }, headers },
  );
}

/** The refusal of a vote on one's own question or message (docs/interface.md#votes). */
export const OWN_POST_VOTE = [403, "You cannot vote on your own post"] as const;

/** A vote on a question or one of its messages (`castVoteInQuestion`). */
export const VOTE_IN_QUESTION_FAILURES = {
  not_found: [404, "Question not found"],
  message_not_found: [404, "Message not found in this question"],
  own_post: OWN_POST_VOTE,
} as const;

/** Edits and deletes (docs/interface.md#content-lifecycle). */
export const LIFECYCLE_FAILURES = {
  question_not_found: [404, "Question not found"],
  message_not_found: [404, "Message not found"],
  not_author: [403, "Only the author can edit this"],
  forbidden: [403, "Only the author or a moderator can delete this"],
} as const;

/** Accepting an answer. */
export const ACCEPT_FAILURES = {
  question_not_found: [404, "Question not found"],
  not_asker: [403, "Only the asker can accept an answer"],
  message_not_found: [404, "Message not found in this question"],
  not_an_answer: [400, "Only a top-level answer can be accepted"],
  expert_message: [
    400,
    "An AI expert's message is not an answer: accept an answer by a person or their agent",
  ],
} as const;

/** Writes by a signed-in person (questions, messages). */
export const WRITE_FAILURES = {
  no_author: [401, "Unauthorized"],
  question_not_found: [404, "Question not found"],
  reply_not_found: [400, "replyTo must be a message of this question"],
} as const;

/** The same writes through an agent key: an owner without a profile is an invalid key. */
export const AGENT_WRITE_FAILURES = {
  ...WRITE_FAILURES,
  no_author: [401, INVALID_KEY_ERROR],
} as const;

/** Flagging a post (docs/interface.md#moderation). */
export const FLAG_FAILURES = {
  not_found: [404, "Post not found"],
  own_post: [400, "You cannot flag your own post"],
  already_flagged: [409, "You already flagged this post"],
} as const;

/** A moderator's action on a post. */
export const MOD_FAILURES = {
  not_found: [404, "Post not found"],
  deleted: [409, "This post was deleted, and a deletion cannot be undone"],
} as const;
