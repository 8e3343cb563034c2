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
 *   watermark), never a scan. The live stream watches that key.
 *
 * @module
 */
import { addToCounter, counterValue, getAll, updateAtomically } from "../kv/atomic.ts";
import { maySee, type PostMarks } from "../community/visibility.ts";
import { isLookupId, keys } from "../kv/keys.ts";
import { excerpt } from "../text/excerpt.ts";
import type { Author } from "../community/questions/model.ts";
import { DELETED_USER } from "../account/deleted_user.ts";

/** The kinds of notification. */
export type NotificationType = "answer" | "reply" | "accepted" | "upvotes";

/** A notification as stored. */
export interface NotificationRecord {
  id: string;
  type: NotificationType;
  actor: { id: string; name: string; avatarUrl: string | null } | null;
  questionId: string;
  messageId: string | null;
  /** The top-level answer the message sits under (the thread page to open), if any. */
  answerId: string | null;
  title: string;
  excerpt: string;
  count: number;
  createdAt: number;
  /** Last change (an `upvotes` entry's count moves it). */
  updatedAt: number;
  read: boolean;
}

/**
 * A notification as the API serves it. `removed: true` when its question or message was
 * deleted or hidden since and the recipient may no longer see it: title `"[removed]"`, no
 * excerpt, no actor (docs/interface.md#notifications).
 */
export type NotificationView = Omit<NotificationRecord, "answerId" | "updatedAt"> & {
  removed?: true;
};

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
export function actorOf(author: Author): NotificationRecord["actor"] {
  return { id: author.id, name: author.name, avatarUrl: author.avatar ?? null };
}

/** What a new notification says. */
export interface NewNotification {
  type: NotificationType;
  actor: NotificationRecord["actor"];
  questionId: string;
  messageId: string | null;
  answerId: string | null;
  title: string;
  text: string;
  /** How many events it stands for (grouped upvotes); 1 when absent. */
  count?: number;
}

/**
 * Add a notification for `recipientId` to `op` (and +1 unread), unless the recipient is
 * the actor.
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
 *   title: "Why KV?",
 *   text: "Because.",
 * }, Date.now());
 * ```
 */
export function notifyInOp(
  op: Deno.AtomicOperation,
  recipientId: string,
  n: NewNotification,
  now: number,
): NotificationRecord | null {
  if (!recipientId || n.actor?.id === recipientId) return null;
  const record: NotificationRecord = {
    id: notificationId(now),
    type: n.type,
    actor: n.actor,
    questionId: n.questionId,
    messageId: n.messageId,
    answerId: n.answerId,
    title: n.title,
    excerpt: excerpt(n.text, 140),
    count: n.count ?? 1,
    createdAt: now,
    updatedAt: now,
    read: false,
  };
  op.set(keys.notification(recipientId, record.id), record);
  addToCounter(op, keys.notificationUnread(recipientId), 1);
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
 *   title: "Why KV?",
 *   text: "Because.",
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
    title: string;
    text: string;
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
      keys.notificationUnread(input.recipientId).concat("mark"),
    ]);
    const existing = daily.value
      ? await kv.get<NotificationRecord>(keys.notification(input.recipientId, daily.value))
      : null;
    const op = kv.atomic().check(daily);
    if (existing?.value) {
      const cur = existing.value;
      op.check(existing, mark);
      const wasUnread = isUnread(cur, mark.value);
      op.set(
        keys.notification(input.recipientId, cur.id),
        {
          ...cur,
          count: cur.count + (input.count ?? 1),
          updatedAt: now,
          read: false,
        } satisfies NotificationRecord,
      );
      if (!wasUnread) addToCounter(op, keys.notificationUnread(input.recipientId), 1);
      return { op, result: null };
    }
    const rec = notifyInOp(op, input.recipientId, {
      type: "upvotes",
      actor: null,
      questionId: input.questionId,
      messageId: input.targetType === "message" ? input.targetId : null,
      answerId: input.answerId,
      title: input.title,
      text: input.text,
      count: input.count,
    }, now);
    if (rec) op.set(dailyKey, rec.id, { expireIn: 2 * DAY });
    return { op, result: null };
  });
}

function isUnread(n: NotificationRecord, mark: number | null): boolean {
  return !n.read && n.updatedAt > (mark ?? 0);
}

function viewOf(n: NotificationRecord, mark: number | null): NotificationView {
  const { answerId: _a, updatedAt: _u, ...rest } = n;
  return { ...rest, read: !isUnread(n, mark) };
}

function removedViewOf(n: NotificationRecord, mark: number | null): NotificationView {
  return { ...viewOf(n, mark), actor: null, title: REMOVED_TITLE, excerpt: "", removed: true };
}

/**
 * Whether each notification's question and message may still be seen by its recipient
 * (lib/community/visibility.ts): one `getAll` of the distinct records of the page.
 */
