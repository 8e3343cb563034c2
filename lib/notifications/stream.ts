/**
 * The live unread count (`GET /api/notifications/stream`): an SSE stream per tab that
 * `kv.watch`es the user's unread counter, so a notification written by any instance shows
 * at once. At most {@link STREAMS_PER_USER} streams per user in one process: a new one
 * closes that user's oldest (a tab left open elsewhere reconnects by itself if still used).
 *
 * @module
 */
import { counterValue } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { type LiveStream, watchStream } from "../http/sse.ts";
import { nextLedgerDay, unreadCount } from "./unread.ts";

/** Open notification streams per user and process; the oldest is closed beyond it. */
export const STREAMS_PER_USER = 5;

const open = new Map<string, LiveStream[]>();

/** How many notification streams this process holds (for the benchmark). */
export function openNotificationStreams(): number {
  let n = 0;
  for (const list of open.values()) n += list.length;
  return n;
}

/**
 * The SSE body of a user's unread stream: `event: unread`, `data: {"unread": N}` at once
 * and on every change. A user's streams in this process follow one watch. `onClose` runs
 * once when the stream ends (its slot is given back there). The counter keeps counting
 * notifications that expired when a UTC day began until a read takes them off
 * (./unread.ts): while open, the stream takes them off itself at each day's start (on
 * the clock `now`), and the watch sends the count that is left.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const body = unreadStream(kv, "u_1", { onClose: () => {} });
 * ```
 */
export function unreadStream(
  kv: Deno.Kv,
  userId: string,
  options: { onClose?: () => void; now?: () => number } = {},
): ReadableStream<Uint8Array> {
  const now = options.now ?? Date.now;
  const list = open.get(userId) ?? [];
  open.set(userId, list);
  let closed = false;
  let dayStart: ReturnType<typeof setTimeout> | undefined;
  const atNextDay = () => {
    if (closed) return;
    const at = now();
    dayStart = setTimeout(() => {
      unreadCount(kv, userId, now()).catch(() => {}).finally(atNextDay);
    }, nextLedgerDay(at) - at);
    Deno.unrefTimer(dayStart);
  };
  const stream: LiveStream = watchStream(kv, {
    keys: [keys.notificationUnread(userId)],
    render: ([e]) => ["unread", { unread: Math.max(0, counterValue(e.value)) }],
    share: `unread:${userId}`,
    onClose: () => {
      closed = true;
      clearTimeout(dayStart);
      options.onClose?.();
      const cur = open.get(userId);
      if (!cur) return;
      const i = cur.indexOf(stream);
      if (i >= 0) cur.splice(i, 1);
      if (cur.length === 0) open.delete(userId);
    },
  });
  list.push(stream);
  while (list.length > STREAMS_PER_USER) list.shift()!.close();
  atNextDay();
  return stream.body;
}
