/**
 * A sanction outlives the account it was put on: deleting the account and signing in again
 * with the same provider account would otherwise make a new person with a clean standing.
 *
 * When an account with a sanction in force is deleted, the sanction is kept under a digest of
 * each sign-in identity the account had (`["sanctions_carried", provider, sha256(account id)]`,
 * expiring with the sanction): no name, no id the provider gave, only what is needed to know
 * the same identity again. The first new account made from one of those identities takes
 * the sanction over (the record is used up), and the moderation log says so.
 *
 * @module
 */
import { sha256Hex } from "../ids.ts";
import { keys } from "../kv/keys.ts";
import { type ModLogEntry, nextLogSlot } from "./moderation.ts";
import { activeSanction, type Sanction } from "./sanctions.ts";

/** What is kept of a deleted account's sanction. */
export interface CarriedSanction {
  sanction: Sanction;
  /** The deleted account (its id stays retired), for the moderation log. */
  fromUserId: string;
}

/**
 * The key of the sanction carried for one sign-in identity.
 *
 * @example
 * ```ts
 * const key = await carriedSanctionKey("provider_a", "12345");
 * ```
 */
export async function carriedSanctionKey(
  provider: string,
  providerAccountId: string,
): Promise<Deno.KvKey> {
  return keys.carriedSanction(provider, await sha256Hex(`${provider}:${providerAccountId}`));
}

/**
 * Add to `op` (the account deletion's commit) one carried copy of `sanction` per identity,
 * when it is in force at `now`; nothing otherwise.
 *
 * @example
 * ```ts
 * import type { Sanction } from "@/lib/moderation/sanctions.ts";
 * declare const op: Deno.AtomicOperation;
 * declare const sanction: Sanction | null;
 * await carrySanctionOps(op, sanction, "u_1", [{ provider: "provider_a", providerAccountId: "7" }], Date.now());
 * ```
 */
export async function carrySanctionOps(
  op: Deno.AtomicOperation,
  sanction: Sanction | null,
  fromUserId: string,
  identities: readonly { provider: string; providerAccountId: string }[],
  now: number,
): Promise<void> {
  const active = activeSanction(sanction, now);
  if (!active) return;
  const record: CarriedSanction = { sanction: active, fromUserId };
  for (const { provider, providerAccountId } of identities) {
    const key = await carriedSanctionKey(provider, providerAccountId);
    op.set(key, record, active.until === null ? {} : { expireIn: active.until - now });
  }
}

/**
 * Add to `op` (the commit making a new account from an identity, whose carried entry is
 * `carried`) the sanction that entry holds, if still in force: the new account's own
 * sanction and a log entry naming the deleted account. The carried entry is used up.
 * Returns the sanction applied, or null.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const op: Deno.AtomicOperation;
 * const carried = await kv.get<CarriedSanction>(await carriedSanctionKey("provider_a", "7"));
 * applyCarriedSanctionOps(op, carried, "u_new", Date.now());
 * ```
 */
export function applyCarriedSanctionOps(
  op: Deno.AtomicOperation,
  carried: Deno.KvEntryMaybe<CarriedSanction>,
  userId: string,
  now: number,
): Sanction | null {
  op.check(carried);
  const sanction = activeSanction(carried.value?.sanction, now);
  if (!carried.value) return null;
  op.delete(carried.key);
  if (!sanction) return null;
  op.set(keys.sanction(userId), sanction);
  const slot = nextLogSlot(now);
  const entry: ModLogEntry = {
    id: slot.id,
    action: sanction.action,
    targetType: "user",
    targetId: userId,
    questionId: "",
    moderator: sanction.by,
    at: now,
    reason: `Carried over from deleted account ${carried.value.fromUserId}: ${sanction.reason}`,
    until: sanction.until,
  };
  op.set(slot.key, entry);
  return sanction;
}
