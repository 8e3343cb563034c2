/**
 * Public debates (docs/interface.md#public-debates): debates whose owner's `debateArchive`
 * setting is public and that moderators have not withdrawn, newest first or most watched, and the watch count that orders the
 * second list.
 *
 * "Watched" is exact and cheap: the number of distinct signed-in members other than the
 * owner who opened `/debates/:id`. Signed-out opens are not counted: they are served from
 * the shared page cache (lib/http/page_cache.ts), so counting them could never be exact;
 * reloads are not counted either. A member's first open writes their watcher key, the count
 * and its rank key in one checked op, so the most-watched index never disagrees with it.
 *
 * @module
 */
import { invertTime, listNewestFirst, updateAtomically } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { getSettings } from "../profile/settings.ts";
import { withdrawnAmong } from "../moderation/withdrawn.ts";
import { type DebateRecord, debateSummaries, type OwnedDebateSummary } from "./store.ts";

/** The two orders `/debates` offers. */
export type PublicDebateOrder = "newest" | "watched";

/** A public debate as `/debates` lists it. */
export interface PublicDebateItem extends OwnedDebateSummary {
  watches: number;
}

/** Index entries read per page at most, so a run of private debates cannot make a page slow. */
export const SCAN_LIMIT = 200;

/**
 * One page of public debates in `order`, and the cursor of the next page (undefined at
 * the end). A page can hold fewer than `limit` items when many private debates were
 * skipped; the cursor then still leads on.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const { items, cursor } = await listPublicDebates(kv, "newest", Date.now(), { limit: 20 });
 * ```
 */
export async function listPublicDebates(
  kv: Deno.Kv,
  order: PublicDebateOrder,
  now: number,
  { limit, cursor }: { limit: number; cursor?: string },
): Promise<{ items: PublicDebateItem[]; cursor?: string }> {
  const prefix = order === "newest" ? keys.debatesByTimePrefix() : keys.debatesByWatchesPrefix();
  const publicOwner = new Map<string, boolean>();
  const items: PublicDebateItem[] = [];
  let next = cursor;
  let scanned = 0;
  do {
    const batch = Math.min(limit - items.length, SCAN_LIMIT - scanned);
    const page = await listNewestFirst<string>(kv, prefix, { limit: batch, cursor: next });
    scanned += page.values.length;
    next = page.cursor;
    const withdrawn = await withdrawnAmong(kv, "debate", page.values);
    for (const summary of await debateSummaries(kv, page.values, now)) {
      if (withdrawn.has(summary.id)) continue;
      let open = publicOwner.get(summary.userId);
      if (open === undefined) {
        open = (await getSettings(kv, summary.userId)).debateArchive === "public";
        publicOwner.set(summary.userId, open);
      }
      if (open) items.push({ ...summary, watches: 0 });
    }
  } while (next && items.length < limit && scanned < SCAN_LIMIT);
  const counts = await Promise.all(items.map((d) => debateWatches(kv, d.id)));
  items.forEach((d, i) => d.watches = counts[i]);
  return { items, cursor: next };
}

/**
 * How many signed-in members other than its owner opened the debate's page.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const n = await debateWatches(kv, "debate_1700000000000_k3j9x0qa2m");
 * ```
 */
export async function debateWatches(kv: Deno.Kv, id: string): Promise<number> {
  return (await kv.get<number>(keys.debateWatches(id))).value ?? 0;
}

/**
 * Count `viewerId`'s open of `debate`'s page: a signed-in member other than the owner
 * counts once, however often they open it; signed-out visitors (null) and the owner are
 * not counted. Returns the count after this open.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const debate: import("./store.ts").DebateRecord;
 * await recordDebateWatch(kv, debate, "u_1", Date.now());
 * ```
 */
export function recordDebateWatch(
  kv: Deno.Kv,
  debate: Pick<DebateRecord, "id" | "userId" | "createdAt">,
  viewerId: string | null,
  now: number,
): Promise<number> {
  if (viewerId === null || viewerId === debate.userId) return debateWatches(kv, debate.id);
  const inverted = invertTime(debate.createdAt);
  return updateAtomically(async () => {
    const [seen, cur] = await kv.getMany<[number, number]>([
      keys.debateWatcher(debate.id, viewerId),
      keys.debateWatches(debate.id),
    ]);
    const was = cur.value ?? 0;
    if (seen.versionstamp !== null) return { op: null, result: was };
    const op = kv.atomic().check(seen).check(cur)
      .set(keys.debateWatcher(debate.id, viewerId), now)
      .set(keys.debateWatches(debate.id), was + 1)
      .set(keys.debateByWatches(was + 1, inverted, debate.id), debate.id);
    if (was > 0) op.delete(keys.debateByWatches(was, inverted, debate.id));
    return { op, result: was + 1 };
  });
}
