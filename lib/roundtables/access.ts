/**
 * Who may read a roundtable, and the public list: like debates (lib/debates/access.ts),
 * a roundtable is kept in its owner's debate archive — the owner reads it always, anyone
 * else while that archive is public.
 *
 * @module
 */
import { listNewestFirst } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { archiveOpenTo } from "../debates/access.ts";
import type { RoundtableRecord } from "./model.ts";
import { getRoundtable, type Roundtable, roundtableRecords } from "./store.ts";

/** Index entries read per page at most, so a run of private roundtables cannot make a page slow. */
const SCAN_LIMIT = 200;

/**
 * The roundtable if `viewerId` (null: signed out) may read it, or why not: `private` (it
 * exists; its owner keeps the archive private) or `not_found`.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await roundtableAccess(kv, "rt_1700000000000_k3j9x0qa2m", null, Date.now());
 * if (!r.ok && r.reason === "private") console.log("private");
 * ```
 */
export async function roundtableAccess(
  kv: Deno.Kv,
  id: string,
  viewerId: string | null,
  now: number,
): Promise<{ ok: true; roundtable: Roundtable } | { ok: false; reason: "not_found" | "private" }> {
  const roundtable = await getRoundtable(kv, id, now);
  if (!roundtable) return { ok: false, reason: "not_found" };
  return await archiveOpenTo(kv, roundtable.userId, viewerId)
    ? { ok: true, roundtable }
    : { ok: false, reason: "private" };
}

/**
 * The newest public roundtables (their owners' debate archives are public), at most `limit`.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const items = await listPublicRoundtables(kv, Date.now(), 20);
 * ```
 */
export async function listPublicRoundtables(
  kv: Deno.Kv,
  now: number,
  limit: number,
): Promise<RoundtableRecord[]> {
  const open = new Map<string, boolean>();
  const out: RoundtableRecord[] = [];
  let cursor: string | undefined;
  let scanned = 0;
  do {
    const batch = Math.min(limit - out.length, SCAN_LIMIT - scanned);
    const page = await listNewestFirst<string>(kv, keys.roundtablesByTimePrefix(), {
      limit: batch,
      cursor,
    });
    scanned += page.values.length;
    cursor = page.cursor;
    for (const r of await roundtableRecords(kv, page.values, now)) {
      let isOpen = open.get(r.userId);
      if (isOpen === undefined) {
        open.set(r.userId, isOpen = await archiveOpenTo(kv, r.userId, null));
      }
      if (isOpen) out.push(r);
    }
  } while (cursor && out.length < limit && scanned < SCAN_LIMIT);
  return out;
}
