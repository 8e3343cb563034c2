/**
 * Follows and notifications (docs/interface.md#notifications).
 *
 * - Follows: `["follows", questionId, userId]`. The asker follows in the question's op, each
 *   answerer in their message's op ({@link followInOp}); `POST /api/questions/:id/follow`
 *   toggles.
 * - Notifications: `["notifications", userId, id]`, ids sortable by time. Types: `answer`
 *   (a followed question got a top-level answer), `reply` (to your message), `accepted`
 *   (your answer), `upvotes` (your post's up-votes, one entry per post per UTC day with a
 *   running `count`). Never to the actor about their own action.
 * - Written with their cause: `reply`, `accepted` and the asker's `answer` join the
 *   cause's atomic op ({@link notifyInOp}); the `answer` fan-out to the other followers is a
 *   job created in the answer's op and run outside the request in batches of 100, to every
 *   follower (lib/notifications/fanout.ts); `upvotes` is merged into the day's entry after
 *   the vote's commit.
 * - Unread: the counter `["notification_unread", userId]` (`sum` ±1; mark-all sets 0 and a
 *   watermark), never a scan. The live stream watches that key. Each change of it is also
 *   filed under the day the notifications expire, so expired unread ones leave the count
 *   when it is next read (./unread.ts).
 * - Expired (lib/notifications/stored.ts `isExpired`): not listed, not counted, even while
 *   KV has not removed them yet.
 *
 * @module
 */
import { commit, counterValue, getAll, updateAtomically } from "../kv/atomic.ts";
import { afterCommit } from "../kv/after_commit.ts";
import { maySee, type PostMarks } from "../community/visibility.ts";
import { isLookupId, keys } from "../kv/keys.ts";
import { excerpt } from "../text/excerpt.ts";
import type { Author } from "../community/questions/model.ts";
import { DELETED_USER } from "../account/deleted_user.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import { messagePath, type MessageRecord } from "../community/messages/model.ts";
import {
  createdAtOf,
  dueDayOf,
  expireInOf,
  isExpired,
  type Notification,
  NOTIFICATION_TTL_MS,
  notificationOf,
  NOTIFICATIONS_KEPT,
  type NotificationType,
  refOf,
} from "./stored.ts";
import {
  countUnreadInOp,
  isUnread,
  markAllReadOp,
  takeUnreadInOp,
  touchUnreadInOp,
  unreadCount,
  unreadMarkKey as markKey,
  unreadMarkOf,
} from "./unread.ts";

export type { Notification, NotificationType } from "./stored.ts";
export { unreadCount } from "./unread.ts";

/** Who a notification is from, as served. */
export type NotificationActor = { id: string; name: string; avatarUrl: string | null } | null;

/**
 * A notification as the API serves it, rendered from the question and message records it
 * points to (./stored.ts). `removed: true` when its question or message was deleted or
 * hidden since and the recipient may no longer see it: title `"[removed]"`, no excerpt, no
 * actor (docs/interface.md#notifications).
 */
export interface NotificationView {
  id: string;
  type: NotificationType;
  actor: NotificationActor;
  questionId: string;
  messageId: string | null;
  title: string;
  excerpt: string;
  count: number;
  createdAt: number;
  read: boolean;
  removed?: true;
}

/** The title a removed notification shows. */
export const REMOVED_TITLE = "[removed]";

/** Notifications per page. */
export const NOTIFICATIONS_PAGE = 20;
const DAY = 86_400_000;

let lastMs = 0;
let sameMs = 0;

/** A notification id: sorts by time (then a per-millisecond counter), newest last. */
export function notificationId(now: number): string {
  sameMs = now === lastMs ? sameMs + 1 : 0;
  lastMs = now;
  const rand = crypto.getRandomValues(new Uint8Array(3));
  let r = "";
  for (const b of rand) r += (b % 36).toString(36);
  return `n-${now.toString(36).padStart(9, "0")}${sameMs.toString(36).padStart(4, "0")}${r}`;
}

/** The actor of a notification, from a post's author snapshot. */
export function actorOf(author: Author): NotificationActor {
  return { id: author.id, name: author.name, avatarUrl: author.avatar ?? null };
}

/**
 * What a new notification points to. (`title` and `text`, which callers of older shapes
 * passed, are not stored: the page renders them from the records.)
 */
