/**
 * How a notification is stored: a reference to what happened, never a copy of it. The
 * value of `["notifications", userId, id]` is a {@link NotificationRef} — the kind, the
 * question, the message and its top-level answer, who did it, how many (grouped
 * up-votes), when it last changed and whether it was read. The title, excerpt and the
 * actor's name and picture are rendered from the question and message records when the
 * page is read (./notifications.ts), which reads those records anyway to know whether the
 * recipient may still see them. The creation time is the id's (ids sort by time).
 *
 * Stores written before this shape hold {@link LegacyNotification}s (with copies of the
 * title, excerpt and actor); {@link notificationOf} reads both, and the compaction
 * migration (lib/ops/compact/) rewrites them.
 *
 * History is bounded: every notification expires {@link NOTIFICATION_TTL_MS} after it was
 * created (KV's `expireIn`), and a person's history is trimmed to the newest
 * {@link NOTIFICATIONS_KEPT} when they mark some or all read, by the migration, and by a
 * follower fan-out that finds more than that unread (checking about one notification in
 * 50: ./fanout.ts). Between trims a history can reach about twice that.
 * Readers go by a whole-day expiry ({@link isExpired}): a notification is gone when the UTC
 * day {@link NOTIFICATION_DAYS} days after the one it was created on begins — never later
 * than KV's own removal, which may lag — so the list and the unread count
 * (./unread.ts) agree on what still exists whenever KV gets round to removing it.
 *
 * @module
 */

/** The kinds of notification. */
export type NotificationType = "answer" | "reply" | "accepted" | "upvotes";

/** The stored value of a notification (short field names: there are many of them). */
export interface NotificationRef {
  /** The kind. */
  t: NotificationType;
  /** The question. */
  q: string;
  /** The message, when it is about one. */
  m?: string;
  /** The top-level answer the message sits under, when it is not the message itself. */
  a?: string;
  /** Who did it (absent for grouped up-votes). */
  by?: string;
  /** How many events it stands for, when more than 1. */
  n?: number;
  /** Last change, when later than the creation (an `upvotes` entry's count moves it). */
  u?: number;
  /** Read. */
  r?: true;
}

/** A notification as stores before compact storage hold it (copies of what it points to). */
export interface LegacyNotification {
  id: string;
  type: NotificationType;
  actor: { id: string; name: string; avatarUrl: string | null } | null;
  questionId: string;
  messageId: string | null;
  answerId: string | null;
  title: string;
  excerpt: string;
  count: number;
  createdAt: number;
  updatedAt: number;
  read: boolean;
}

/** A stored notification, either shape, read into one form. */
export interface Notification {
  id: string;
  type: NotificationType;
  questionId: string;
  messageId: string | null;
  /** The top-level answer the message sits under (the thread page to open), if any. */
  answerId: string | null;
  actorId: string | null;
  count: number;
  createdAt: number;
  /** Last change (an `upvotes` entry's count moves it). */
  updatedAt: number;
  read: boolean;
}

/** How long a notification is kept (KV's `expireIn` from its creation). */
export const NOTIFICATION_TTL_MS = 90 * 86_400_000;
/** The most notifications kept per person (the newest). */
export const NOTIFICATIONS_KEPT = 200;

/** Whole UTC days a notification is kept (readers' expiry: {@link isExpired}). */
export const NOTIFICATION_DAYS = 90;

/**
 * The UTC day (days since the epoch) at whose start a notification created at `createdAt`
 * is gone: {@link NOTIFICATION_DAYS} days after the day it was created on. Its unread
 * count is filed under this day (./unread.ts), so a whole day's expired notifications
 * leave the count together.
 *
 * @example
 * ```ts
 * dueDayOf(0); // 90
 * ```
 */
export function dueDayOf(createdAt: number): number {
  return Math.floor(createdAt / DAY) + NOTIFICATION_DAYS;
}

/**
 * True when a notification created at `createdAt` no longer exists at `now`: its
 * {@link dueDayOf} has begun. That is at most {@link NOTIFICATION_TTL_MS} after its
 * creation, never after KV removes it (`expireIn` counts from the creation, or later).
 *
 * @example
 * ```ts
 * isExpired(0, 90 * 86_400_000 - 1); // false
 * isExpired(0, 90 * 86_400_000); // true
 * ```
 */
