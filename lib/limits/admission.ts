/**
 * Whether a person may post now, and under which limits (docs/interface.md#new-accounts,
 * docs/interface.md#sanctions): one read of their sanction and their standing
 * (lib/moderation/standing.ts), then the refusal of a silenced or suspended person, or —
 * for a new account — its stricter daily budget on top of the usual hourly one. Both
 * budgets live in KV (lib/limits/window.ts), so every instance counts the same.
 *
 * Messages spend inside the message's own op (lib/community/messages/write.ts reads
 * {@link admissionKeys} with its other keys); questions and agent participation spend just
 * before writing ({@link admitPost}).
 *
 * @module
 */
import { keys } from "../kv/keys.ts";
import { type Restricted, restrictionOf, type Sanction } from "../moderation/sanctions.ts";
import { standingFrom, standingKeys } from "../moderation/standing.ts";
import {
  type Budget,
  type LimitKind,
  newAccountBudgetOf,
  type PostingLimits,
  type RateLimited,
  spendBudget,
  spendPostingBudget,
} from "./posting.ts";

/** Who may post: whether the account is new (its links carry `rel="ugc nofollow"`). */
export interface Admitted {
  ok: true;
  newAccount: boolean;
}

/**
 * The keys {@link admissionFrom} reads, in order: the sanction, then the standing's.
 *
 * @example
 * ```ts
 * import { admissionKeys } from "./admission.ts";
 *
 * admissionKeys("u_1").length; // 6
 * ```
 */
export function admissionKeys(userId: string): Deno.KvKey[] {
  return [keys.sanction(userId), ...standingKeys(userId)];
}

/**
 * The refusal of a sanctioned person, or whether the account is new, from the entries of
 * {@link admissionKeys}. Without `limits.newAccount` no account is new.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const limits: import("@/lib/config.ts").PostingLimits;
 * const entries = await kv.getMany(admissionKeys("u_1"));
 * const a = admissionFrom(entries, limits, Date.now());
 * if (a.ok && a.newAccount) console.log("stricter limits");
 * ```
 */
export function admissionFrom(
  entries: readonly Deno.KvEntryMaybe<unknown>[],
  limits: PostingLimits | undefined,
  now: number,
): Admitted | Restricted {
  const restricted = restrictionOf(entries[0].value as Sanction | null, now);
  if (restricted) return restricted;
  const hours = limits?.newAccount?.hours ?? 0;
  return { ok: true, newAccount: standingFrom(entries.slice(1), hours, now) === "new" };
}

/**
 * The budgets one post of `kind` spends besides the usual hourly one: a new account's
 * daily one (none for an established account, or with that limit off).
 *
 * @example
 * ```ts
 * declare const limits: import("@/lib/config.ts").PostingLimits;
 * const budgets = budgetsOf(limits, "messages", "u_1", true);
 * ```
 */
export function budgetsOf(
  limits: PostingLimits | undefined,
  kind: LimitKind,
  userId: string,
  newAccount: boolean,
): Budget[] {
  const daily = newAccount ? newAccountBudgetOf(limits, kind, userId) : null;
  return daily ? [daily] : [];
}

/**
 * Admit one post of `kind` by `userId`, spending before the write: refused when the
 * person is silenced or suspended, or over a budget (a new account's daily one first).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const limits: import("@/lib/config.ts").PostingLimits;
 * const a = await admitPost(kv, limits, "questions", "u_1", Date.now());
 * if (!a.ok) console.log(a.reason); // "restricted" | "rate_limited"
 * ```
 */
export async function admitPost(
  kv: Deno.Kv,
  limits: PostingLimits | undefined,
  kind: LimitKind,
  userId: string,
  now: number,
): Promise<Admitted | Restricted | RateLimited> {
  const admission = admissionFrom(await kv.getMany(admissionKeys(userId)), limits, now);
  if (!admission.ok) return admission;
  for (const budget of budgetsOf(limits, kind, userId, admission.newAccount)) {
    const spent = await spendBudget(kv, budget, now);
    if (!spent.ok) return spent;
  }
  const usual = await spendPostingBudget(kv, limits, kind, userId, now);
  return usual.ok ? admission : usual;
}
