/**
 * A person's unread count that stays equal to their unread notifications that still exist,
 * while notifications expire (lib/notifications/stored.ts `isExpired`) and KV removes them
 * without telling anyone.
 *
 * Two kinds of key move together, in the same atomic op and by the same amount:
 *
 * - the counter `["notification_unread", userId]` (`sum`): what the pages, the API and the
 *   live stream (which `kv.watch`es it) show;
 * - the expiry ledger `["notification_unread_due", userId, dueDay]` (`sum`): how much of
 *   that count is notifications that expire when UTC day `dueDay` begins.
 *
 * So the counter always equals the sum of the person's ledger, and whatever is filed under
 * a day that has begun is unread notifications that no longer exist. {@link unreadCount}
 * takes those days off the counter and deletes them in one op (each ledger key checked at
 * the version read), before answering: one bounded `list` of the begun days (usually
 * none) beside the counter's `get` — never a walk of the history. Trimming the history
 * takes what it removes off both (./notifications.ts `trimNotifications`).
 *
 * Why a ledger rather than recounting from the history: KV's `expireIn` removes an expired
 * notification without a trace, so after it ran nothing in the history says it had been
 * unread; and a person's history may hold hundreds, too many to count on every page view.
 * The ledger is written where the count is, without reading (a `sum` never conflicts, so
 * the answer fan-out writes it 100 recipients at a time as before), and holds one key per
 * day that brought unread notifications: at most 90 once a read took the begun ones off (a
 * person who never comes back keeps one small key per such day, as they keep their
 * counter). A read writes only when a day has begun since the last one, so at most once a
 * day per person. Why this is right with several instances on one KV: nothing
 * lives in memory, and every change of the ledger moves the counter in the same op, so an
 * op that checks the counter's version (mark all read, {@link recountUnread}) sees any
 * ledger change; marking one read checks the ledger key it takes 1 from, so it never takes
 * from a day another instance has already taken off the counter (one whose clock turned
 * midnight first). Adding to a begun day is harmless: the next read takes it off again.
 *
 * @module
 */
import { addToCounter, commit, counterValue, updateAtomically } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import {
  dueDayOf,
  isExpired,
  isNotificationRef,
  type Notification,
  notificationOf,
} from "./stored.ts";

const DAY = 86_400_000;
/** The first key part of the unread counters and of their watermarks. */
const UNREAD_PREFIX = keys.notificationUnread("")[0];

/**
 * When the next ledger day begins after `now` (the start of the next UTC day): the moment
 * the notifications filed under it stop counting, though the counter holds them until
 * {@link unreadCount} takes them off.
 *
 * @example
 * ```ts
 * nextLedgerDay(Date.UTC(2026, 10, 24, 13)); // Date.UTC(2026, 10, 25)
 * ```
 */
export function nextLedgerDay(now: number): number {
  return (Math.floor(now / DAY) + 1) * DAY;
}

/** Begun ledger days taken off the counter per op (one check each; KV allows 100). */
export const EXPIRED_PER_OP = 50;

/**
 * The "mark all read" watermark's key: notifications written before it (commit order) are read.
 *
 * @example
 * ```ts
 * unreadMarkKey("u_1"); // ["notification_unread", "u_1", "mark"]
 * ```
 */
export function unreadMarkKey(userId: string): Deno.KvKey {
  return [...keys.notificationUnread(userId), "mark"];
}

/**
 * The "mark all read" watermark as a read found it: the time it was set (by the clock of
 * the instance that set it) and the versionstamp of that write.
 */
export interface UnreadMark {
  at: number;
  versionstamp: string;
}

/**
 * The watermark held by `entry` (the entry of {@link unreadMarkKey}), or null when the
 * person never marked all read.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const mark = unreadMarkOf(await kv.get(unreadMarkKey("u_1")));
 * ```
 */
export function unreadMarkOf(entry: Deno.KvEntryMaybe<unknown>): UnreadMark | null {
  return typeof entry.value === "number" && entry.versionstamp !== null
    ? { at: entry.value, versionstamp: entry.versionstamp }
    : null;
}

/**
 * How far before the watermark's time a notification written after it may be stamped and
 * still be unread: the most two instances' clocks are taken to differ. It matters only
 * for rows written again without changing (a restore, a shape migration): see
 * {@link isUnread}.
 */
export const MARK_CLOCK_SLACK_MS = 60_000;

/**
 * True when `n`, stored at `versionstamp`, counts as unread under the watermark `mark`.
 *
 * Which notifications "mark all read" covered is decided by commit order, not by clocks:
 * a notification is unread when its row was written after the watermark's (versionstamps
 * grow with every commit of the store). A time comparison goes wrong by the clock
 * difference of two instances: a notification stamped by a clock behind the one that
 * marked would be read before anyone saw it while the counter still counts it, and one
 * stamped by a clock ahead would stay unread after the counter went to 0. A restore writes
 * every row anew, so a backup carries what the watermark covered in the rows' own flags
 * ({@link notificationsForBackup}), and the shape migration writes the flag into each row
 * it rewrites (lib/ops/compact.ts `notificationRewrite`). The time is a second condition,
 * for rows written again after the watermark without either: those stamped more than
 * {@link MARK_CLOCK_SLACK_MS} before it stay read.
 *
 * @example
 * ```ts
 * import type { Notification } from "./stored.ts";
 * declare const n: Notification;
 * isUnread(n, "00000000000000010000", null); // true unless n.read
 * ```
 */