export interface NewNotification {
  type: NotificationType;
  /** Who did it (only the id is kept); null for grouped up-votes. */
  actor: { id: string; name?: string; avatarUrl?: string | null } | null;
  questionId: string;
  messageId: string | null;
  answerId: string | null;
  title?: string;
  text?: string;
  /** How many events it stands for (grouped upvotes); 1 when absent. */
  count?: number;
}

/**
 * Add a notification for `recipientId` to `op` (and +1 unread), unless the recipient is
 * the actor. It is stored as a reference (./stored.ts) that expires after
 * {@link NOTIFICATION_TTL_MS}.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const op = kv.atomic();
 * notifyInOp(op, "u_2", {
 *   type: "reply",
 *   actor: { id: "u_1", name: "Ada", avatarUrl: null },
 *   questionId: "q-1",
 *   messageId: "msg-2",
 *   answerId: "msg-1",
 * }, Date.now());
 * ```
 */
export function notifyInOp(
  op: Deno.AtomicOperation,
  recipientId: string,
  n: NewNotification,
  now: number,
): Notification | null {
  if (!recipientId || n.actor?.id === recipientId) return null;
  const record: Notification = {
    id: notificationId(now),
    type: n.type,
    questionId: n.questionId,
    messageId: n.messageId,
    answerId: n.answerId ?? n.messageId,
    actorId: n.actor?.id ?? null,
    count: n.count ?? 1,
    createdAt: now,
    updatedAt: now,
    read: false,
  };
  op.set(keys.notification(recipientId, record.id), refOf(record), {
    expireIn: NOTIFICATION_TTL_MS,
  });
  countUnreadInOp(op, recipientId, now, 1);
  return record;
}

/** Follow `questionId` as `userId` inside `op`. */
export function followInOp(
  op: Deno.AtomicOperation,
  questionId: string,
  userId: string,
  now: number,
): void {
  op.set(keys.follow(questionId, userId), { at: now })
    .set(keys.followByUser(userId, questionId), { at: now });
}

/**
 * Toggle following a question. The caller checks the question is visible.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const { following } = await toggleFollow(kv, "q-1", "u_1");
 * ```
 */
export async function toggleFollow(
  kv: Deno.Kv,
  questionId: string,
  userId: string,
  now = Date.now(),
): Promise<{ following: boolean }> {
  return await updateAtomically<{ following: boolean }>(async () => {
    const cur = await kv.get(keys.follow(questionId, userId));
    const op = kv.atomic().check(cur);
    if (cur.value) {
      op.delete(keys.follow(questionId, userId)).delete(keys.followByUser(userId, questionId));
      return { op, result: { following: false } };
    }
    followInOp(op, questionId, userId, now);
    return { op, result: { following: true } };
  });
}

/** True when `userId` follows `questionId`. */
export async function isFollowing(kv: Deno.Kv, questionId: string, userId: string) {
  if (!isLookupId(questionId)) return false;
  return (await kv.get(keys.follow(questionId, userId))).value !== null;
}

/**
 * After an up-vote committed: the post author's `upvotes` entry of the day — created, or
 * its `count` raised and (if read) made unread again. Never for one's own vote.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await notifyUpvote(kv, {
 *   recipientId: "u_1",
 *   voterId: "u_2",
 *   targetType: "message",
 *   targetId: "msg-1",
 *   questionId: "q-1",
 *   answerId: "msg-1",
 * }, Date.now());
 * ```
 */