async function stillVisible(
  kv: Deno.Kv,
  userId: string,
  list: NotificationRecord[],
): Promise<boolean[]> {
  const questionIds = [...new Set(list.map((n) => n.questionId))].filter(isLookupId);
  const messageIds = [...new Set(list.flatMap((n) => n.messageId ? [n.messageId] : []))]
    .filter(isLookupId);
  const records = await getAll<PostMarks>(kv, [
    ...questionIds.map(keys.question),
    ...messageIds.map(keys.message),
  ]);
  const questions = new Map(questionIds.map((id, i) => [id, records[i].value]));
  const messages = new Map(messageIds.map((id, i) => [id, records[questionIds.length + i].value]));
  const viewer = { userId };
  const ok = (r: PostMarks | null | undefined) => !!r && maySee(r, viewer);
  return list.map((n) =>
    ok(questions.get(n.questionId)) && (!n.messageId || ok(messages.get(n.messageId)))
  );
}

/** The actor shown for someone who deleted their account. */
const DELETED_ACTOR: NotificationRecord["actor"] = {
  id: DELETED_USER.id,
  name: DELETED_USER.name,
  avatarUrl: null,
};

/** Which actors of `list` deleted their account since (their tombstone exists). */
async function deletedActors(kv: Deno.Kv, list: NotificationRecord[]): Promise<Set<string>> {
  const ids = [...new Set(list.flatMap((n) => n.actor?.id ? [n.actor.id] : []))]
    .filter(isLookupId);
  const tombs = await getAll(kv, ids.map(keys.deletedUser));
  return new Set(ids.filter((_, i) => tombs[i].value !== null));
}

/** The "mark all read" watermark: notifications last changed at or before it are read. */
function markKey(userId: string): Deno.KvKey {
  return keys.notificationUnread(userId).concat("mark");
}

/**
 * The user's unread count (the counter; never a scan).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const n = await unreadCount(kv, "u_1");
 * ```
 */
export async function unreadCount(kv: Deno.Kv, userId: string): Promise<number> {
  return Math.max(0, counterValue((await kv.get(keys.notificationUnread(userId))).value));
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
  n: Pick<NotificationRecord, "questionId" | "messageId" | "answerId">,
): string {
  const q = `/questions/${encodeURIComponent(n.questionId)}`;
  if (!n.messageId) return q;
  const answer = n.answerId ?? n.messageId;
  return `${q}?answer=${encodeURIComponent(answer)}#${encodeURIComponent(n.messageId)}`;
}

/**
 * A page of the user's notifications, newest first ({@link NOTIFICATIONS_PAGE} a page);
 * `cursor` is the previous page's `nextCursor` (an unknown one starts over).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const page = await listNotifications(kv, "u_1", null);
 * ```
 */
export async function listNotifications(
  kv: Deno.Kv,
  userId: string,
  cursor: string | null,
): Promise<NotificationsPage> {
  const [unread, mark] = await Promise.all([
    unreadCount(kv, userId),
    kv.get<number>(markKey(userId)),
  ]);
  const records: NotificationRecord[] = [];
  const start = cursor && /^n-[0-9a-z]+$/.test(cursor) ? cursor : null;
  const selector: Deno.KvListSelector = start
    ? { prefix: keys.notificationsPrefix(userId), end: keys.notification(userId, start) }
    : { prefix: keys.notificationsPrefix(userId) };
  for await (
    const e of kv.list<NotificationRecord>(selector, {
      reverse: true,
      limit: NOTIFICATIONS_PAGE + 1,
    })
  ) records.push(e.value);
  const more = records.length > NOTIFICATIONS_PAGE;
  const shown = records.slice(0, NOTIFICATIONS_PAGE);
  const [visible, gone] = await Promise.all([
    stillVisible(kv, userId, shown),
    deletedActors(kv, shown),
  ]);
  return {
    notifications: shown.map((n, i) => {
      if (!visible[i]) return removedViewOf(n, mark.value);
      const view = viewOf(n, mark.value);
      // An actor who deleted their account is "deleted user" here too.
      return n.actor && gone.has(n.actor.id) ? { ...view, actor: DELETED_ACTOR } : view;
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
    await updateAtomically(async () => {
      const counter = await kv.get(keys.notificationUnread(userId));
      const op = kv.atomic().check(counter)
        .set(keys.notificationUnread(userId), new Deno.KvU64(0n))
        .set(markKey(userId), now);
      return { op, result: null };
    });
    return { unread: 0 };
  }
  for (const id of new Set(ids)) {
    if (!/^n-[0-9a-z]+$/.test(id)) continue;
    await updateAtomically(async () => {
      const [cur, mark] = await kv.getMany<[NotificationRecord, number]>([
        keys.notification(userId, id),
        markKey(userId),
      ]);
      if (!cur.value || !isUnread(cur.value, mark.value)) return { op: null, result: null };
      const op = kv.atomic().check(cur, mark)
        .set(keys.notification(userId, id), { ...cur.value, read: true });
      addToCounter(op, keys.notificationUnread(userId), -1);
      return { op, result: null };
    });
  }
  return { unread: await unreadCount(kv, userId) };
}
