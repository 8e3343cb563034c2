/**
 * Sanctions (docs/interface.md#sanctions): what a moderator can impose on a person, and the
 * one check every surface asks before acting for them.
 *
 * - **Silence**: the person may read, but not post, edit, vote, favorite, flag, accept,
 *   invite an expert or start a debate — by any way in (pages, REST, agent API, MCP,
 *   agent participation, their AI avatar). Pages show them a banner with the reason and
 *   the end.
 * - **Suspend**: all of silence, and the person is signed out everywhere and may not sign
 *   in (the sign-in page says why and until when); their agent keys are refused.
 *
 * A sanction is one key, `["sanctions", userId]`, holding the action, the reason, the end
 * (`until`, Unix ms, or null: until lifted) and who imposed it; past its end it is void,
 * so nothing has to run when it expires. This module only reads it (writes: ./sanction_actions.ts).
 *
 * @module
 */
import { keys } from "../kv/keys.ts";
import { LruCache, perStore } from "../cache.ts";

/** What a moderator may impose. */
export type SanctionAction = "silence" | "suspend";

/** `["sanctions", userId]`. */
export interface Sanction {
  action: SanctionAction;
  /** Why, in the moderator's words (1–500 characters); shown to the person. */
  reason: string;
  /** When it ends (Unix ms), or null: until a moderator lifts it. */
  until: number | null;
  /** When it was imposed (Unix ms). */
  at: number;
  by: { id: string; name: string };
}

/** A write refused because its author is silenced or suspended. */
export interface Restricted {
  ok: false;
  reason: "restricted";
  sanction: Sanction;
}

/**
 * The sanction in force at `now`, or null (none, or past its end).
 *
 * @example
 * ```ts
 * import { activeSanction } from "./sanctions.ts";
 *
 * const s = { action: "silence" as const, reason: "spam", until: 2_000, at: 1_000, by: { id: "m", name: "Mo" } };
 * activeSanction(s, 1_500); // s
 * activeSanction(s, 2_000); // null
 * ```
 */
export function activeSanction(
  value: Sanction | null | undefined,
  now: number,
): Sanction | null {
  if (!value) return null;
  return value.until === null || value.until > now ? value : null;
}

/**
 * The refusal of a write by a sanctioned author, from the entry of `["sanctions", userId]`
 * the writer read with its other keys; null when the author may write.
 *
 * @example
 * ```ts
 * import { keys } from "@/lib/kv/keys.ts";
 * import { restrictionOf, type Sanction } from "./sanctions.ts";
 *
 * declare const kv: Deno.Kv;
 * const entry = await kv.get<Sanction>(keys.sanction("u_1"));
 * const refused = restrictionOf(entry.value, Date.now()); // Restricted | null
 * ```
 */
export function restrictionOf(value: Sanction | null | undefined, now: number): Restricted | null {
  const sanction = activeSanction(value, now);
  return sanction ? { ok: false, reason: "restricted", sanction } : null;
}

/**
 * {@link restrictionOf} with its own (strong) read: for writers that have no read of
 * their own to add the key to.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const refused = await restriction(kv, "u_1", Date.now());
 * if (refused) console.log(sanctionMessage(refused.sanction));
 * ```
 */
export async function restriction(
  kv: Deno.Kv,
  userId: string,
  now: number,
): Promise<Restricted | null> {
  return restrictionOf((await kv.get<Sanction>(keys.sanction(userId))).value, now);
}

/**
 * Thrown by writers that report by exception (agent participation) when the author is
 * sanctioned.
 *
 * @example
 * ```ts
 * import { RestrictedError } from "./sanctions.ts";
 *
 * const err = new RestrictedError({ action: "silence", reason: "Spam", until: null, at: 0, by: { id: "m", name: "Mo" } });
 * err.message; // the sentence the person reads
 * ```
 */
export class RestrictedError extends Error {
  constructor(readonly sanction: Sanction) {
    super(sanctionMessage(sanction));
    this.name = "RestrictedError";
  }
}

/**
 * "2026-05-12 10:00 UTC": an end as the person reads it.
 *
 * @example
 * ```ts
 * import { untilInWords } from "./sanctions.ts";
 *
 * untilInWords(Date.UTC(2026, 4, 12, 10)); // "2026-05-12 10:00 UTC"
 * ```
 */
export function untilInWords(until: number): string {
  return `${new Date(until).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * The sentence a sanctioned person reads: what, until when, why, and what it stops.
 *
 * @example
 * ```ts
 * import { sanctionMessage } from "./sanctions.ts";
 *
 * sanctionMessage({ action: "silence", reason: "Spam links", until: null });
 * // "Your account is silenced by a moderator until they lift it: Spam links. You can read, but not post, vote or flag."
 * ```
 */
export function sanctionMessage(s: Pick<Sanction, "action" | "reason" | "until">): string {
  const when = s.until === null ? "until they lift it" : `until ${untilInWords(s.until)}`;
  const reason = s.reason.trim().replace(/[.!?]*$/, "");
  return s.action === "silence"
    ? `Your account is silenced by a moderator ${when}: ${reason}. You can read, but not post, vote or flag.`
    : `Your account is suspended by a moderator ${when}: ${reason}. You cannot sign in, and your agent keys are refused.`;
}

/** How long this process reuses a sanction it read for an agent key, in ms. */
export const SANCTION_CACHE_MS = 1000;

const recent = perStore(() =>
  new LruCache<string, Sanction | null>({ maxEntries: 10_000, ttlMs: SANCTION_CACHE_MS })
);

/**
 * The sanction of `userId` as the agent door reads it: reused for
 * {@link SANCTION_CACHE_MS} (every agent request authenticates, and a read per request is
 * what the key cache saves), dropped at once in this process by a sanction written here
 * ({@link forgetSanction}); another instance's change shows within that time.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const s = await cachedSanction(kv, "u_1", Date.now());
 * ```
 */
export async function cachedSanction(
  kv: Deno.Kv,
  userId: string,
  now: number,
): Promise<Sanction | null> {
  const cache = recent(kv);
  let value = cache.get(userId);
  if (value === undefined) {
    value = (await kv.get<Sanction>(keys.sanction(userId))).value;
    cache.set(userId, value);
  }
  return activeSanction(value, now);
}

/**
 * Drop what this process cached of `userId`'s sanction (after writing it).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * forgetSanction(kv, "u_1");
 * ```
 */
export function forgetSanction(kv: Deno.Kv, userId: string): void {
  recent(kv).delete(userId);
}
