/**
 * A moderator withdraws or restores a debate or a roundtable (docs/interface.md#moderation).
 * One atomic op, checked against the item's record and its withdrawal key, sets or deletes
 * `["withdrawn", kind, id]` and logs the action in the moderation log. While withdrawn the
 * item reads as missing to everyone but its owner and moderators (./withdrawn.ts, read by
 * the debate and roundtable read gates, the public lists and the sitemap).
 *
 * @module
 */
import { updateAtomically } from "../kv/atomic.ts";
import { afterCommit } from "../kv/after_commit.ts";
import { isLookupId, keys } from "../kv/keys.ts";
import { invalidateReads } from "../community/read_cache.ts";
import { type ModLogEntry, nextLogSlot } from "./moderation.ts";
import type { Withdrawal, WithdrawnKind } from "./withdrawn.ts";

export type { Withdrawal, WithdrawnKind };

/** A moderator's decision on a debate or a roundtable. */
export interface WithdrawalRequest {
  moderator: { id: string; name: string };
  kind: WithdrawnKind;
  id: string;
  action: "withdraw" | "restore";
  /** Why (1–500 characters); shown to the owner while withdrawn, and logged. */
  reason: string;
}

/** An item's moderation state: its withdrawal, or null when it is shown. */
export interface WithdrawalState {
  type: WithdrawnKind;
  id: string;
  withdrawn: Withdrawal | null;
}

/** The outcome: the item's state after the action, or why not. */
export type WithdrawalOutcome =
  | { ok: true; state: WithdrawalState }
  | { ok: false; reason: "not_found" };

/**
 * Withdraw or restore a debate or roundtable and log it. The caller checks that the actor
 * is a moderator. Withdrawing a withdrawn item replaces its reason; restoring a shown one
 * changes nothing but is logged all the same, like every decision.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await setWithdrawal(kv, {
 *   moderator: { id: "u_mod", name: "Mo" },
 *   kind: "debate",
 *   id: "debate_1700000000000_k3j9x0qa2m",
 *   action: "withdraw",
 *   reason: "The topic names a private person",
 * }, { now: Date.now() });
 * if (r.ok) r.state.withdrawn?.reason;
 * ```
 */
export async function setWithdrawal(
  kv: Deno.Kv,
  input: WithdrawalRequest,
  { now }: { now: number },
): Promise<WithdrawalOutcome> {
  const { kind, id, action, moderator } = input;
  if (!isLookupId(id)) return { ok: false, reason: "not_found" };
  const reason = input.reason.trim();
  const slot = nextLogSlot(now);
  const recordKey = kind === "debate" ? keys.debate(id) : keys.roundtable(id);
  const result = await updateAtomically<WithdrawalOutcome>(async () => {
    const [record, current] = await kv.getMany([recordKey, keys.withdrawn(kind, id)]);
    if (record.value === null) return { op: null, result: { ok: false, reason: "not_found" } };
    const op = kv.atomic().check(record, current);
    const withdrawn: Withdrawal | null = action === "withdraw"
      ? { reason, at: now, by: moderator }
      : null;
    if (withdrawn) op.set(keys.withdrawn(kind, id), withdrawn);
    else op.delete(keys.withdrawn(kind, id));
    const entry: ModLogEntry = {
      id: slot.id,
      action,
      targetType: kind,
      targetId: id,
      questionId: "",
      moderator,
      at: now,
      reason,
    };
    op.set(slot.key, entry);
    return { op, result: { ok: true, state: { type: kind, id, withdrawn } } };
  });
  // Signed-out pages and lists are cached: the change shows on the next load.
  if (result.ok) await afterCommit("withdrawal caches", () => invalidateReads(kv));
  return result;
}