export async function notifyUpvote(
  kv: Deno.Kv,
  input: {
    recipientId: string;
    voterId: string;
    targetType: "question" | "message";
    targetId: string;
    questionId: string;
    answerId: string | null;
    /** Upvotes this call stands for (grouped by the caller); 1 when absent. */
    count?: number;
  },
  now: number,
): Promise<void> {
  if (input.recipientId === input.voterId) return;
  const day = Math.floor(now / DAY);
  const dailyKey = keys.notificationDaily(input.recipientId, input.targetType, input.targetId, day);
  await updateAtomically(async () => {
    const [daily, mark] = await kv.getMany<[string, number]>([
      dailyKey,
      markKey(input.recipientId),
    ]);
    const existing = daily.value
      ? await kv.get(keys.notification(input.recipientId, daily.value))
      : null;
    const stored = existing?.value ? notificationOf(daily.value!, existing.value) : null;
    // An expired entry is gone, whatever KV still holds: a new one instead.
    const cur = stored && !isExpired(stored.createdAt, now) ? stored : null;
    const op = kv.atomic().check(daily);
    if (existing && cur) {
      op.check(existing, mark);
      const wasUnread = isUnread(cur, existing.versionstamp!, unreadMarkOf(mark));
      const next: Notification = {
        ...cur,
        count: cur.count + (input.count ?? 1),
        updatedAt: now,
        read: false,
      };
      op.set(keys.notification(input.recipientId, cur.id), refOf(next), {
        expireIn: expireInOf(cur, now),
      });
      if (!wasUnread) countUnreadInOp(op, input.recipientId, cur.createdAt, 1);
      return { op, result: null };
    }
    const rec = notifyInOp(op, input.recipientId, {
      type: "upvotes",
      actor: null,
      questionId: input.questionId,
      messageId: input.targetType === "message" ? input.targetId : null,
      answerId: input.answerId,
      count: input.count,
    }, now);
    if (rec) op.set(dailyKey, rec.id, { expireIn: 2 * DAY });
    return { op, result: null };
  });
}

/** What a notification's view is rendered from: the records it points to. */
interface Pointed {
  question: QuestionRecord | null;
  message: MessageRecord | null;
}

/**
 * The view of `n` rendered from its records: the question's title, an excerpt of the
 * message (or, for up-votes on the question, of its description) and the author of the
 * post that is the event (the message's, or the asker's for an accepted answer). Null when
 * the recipient may no longer see the question or the message.
 */
function viewOf(
  n: Notification,
  { question, message }: Pointed,
  userId: string,
  read: boolean,
): NotificationView | null {
  const viewer = { userId };
  const ok = (r: PostMarks | null) => !!r && maySee(r, viewer);
  if (!ok(question) || (n.messageId && !ok(message))) return null;
  const q = question!;
  const text = String((message ? message.content : q.description || q.title) ?? "");
  const by = n.type === "accepted" ? q.author : message?.author;
  return {
    id: n.id,
    type: n.type,
    actor: n.actorId && by ? actorOf(by) : null,
    questionId: n.questionId,
    messageId: n.messageId,
    title: String(q.title ?? ""),
    excerpt: excerpt(text, 140),
    count: n.count,
    createdAt: n.createdAt,
    read,
  };
}

function removedViewOf(n: Notification, read: boolean): NotificationView {
  return {
    id: n.id,
    type: n.type,
    actor: null,
    questionId: n.questionId,
    messageId: n.messageId,
    title: REMOVED_TITLE,
    excerpt: "",
    count: n.count,
    createdAt: n.createdAt,
    read,
    removed: true,
  };
}

/**
 * The question and message records each notification points to: one `getAll` of the
 * distinct records of the page (what it renders from, and whether they may still be seen).
 */
async function pointedRecords(kv: Deno.Kv, list: Notification[]): Promise<Pointed[]> {
  const questionIds = [...new Set(list.map((n) => n.questionId))].filter(isLookupId);
  const messageIds = [...new Set(list.flatMap((n) => n.messageId ? [n.messageId] : []))]
    .filter(isLookupId);
  const records = await getAll<QuestionRecord | MessageRecord>(kv, [
    ...questionIds.map(keys.question),
    ...messageIds.map(keys.message),
  ]);
  const questions = new Map(questionIds.map((id, i) => [id, records[i].value as QuestionRecord]));
  const messages = new Map(
    messageIds.map((id, i) => [id, records[questionIds.length + i].value as MessageRecord]),
  );
  return list.map((n) => ({
    question: questions.get(n.questionId) ?? null,
    message: n.messageId ? messages.get(n.messageId) ?? null : null,
  }));
}

/** The actor shown for someone who deleted their account. */
const DELETED_ACTOR: NotificationActor = {
  id: DELETED_USER.id,
  name: DELETED_USER.name,
  avatarUrl: null,
};

/** Which actors of `list` deleted their account since (their tombstone exists). */
async function deletedActors(kv: Deno.Kv, list: Notification[]): Promise<Set<string>> {
  const ids = [...new Set(list.flatMap((n) => n.actorId ? [n.actorId] : []))]
    .filter(isLookupId);
  const tombs = await getAll(kv, ids.map(keys.deletedUser));
  return new Set(ids.filter((_, i) => tombs[i].value !== null));
}