export function isExpired(createdAt: number, now: number): boolean {
  return Math.floor(now / DAY) >= dueDayOf(createdAt);
}

const TYPES = new Set<string>(["answer", "reply", "accepted", "upvotes"]);

/**
 * The creation time in a notification id (`n-`, 9 base-36 digits of the ms time, …); NaN
 * for a malformed id.
 *
 * @example
 * ```ts
 * createdAtOf("n-00mhq3xk40000abc"); // ms since the epoch
 * ```
 */
export function createdAtOf(id: string): number {
  return /^n-[0-9a-z]{9}/.test(id) ? parseInt(id.slice(2, 11), 36) : NaN;
}

/**
 * True when `v` is the compact stored shape.
 *
 * @example
 * ```ts
 * isNotificationRef({ t: "reply", q: "q-1", m: "msg-2" }); // true
 * ```
 */
export function isNotificationRef(v: unknown): v is NotificationRef {
  const r = v as NotificationRef | null;
  return !!r && typeof r === "object" && TYPES.has(r.t) && typeof r.q === "string" &&
    (r.m === undefined || typeof r.m === "string");
}

function isLegacy(v: unknown): v is LegacyNotification {
  const n = v as LegacyNotification | null;
  return !!n && typeof n === "object" && TYPES.has(n.type) && typeof n.questionId === "string" &&
    Number.isFinite(n.updatedAt) && (n.messageId === null || typeof n.messageId === "string");
}

/**
 * The stored value at `["notifications", userId, id]` (either shape) read into one form;
 * null when it is neither.
 *
 * @example
 * ```ts
 * const n = notificationOf("n-00mhq3xk40000abc", { t: "reply", q: "q-1", m: "msg-2" });
 * n?.answerId; // "msg-2"
 * ```
 */
export function notificationOf(id: string, v: unknown): Notification | null {
  if (isNotificationRef(v)) {
    const createdAt = createdAtOf(id);
    if (!Number.isFinite(createdAt)) return null;
    return {
      id,
      type: v.t,
      questionId: v.q,
      messageId: v.m ?? null,
      answerId: v.a ?? v.m ?? null,
      actorId: v.by ?? null,
      count: v.n ?? 1,
      createdAt,
      updatedAt: v.u ?? createdAt,
      read: v.r === true,
    };
  }
  if (isLegacy(v)) {
    return {
      id,
      type: v.type,
      questionId: v.questionId,
      messageId: v.messageId,
      answerId: v.answerId ?? v.messageId,
      actorId: v.actor?.id ?? null,
      count: v.count,
      createdAt: v.createdAt,
      updatedAt: v.updatedAt,
      read: v.read,
    };
  }
  return null;
}

/**
 * The compact stored value of `n` (fields equal to their defaults left out).
 *
 * @example
 * ```ts
 * const ref = refOf({
 *   id: "n-00mhq3xk40000abc", type: "reply", questionId: "q-1", messageId: "msg-2",
 *   answerId: "msg-1", actorId: "u_1", count: 1, createdAt: 1, updatedAt: 1, read: false,
 * }); // { t: "reply", q: "q-1", m: "msg-2", a: "msg-1", by: "u_1" }
 * ```
 */
export function refOf(n: Notification): NotificationRef {
  const ref: NotificationRef = { t: n.type, q: n.questionId };
  if (n.messageId) ref.m = n.messageId;
  if (n.answerId && n.answerId !== n.messageId) ref.a = n.answerId;
  if (n.actorId) ref.by = n.actorId;
  if (n.count !== 1) ref.n = n.count;
  if (n.updatedAt !== n.createdAt) ref.u = n.updatedAt;
  if (n.read) ref.r = true;
  return ref;
}

/**
 * The `expireIn` a (re)write of notification `n` at `now` carries: what is left of its
 * {@link NOTIFICATION_TTL_MS}, but at least a day (a rewrite — read, a new up-vote, the
 * migration — never removes it at once, and lets it live at most a day longer).
 *
 * @example
 * ```ts
 * expireInOf({ createdAt: 0 }, 1_000); // NOTIFICATION_TTL_MS − 1000
 * ```
 */
export function expireInOf(n: Pick<Notification, "createdAt">, now: number): number {
  return Math.min(NOTIFICATION_TTL_MS, Math.max(DAY, n.createdAt + NOTIFICATION_TTL_MS - now));
}

const DAY = 86_400_000;
