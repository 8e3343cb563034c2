/**
 * A moderator silences, suspends or lifts (docs/interface.md#sanctions). One atomic op sets
 * or deletes `["sanctions", userId]` and logs the action in the moderation log (the undo
 * is `lift`, logged the same way); a suspension then ends every session of the person.
 * What each sanction stops, and where it is checked: ./sanctions.ts.
 *
 * @module
 */
import { updateAtomically } from "../kv/atomic.ts";
import { afterCommit } from "../kv/after_commit.ts";
import { isLookupId, keys } from "../kv/keys.ts";
import type { User } from "../auth/users.ts";
import { endSessionsOf } from "../auth/sessions.ts";
import { type ModLogEntry, nextLogSlot } from "./moderation.ts";
import { activeSanction, forgetSanction, type Sanction, type SanctionAction } from "./sanctions.ts";
import { type Standing, standingFrom, standingKeys } from "./standing.ts";

/** Where a person stands: trust (new or established) and any sanction in force. */
export interface AccountStanding {
  userId: string;
  trust: Standing;
  sanction: Sanction | null;
}

/** What a moderator asks for. */
export interface SanctionRequest {
  moderator: { id: string; name: string };
  userId: string;
  action: SanctionAction | "lift";
  /** The end (Unix ms) of a silence or suspension; absent: until lifted. */
  until?: number;
  reason: string;
}

/** The outcome: the person's standing after the action, or why not. */
export type SanctionOutcome =
  | { ok: true; standing: AccountStanding }
  | { ok: false; reason: "not_found" | "past_until" };

/**
 * The standing from the entries of `standingKeys(userId)` followed by the sanction entry.
 */
function standingOf(
  userId: string,
  entries: readonly Deno.KvEntryMaybe<unknown>[],
  newAccountHours: number,
  now: number,
): AccountStanding {
  const trust = standingFrom(entries.slice(0, 5), newAccountHours, now);
  const sanction = activeSanction(entries[5]?.value as Sanction | null, now);
  return { userId, trust, sanction };
}

/**
 * A person's standing (the user must exist: null otherwise).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const s = await readStanding(kv, "u_1", { newAccountHours: 24, now: Date.now() });
 * ```
 */
export async function readStanding(
  kv: Deno.Kv,
  userId: string,
  { newAccountHours, now }: { newAccountHours: number; now: number },
): Promise<AccountStanding | null> {
  if (!isLookupId(userId)) return null;
  const entries = await kv.getMany([...standingKeys(userId), keys.sanction(userId)]);
  if (!(entries[0].value as User | null)) return null;
  return standingOf(userId, entries, newAccountHours, now);
}

/**
 * Silence, suspend or lift, and log it. The caller checks that the actor is a moderator
 * (and that the person is not one).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await sanctionUser(kv, {
 *   moderator: { id: "u_mod", name: "Mo" },
 *   userId: "u_1",
 *   action: "silence",
 *   until: Date.now() + 86_400_000,
 *   reason: "Spam links in three answers",
 * }, { now: Date.now(), newAccountHours: 24 });
 * if (r.ok) r.standing.sanction?.until;
 * ```
 */
export async function sanctionUser(
  kv: Deno.Kv,
  input: SanctionRequest,
  { now, newAccountHours }: { now: number; newAccountHours: number },
): Promise<SanctionOutcome> {
  const { userId, action } = input;
  if (!isLookupId(userId)) return { ok: false, reason: "not_found" };
  if (action !== "lift" && input.until !== undefined && input.until <= now) {
    return { ok: false, reason: "past_until" };
  }
  const slot = nextLogSlot(now);
  const reason = input.reason.trim();
  const result = await updateAtomically<SanctionOutcome>(async () => {
    const entries = await kv.getMany([...standingKeys(userId), keys.sanction(userId)]);
    if (!(entries[0].value as User | null)) {
      return { op: null, result: { ok: false, reason: "not_found" } };
    }
    const op = kv.atomic().check(entries[5]);
    const sanction: Sanction | null = action === "lift" ? null : {
      action,
      reason,
      until: input.until ?? null,
      at: now,
      by: input.moderator,
    };
    if (sanction) op.set(keys.sanction(userId), sanction);
    else op.delete(keys.sanction(userId));
    const entry: ModLogEntry = {
      id: slot.id,
      action,
      targetType: "user",
      targetId: userId,
      questionId: "",
      moderator: input.moderator,
      at: now,
      reason,
      until: sanction?.until ?? null,
    };
    op.set(slot.key, entry);
    const standing: AccountStanding = {
      userId,
      trust: standingFrom(entries.slice(0, 5), newAccountHours, now),
      sanction,
    };
    return { op, result: { ok: true, standing } };
  });
  if (result.ok) {
    forgetSanction(kv, userId);
    // Signed out everywhere: the sessions go (a session from before the index is refused
    // on read all the same).
    if (action === "suspend") {
      await afterCommit("suspension: end sessions", () => endSessionsOf(kv, userId));
    }
  }
  return result;
}
