/**
 * Who may read a roundtable, and the public list: like debates (lib/debates/access.ts),
 * a roundtable is kept in its owner's debate archive — the owner reads it always, anyone
 * else while that archive is public; one moderators withdrew only its owner and moderators
 * read, and it leaves the list.
 *
 * @module
 */
import { listNewestFirst } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { archiveOpenTo, type ArchiveRefusal, ownedItemAccess } from "../debates/access.ts";
import type { Viewer } from "../community/visibility.ts";
import { type Withdrawal, withdrawnAmong } from "../moderation/withdrawn.ts";
import type { RoundtableRecord } from "./model.ts";
import { getRoundtable, type Roundtable, roundtableRecords } from "./store.ts";

/** Index entries read per page at most, so a run of private roundtables cannot make a page slow. */
const SCAN_LIMIT = 200;

/**
 * The roundtable if `viewer` (null: signed out) may read it, or why not: `private` (it
 * exists; its owner keeps the archive private) or `not_found` (missing, or withdrawn by
 * moderators and `viewer` is neither its owner nor a moderator). `withdrawn` is the
 * withdrawal its owner and moderators see (null while it is shown).
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
  viewer: Viewer | null,
  now: number,
): Promise<{ ok: true; roundtable: Roundtable; withdrawn: Withdrawal | null } | ArchiveRefusal> {
  const roundtable = await getRoundtable(kv, id, now);
  if (!roundtable) return { ok: false, reason: "not_found" };
  const r = await ownedItemAccess(kv, "roundtable", roundtable, viewer);
  return r.ok ? { ok: true, roundtable, withdrawn: r.withdrawn } : r;
}

/**
 * The newest public roundtables (their owners' debate archives are public, and moderators
 * have not withdrawn them), at most `limit`.
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
    const withdrawn = await withdrawnAmong(kv, "roundtable", page.values);
    for (const r of await roundtableRecords(kv, page.values, now)) {
      if (withdrawn.has(r.id)) continue;
      let isOpen = open.get(r.userId);
      if (isOpen === undefined) {
        open.set(r.userId, isOpen = await archiveOpenTo(kv, r.userId, null));
      }
      if (isOpen) out.push(r);
    }
  } while (cursor && out.length < limit && scanned < SCAN_LIMIT);
  return out;
}