/** One page of notifications with the link target of each (for the page). */
export interface NotificationsPage {
  notifications: NotificationView[];
  /** `/questions/:id…#message` of each, in the same order. */
  links: string[];
  unread: number;
  nextCursor: string | null;
}

/** Where a notification leads: the thread page holding the message, scrolled to it. */
export function notificationHref(
  n: Pick<Notification, "questionId" | "messageId" | "answerId">,
): string {
  if (!n.messageId) return `/questions/${encodeURIComponent(n.questionId)}`;
  return messagePath(n.questionId, n.answerId ?? n.messageId, n.messageId);
}

/**
 * A page of the user's notifications at `now`, newest first ({@link NOTIFICATIONS_PAGE} a
 * page; expired ones are gone even while KV still holds them); `cursor` is the previous
 * page's `nextCursor` (a malformed one starts over: the API refuses it before, the page does not).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const page = await listNotifications(kv, "u_1", null, Date.now());
 * ```
 */
export async function listNotifications(
  kv: Deno.Kv,
  userId: string,
  cursor: string | null,
  now = Date.now(),
): Promise<NotificationsPage> {
  const [unread, markEntry] = await Promise.all([
    unreadCount(kv, userId, now),
    kv.get<number>(markKey(userId)),
  ]);
  const mark = unreadMarkOf(markEntry);
  const records: Notification[] = [];
  /** Whether each of `records` is read. */
  const read: boolean[] = [];
  const start = cursor && /^n-[0-9a-z]+$/.test(cursor) ? cursor : null;
  const selector: Deno.KvListSelector = start
    ? { prefix: keys.notificationsPrefix(userId), end: keys.notification(userId, start) }
    : { prefix: keys.notificationsPrefix(userId) };
  for await (
    const e of kv.list(selector, {
      reverse: true,
      limit: NOTIFICATIONS_PAGE + 1,
    })
  ) {
    const n = notificationOf(e.key[2] as string, e.value);
    // Older ones come later (ids sort by time): expired too.
    if (n && isExpired(n.createdAt, now)) break;
    if (!n) continue;
    records.push(n);
    read.push(!isUnread(n, e.versionstamp, mark));
  }
  const more = records.length > NOTIFICATIONS_PAGE;
  const shown = records.slice(0, NOTIFICATIONS_PAGE);
  const [pointed, gone] = await Promise.all([
    pointedRecords(kv, shown),
    deletedActors(kv, shown),
  ]);
  return {
    notifications: shown.map((n, i) => {
      const view = viewOf(n, pointed[i], userId, read[i]);
      if (!view) return removedViewOf(n, read[i]);
      // An actor who deleted their account is "deleted user" here too.
      const deleted = n.actorId && (gone.has(n.actorId) || view.actor?.id === DELETED_USER.id);
      return deleted ? { ...view, actor: DELETED_ACTOR } : view;
    }),
    links: shown.map(notificationHref),
    unread,
    nextCursor: more ? shown[shown.length - 1].id : null,
  };
}

/**
 * Mark notifications read: `ids`, or all when absent. Answers the unread count after.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const { unread } = await markRead(kv, "u_1", ["n-…"]);
 * ```
 */
export async function markRead(
  kv: Deno.Kv,
  userId: string,
  ids: string[] | undefined,
  now = Date.now(),
): Promise<{ unread: number }> {
  if (ids === undefined) {
    // Days begun are taken off first, so what is left of the ledger is at most 90 keys.
    await unreadCount(kv, userId, now);
    await updateAtomically(async () => ({ ...await markAllReadOp(kv, userId, now), result: 0 }));
  }
  for (const id of new Set(ids ?? [])) {
    if (!/^n-[0-9a-z]+$/.test(id)) continue;
    await updateAtomically(async () => {
      const guess = createdAtOf(id);
      const [cur, mark, guessed] = await kv.getMany<[unknown, number, Deno.KvU64]>([
        keys.notification(userId, id),
        markKey(userId),
        keys.notificationUnreadDue(userId, dueDayOf(Number.isFinite(guess) ? guess : 0)),
      ]);
      const n = notificationOf(id, cur.value);
      if (!n || !isUnread(n, cur.versionstamp!, unreadMarkOf(mark))) {
        return { op: null, result: null };
      }
      // The ledger day it is filed under (an old-shape one may carry its own time).
      const day = dueDayOf(n.createdAt) === dueDayOf(guess)
        ? guessed
        : await kv.get<Deno.KvU64>(keys.notificationUnreadDue(userId, dueDayOf(n.createdAt)));
      const op = kv.atomic().check(cur, mark, day)
        .set(keys.notification(userId, id), refOf({ ...n, read: true }), {
          expireIn: expireInOf(n, now),
        });
      // Nothing filed under its day: it was taken off the count already (it expired on
      // another instance's clock), or is older than the ledger (recounted by the
      // compaction migration). Either way the count stays, but a recount must notice.
      if (counterValue(day.value) > 0) takeUnreadInOp(op, userId, day, 1);
      else touchUnreadInOp(op, userId);
      return { op, result: null };
    });
  }
  // Having read, some or all: a good moment to keep only the newest.
  await afterCommit("notification history", () => trimNotifications(kv, userId));
  return { unread: ids === undefined ? 0 : await unreadCount(kv, userId, now) };
}