export function isUnread(
  n: Pick<Notification, "read" | "updatedAt">,
  versionstamp: string,
  mark: UnreadMark | null,
): boolean {
  if (n.read) return false;
  if (!mark) return true;
  // Never equal in use ("mark all read" writes no notification); a restore's batch may
  // write a watermark and notifications in one commit, then the rows' own flags say it.
  return versionstamp >= mark.versionstamp && n.updatedAt > mark.at - MARK_CLOCK_SLACK_MS;
}

/**
 * What a backup writes for the entry at `["notifications", userId, id]`: a row the
 * watermark has read gets the row's own read flag. A restore writes every row again after
 * the watermarks, so the commit order {@link isUnread} goes by is not in the file; with the
 * flag, what was read stays read. Rows of the older shape are left as they are (the
 * compaction migration rewrites them).
 *
 * Call it with the rows in key order, as a backup lists them: each person's watermark is
 * then found by a second walk, of the watermarks in the same order, beside the first (a
 * page of 500 per round trip, nothing kept but the page).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const valueOf = notificationsForBackup(kv);
 * for await (const e of kv.list({ prefix: ["notifications"] })) await valueOf(e);
 * ```
 */
export function notificationsForBackup(
  kv: Deno.Kv,
): (entry: Deno.KvEntry<unknown>) => Promise<unknown> {
  // Counters and ledger days share the prefix; only the watermarks are kept.
  const watermarks = kv.list({ prefix: [UNREAD_PREFIX] }, { batchSize: 500 });
  /** The next watermark entry the walk has read and not passed, null at its end. */
  let next: Deno.KvEntry<unknown> | null | undefined;
  let userId: string | undefined;
  let mark: UnreadMark | null = null;
  const markOf = async (user: string): Promise<UnreadMark | null> => {
    while (true) {
      if (next === undefined) {
        const r = await watermarks.next();
        next = r.done ? null : r.value;
      }
      if (next === null) return null;
      // User ids are ASCII, so string order is the store's key order.
      const owner = String(next.key[1]);
      if (next.key.length !== 3 || next.key[2] !== "mark" || owner < user) {
        next = undefined;
        continue;
      }
      return owner === user ? unreadMarkOf(next) : null;
    }
  };
  return async (entry) => {
    const ref = entry.value;
    if (!isNotificationRef(ref) || ref.r === true) return ref;
    const n = notificationOf(String(entry.key[2]), ref);
    if (!n) return ref;
    if (entry.key[1] !== userId) {
      userId = String(entry.key[1]);
      mark = await markOf(userId);
    }
    return isUnread(n, entry.versionstamp, mark) ? ref : { ...ref, r: true };
  };
}

/**
 * Add `delta` unread notifications created at `createdAt` to `userId`'s count inside `op`:
 * the counter and the ledger day they expire on, together.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const op = kv.atomic();
 * countUnreadInOp(op, "u_1", Date.now(), 1);
 * ```
 */
export function countUnreadInOp(
  op: Deno.AtomicOperation,
  userId: string,
  createdAt: number,
  delta: number,
): Deno.AtomicOperation {
  addToCounter(op, keys.notificationUnread(userId), delta);
  return addToCounter(op, keys.notificationUnreadDue(userId, dueDayOf(createdAt)), delta);
}

/**
 * Take `take` unread notifications off `userId`'s count inside `op`, from the ledger day
 * `filed` (read by the caller, whose op checks it): the counter and that day together; the
 * day's key is deleted when nothing is left under it.
 *
 * @example
 * ```ts
 * import { keys } from "../kv/keys.ts";
 * declare const kv: Deno.Kv;
 * const filed = await kv.get<Deno.KvU64>(keys.notificationUnreadDue("u_1", 20_090));
 * takeUnreadInOp(kv.atomic().check(filed), "u_1", filed, 1);
 * ```
 */
export function takeUnreadInOp(
  op: Deno.AtomicOperation,
  userId: string,
  filed: Deno.KvEntryMaybe<Deno.KvU64>,
  take: number,
): Deno.AtomicOperation {
  addToCounter(op, keys.notificationUnread(userId), -take);
  return counterValue(filed.value) <= take
    ? op.delete(filed.key)
    : addToCounter(op, filed.key, -take);
}

/**
 * Move nothing, but give the counter a new version: an op that changes what is unread
 * without changing the count (a notification marked read that the ledger no longer
 * holds) still fails a concurrent recount's check of the counter.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * touchUnreadInOp(kv.atomic(), "u_1");
 * ```
 */
