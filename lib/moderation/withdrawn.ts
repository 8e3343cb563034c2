/**
 * Which debates and roundtables moderators withdrew (docs/interface.md#moderation): one
 * `["withdrawn", kind, id]` key per item. The read gates (lib/debates/access.ts,
 * lib/roundtables/access.ts), the public lists and the sitemap read it here; the action
 * that writes it is ./withdrawals.ts. Kept apart from the action so the read paths do not
 * load the moderation module.
 *
 * @module
 */
import { getAll } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";

/** What a moderator can withdraw: a debate or a roundtable. */
export type WithdrawnKind = "debate" | "roundtable";

/** A withdrawal as stored: why, when (Unix ms) and by whom. */
export interface Withdrawal {
  reason: string;
  at: number;
  by: { id: string; name: string };
}

/**
 * The withdrawal of one item, or null while it is not withdrawn.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const w = await withdrawalOf(kv, "debate", "debate_1700000000000_k3j9x0qa2m");
 * if (w) console.log(`Withdrawn by moderators: ${w.reason}`);
 * ```
 */
export async function withdrawalOf(
  kv: Deno.Kv,
  kind: WithdrawnKind,
  id: string,
): Promise<Withdrawal | null> {
  return (await kv.get<Withdrawal>(keys.withdrawn(kind, id))).value;
}

/**
 * Which of `ids` are withdrawn (batched reads), for lists that leave them out.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const out = await withdrawnAmong(kv, "roundtable", ["rt_1", "rt_2"]);
 * out.has("rt_1");
 * ```
 */
export async function withdrawnAmong(
  kv: Deno.Kv,
  kind: WithdrawnKind,
  ids: readonly string[],
): Promise<Set<string>> {
  const got = await getAll(kv, ids.map((id) => keys.withdrawn(kind, id)));
  return new Set(ids.filter((_, i) => got[i].value !== null));
}