/**
 * Where one of `userId`'s notifications leads, marking it read on the way when `markAsRead`
 * (opening it is reading it). Not found: an unknown id, another person's, or one gone.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await openNotification(kv, "u_1", "n-…", { markAsRead: true });
 * if (r.ok) console.log(r.href); // "/questions/q-…?answer=…#…"
 * ```
 */
export async function openNotification(
  kv: Deno.Kv,
  userId: string,
  id: string,
  opts: { markAsRead: boolean; now?: number },
): Promise<{ ok: true; href: string } | { ok: false; reason: "not_found" }> {
  if (!/^n-[0-9a-z]+$/.test(id) || !isLookupId(userId)) return { ok: false, reason: "not_found" };
  const n = notificationOf(id, (await kv.get(keys.notification(userId, id))).value);
  if (!n) return { ok: false, reason: "not_found" };
  if (opts.markAsRead) await markRead(kv, userId, [id], opts.now);
  return { ok: true, href: notificationHref(n) };
}

/**
 * Old notifications removed per commit by {@link trimNotifications} (each checked, with
 * the watermark and the ledger days they are filed under: at most 81 checks of KV's 100).
 */
const TRIM_BATCH = 40;

/**
 * Keep only `userId`'s newest {@link NOTIFICATIONS_KEPT} notifications (./stored.ts): the
 * older are deleted, each under a check of the version read, and of the "mark all read"
 * watermark the batch judged them by. The unread ones among them leave the unread count in
 * the same op (./unread.ts: the counter and the ledger day each is filed under, as far as
 * that day still holds them — one already taken off as expired is not taken twice).
 * Answers how many were removed.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const removed = await trimNotifications(kv, "u_1");
 * ```
 */
export async function trimNotifications(
  kv: Deno.Kv,
  userId: string,
  keep = NOTIFICATIONS_KEPT,
): Promise<number> {
  const markEntry = await kv.get<number>(markKey(userId));
  const mark = unreadMarkOf(markEntry);
  let removed = 0;
  let seen = 0;
  let batch: Deno.KvEntry<unknown>[] = [];
  const flush = async () => {
    const entries = batch;
    batch = [];
    // Unread ones by the ledger day they are filed under.
    const unread = new Map<number, number>();
    for (const e of entries) {
      const n = notificationOf(e.key[2] as string, e.value);
      if (!n || !isUnread(n, e.versionstamp, mark)) continue;
      const day = dueDayOf(n.createdAt);
      unread.set(day, (unread.get(day) ?? 0) + 1);
    }
    const days = [...unread.keys()];
    const filed = await getAll<Deno.KvU64>(
      kv,
      days.map((d) => keys.notificationUnreadDue(userId, d)),
    );
    const res = await commit(kv, (op) => {
      op.check(markEntry, ...filed);
      for (const e of entries) op.check(e).delete(e.key);
      let taken = 0;
      days.forEach((day, i) => {
        const take = Math.min(unread.get(day)!, Math.max(0, counterValue(filed[i].value)));
        if (take) takeUnreadInOp(op, userId, filed[i], take);
        taken += take;
      });
      if (days.length && !taken) touchUnreadInOp(op, userId);
    });
    if (res.ok) removed += entries.length;
  };
  for await (
    const e of kv.list({ prefix: keys.notificationsPrefix(userId) }, { reverse: true })
  ) {
    if (++seen <= keep) continue;
    batch.push(e);
    if (batch.length >= TRIM_BATCH) await flush();
  }
  if (batch.length) await flush();
  return removed;
}