export function touchUnreadInOp(op: Deno.AtomicOperation, userId: string): Deno.AtomicOperation {
  return addToCounter(op, keys.notificationUnread(userId), 0);
}

/** The ledger days of `userId` that have begun at `now` (up to `limit`). */
async function begunDays(
  kv: Deno.Kv,
  userId: string,
  now: number,
  limit: number,
): Promise<Deno.KvEntry<Deno.KvU64>[]> {
  const today = Math.floor(now / DAY);
  return await Array.fromAsync(kv.list<Deno.KvU64>({
    prefix: keys.notificationUnreadDuePrefix(userId),
    end: keys.notificationUnreadDue(userId, today + 1),
  }, { limit, batchSize: limit }));
}

/**
 * `userId`'s unread count at `now`: the counter, after taking off it what the ledger files
 * under days that have begun (their notifications have expired), in ops that check each
 * ledger key taken. Costs the counter's `get` and one `list` (empty unless a day has
 * begun since the last read).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const n = await unreadCount(kv, "u_1", Date.now());
 * ```
 */
export async function unreadCount(kv: Deno.Kv, userId: string, now: number): Promise<number> {
  for (let round = 1;; round++) {
    const [counter, begun] = await Promise.all([
      kv.get(keys.notificationUnread(userId)),
      begunDays(kv, userId, now, EXPIRED_PER_OP),
    ]);
    let expired = 0;
    for (const e of begun) expired += counterValue(e.value);
    const count = Math.max(0, counterValue(counter.value) - expired);
    if (begun.length === 0) return count;
    const res = await commit(kv, (op) => {
      for (const e of begun) op.check(e).delete(e.key);
      addToCounter(op, keys.notificationUnread(userId), -expired);
    });
    // Taken off: done, unless more days have begun than one op takes. Lost to another
    // writer (a reader taking the same days, one marked read): read again — a few times,
    // then answer what was read (the next read takes the days off).
    if ((res.ok && begun.length < EXPIRED_PER_OP) || round >= MAX_ROUNDS) return count;
  }
}

/** Attempts of {@link unreadCount} to take begun days off before answering without. */
const MAX_ROUNDS = 5;

/**
 * "Mark all read" inside an optimistic attempt: the counter to 0, the watermark to `now`
 * and every ledger day deleted, under a check of the counter (every ledger change moves
 * it). Answers the op to commit (in an object: an op is not a value a promise can carry).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * import { updateAtomically } from "../kv/atomic.ts";
 * await updateAtomically(async () => ({ ...await markAllReadOp(kv, "u_1", Date.now()), result: 0 }));
 * ```
 */
export async function markAllReadOp(
  kv: Deno.Kv,
  userId: string,
  now: number,
): Promise<{ op: Deno.AtomicOperation }> {
  const [counter, ledger] = await Promise.all([
    kv.get(keys.notificationUnread(userId)),
    // At most a key per day of the last 90, once the begun days were taken off.
    Array.fromAsync(kv.list({ prefix: keys.notificationUnreadDuePrefix(userId) })),
  ]);
  const op = kv.atomic().check(counter)
    .set(keys.notificationUnread(userId), new Deno.KvU64(0n))
    .set(unreadMarkKey(userId), now);
  for (const e of ledger) op.delete(e.key);
  return { op };
}

/**
 * Count `userId`'s unread notifications that exist at `now` from their whole history and
 * write the counter and the ledger to match, under checks of the counter and the
 * watermark (anything that changes what is unread moves the counter). For stores written
 * before the ledger existed (the compaction migration, lib/ops/compact.ts) — a walk of the
 * history, never on a page view. Answers the count.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const n = await recountUnread(kv, "u_1", Date.now());
 * ```
 */
export async function recountUnread(kv: Deno.Kv, userId: string, now: number): Promise<number> {
  return await updateAtomically(async () => {
    const [[counter, markEntry], history, ledger] = await Promise.all([
      kv.getMany<[unknown, number]>([keys.notificationUnread(userId), unreadMarkKey(userId)]),
      Array.fromAsync(kv.list({ prefix: keys.notificationsPrefix(userId) })),
      Array.fromAsync(kv.list({ prefix: keys.notificationUnreadDuePrefix(userId) })),
    ]);
    const mark = unreadMarkOf(markEntry);
    const byDay = new Map<number, number>();
    for (const e of history) {
      const n = notificationOf(e.key[2] as string, e.value);
      if (!n || !isUnread(n, e.versionstamp, mark) || isExpired(n.createdAt, now)) continue;
      const day = dueDayOf(n.createdAt);
      byDay.set(day, (byDay.get(day) ?? 0) + 1);
    }
    let total = 0;
    for (const v of byDay.values()) total += v;
    const op = kv.atomic().check(counter, markEntry);
    for (const e of ledger) op.delete(e.key);
    for (const [day, v] of byDay) {
      op.set(keys.notificationUnreadDue(userId, day), new Deno.KvU64(BigInt(v)));
    }
    op.set(keys.notificationUnread(userId), new Deno.KvU64(BigInt(total)));
    return { op, result: total };
  });
}
