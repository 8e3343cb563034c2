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

/** A user's open streams in this process, and the one timer they share for day starts. */
interface UserStreams {
  streams: LiveStream[];
  dayStart?: ReturnType<typeof setTimeout>;
}

const open = new Map<string, UserStreams>();

/** How many notification streams this process holds (for the benchmark). */
export function openNotificationStreams(): number {
  let n = 0;
  for (const user of open.values()) n += user.streams.length;
  return n;
}

/**
 * Until `user`'s streams are all closed: at each UTC day's start (on the clock `now`), take
 * the notifications that expired then off the counter, so the watch sends the count left.
 * One timer per user, whatever the number of their streams.
 */
function settleEachDay(kv: Deno.Kv, userId: string, user: UserStreams, now: () => number) {
  const at = now();
  user.dayStart = setTimeout(() => {
    unreadCount(kv, userId, now()).catch(() => {}).finally(() => {
      if (open.get(userId) === user) settleEachDay(kv, userId, user, now);
    });
  }, nextLedgerDay(at) - at);
  Deno.unrefTimer(user.dayStart);
}

/**
 * The SSE body of a user's unread stream: `event: unread`, `data: {"unread": N}` at once
 * and on every change. A user's streams in this process follow one watch. `onClose` runs
 * once when the stream ends (its slot is given back there). The counter keeps counting
 * notifications that expired when a UTC day began until a read takes them off
 * (./unread.ts): while any is open, a user's streams take them off at each day's start
 * (on the clock `now`; one timer per user), and the watch sends the count that is left.
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
  const user = open.get(userId) ?? { streams: [] };
  open.set(userId, user);
  const stream: LiveStream = watchStream(kv, {
    keys: [keys.notificationUnread(userId)],
    render: ([e]) => ["unread", { unread: Math.max(0, counterValue(e.value)) }],
    share: `unread:${userId}`,
    onClose: () => {
      options.onClose?.();
      const cur = open.get(userId);
      if (!cur) return;
      const i = cur.streams.indexOf(stream);
      if (i >= 0) cur.streams.splice(i, 1);
      if (cur.streams.length > 0) return;
      clearTimeout(cur.dayStart);
      open.delete(userId);
    },
  });
  user.streams.push(stream);
  while (user.streams.length > STREAMS_PER_USER) user.streams.shift()!.close();
  if (open.get(userId) === user && user.dayStart === undefined) {
    settleEachDay(kv, userId, user, options.now ?? Date.now);
  }
  return stream.body;
}
