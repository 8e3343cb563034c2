/**
 * Notifications (lib/notifications/notifications.ts): each member's unread counter equals
 * their unread notifications that still exist (not read, written after the "mark all read"
 * watermark, not expired) plus what the expiry ledger still files under days that have
 * begun (taken off at the next read: lib/notifications/unread.ts); each ledger day not yet
 * begun equals the unread notifications that expire on it; and every notification names
 * a question, and a message of that question, that exist. A repair writes the recounts
 * (a store written before the ledger existed gets its ledger this way too).
 *
 * A notification whose question or message was deleted or hidden is not a problem: it is
 * kept and served as "[removed]" (docs/interface.md#notifications). One whose post does
 * not exist at all (records are never removed, so it was lost, or a backup caught the
 * notification but not the post written in the same op) leads nowhere: the repair
 * removes it, and the unread counter is recounted without it.
 *
 * A notification in the shape of stores before compact storage (a copy of its title,
 * excerpt and actor; lib/notifications/stored.ts) is reported; the repair rewrites it as a
 * reference and then runs the compaction migration to its end (lib/ops/compact.ts), which
 * records the store's shape version.
 *
 * @module
 */
import { keys } from "../../kv/keys.ts";
import { dueDayOf, isExpired, notificationOf } from "../../notifications/stored.ts";
import { isUnread, unreadMarkKey, unreadMarkOf } from "../../notifications/unread.ts";
import { counterValue } from "../../kv/atomic.ts";
import { compactStore, notificationRewrite } from "../compact.ts";
import { defineInvariant } from "./invariant.ts";
import { runPass } from "./pass.ts";
import { withTally } from "./tally.ts";

const NAME = "notifications";

/** The problems this invariant reports. */
export const NOTIFICATION_PROBLEMS = {
  counter: "unread counter differs from the unread notifications",
  ledger: "unread count expiring on a day differs from the unread notifications expiring then",
  orphan: "notification of a question or message that does not exist",
  malformed: "malformed notification",
  legacy: "notification in the old shape (a copy of what it points to)",
} as const;

/** The notification at `e` in either stored shape (lib/notifications/stored.ts), or null. */
function notificationAt(e: Deno.KvEntry<unknown>) {
  return typeof e.key[2] === "string" ? notificationOf(e.key[2], e.value) : null;
}

/**
 * Unread counters and what notifications lead to (see the module doc).
 *
 * @example
 * ```ts
 * import { FsckReport } from "./report.ts";
 * declare const kv: Deno.Kv;
 * const report = new FsckReport();
 * await notificationsInvariant.check(kv, report); // or .repair(kv, report)
 * report.clean;
 * ```
 */
export const notificationsInvariant = defineInvariant(
  NAME,
  "unread counters equal unread notifications; every notification names a post that exists",
  (kv, report, repair) =>
    withTally({}, async (tally) => {
      const now = Date.now();
      const today = Math.floor(now / 86_400_000);
      // The watermarks live under the counters' prefix, one part longer.
      await tally.snapshot(kv, ["notification_unread"], (key) => key.length === 2);
      // Ledger days not begun are recounted; begun ones are part of their counter's recount
      // (what the next read takes off it).
      await tally.snapshot(kv, ["notification_unread_due"], (key) => Number(key[2]) > today);
      for await (const e of kv.list({ prefix: ["notification_unread_due"] })) {
        const [, userId, day] = e.key;
        if (typeof userId !== "string" || Number(day) > today) continue;
        await tally.add(keys.notificationUnread(userId), counterValue(e.value));
      }
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "notifications",
        prefix: ["notifications"],
        reads: (e) => {
          const n = notificationAt(e);
          const userId = e.key[1];
          if (!n || typeof userId !== "string") return [];
          const reads = [unreadMarkKey(userId), keys.question(n.questionId)];
          return n.messageId ? [...reads, keys.message(n.messageId)] : reads;
        },
        judge: (e, got) => {
          if (got.length === 0) return [{ kind: NOTIFICATION_PROBLEMS.malformed }];
          const n = notificationAt(e)!;
          const [, question, message] = got;
          const messageOk = !message ||
            (message.value as { questionId?: unknown } | null)?.questionId === n.questionId;
          if (question.versionstamp === null || !messageOk) {
            return [{
              kind: NOTIFICATION_PROBLEMS.orphan,
              removes: true,
              fix: (op) => op.delete(e.key),
            }];
          }
          const rewrite = notificationRewrite(e, Date.now(), unreadMarkOf(got[0]));
          return rewrite
            ? [{
              kind: NOTIFICATION_PROBLEMS.legacy,
              fix: (op) => op.set(e.key, rewrite.value, { expireIn: rewrite.expireIn }),
            }]
            : [];
        },
        counted: async (e, got, standing) => {
          if (!standing || got.length === 0) return;
          const n = notificationAt(e)!;
          const userId = e.key[1] as string;
          if (isUnread(n, e.versionstamp, unreadMarkOf(got[0])) && !isExpired(n.createdAt, now)) {
            await tally.add(keys.notificationUnread(userId));
            await tally.add(keys.notificationUnreadDue(userId, dueDayOf(n.createdAt)));
          }
        },
      });
      await tally.settle(kv, report, {
        invariant: NAME,
        kind: (key) =>
          key[0] === "notification_unread_due"
            ? NOTIFICATION_PROBLEMS.ledger
            : NOTIFICATION_PROBLEMS.counter,
        repair,
      });
      // What the compaction job would still do (nothing, after the fixes above), and the
      // store's shape version recorded.
      if (repair) await compactStore(kv);
    }),
);
