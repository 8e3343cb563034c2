import assert from "node:assert/strict";
import { addToCounter, counterValue } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { backupStore } from "../ops/backup.ts";
import { compactStore, SHAPE_VERSION } from "../ops/compact.ts";
import { restoreStore } from "../ops/restore.ts";
import { runFsck } from "../ops/fsck/run.ts";
import { notificationsInvariant } from "../ops/fsck/notifications.ts";
import {
  markRead,
  type NewNotification,
  notifyInOp,
  notifyUpvote,
  trimNotifications,
} from "./notifications.ts";
import { dueDayOf, type LegacyNotification, notificationOf, refOf } from "./stored.ts";
import {
  isUnread,
  notificationsForBackup,
  recountUnread,
  unreadCount,
  unreadMarkKey,
  unreadMarkOf,
} from "./unread.ts";

const DAY = 86_400_000;

/** The two ways a store of older shapes is rewritten: the job's walk, and fsck's repair. */
const MIGRATIONS: [string, (kv: Deno.Kv, now: number) => Promise<void>][] = [
  ["the job's walk", async (kv, now) => {
    assert.ok((await compactStore(kv, { now: () => now })).doneAt !== undefined);
  }],
  ["fsck --repair", async (kv) => {
    const { clean } = await runFsck(kv, { repair: true, invariants: [notificationsInvariant] });
    assert.ok(clean);
  }],
];
/** Noon of a UTC day: what the tests write on. */
const D0 = 20_000 * DAY + DAY / 2;
const ADA = "u-ada";

function reply(messageId: string): NewNotification {
  return { type: "reply", actor: { id: "u-bob" }, questionId: "q-1", messageId, answerId: null };
}

async function notify(kv: Deno.Kv, at: number, messageId = "msg-1"): Promise<string> {
  const op = kv.atomic();
  const rec = notifyInOp(op, ADA, reply(messageId), at);
  assert.ok(rec && (await op.commit()).ok);
  return rec.id;
}

/** The ledger as `{dueDay: count}`. */
async function ledger(kv: Deno.Kv, userId = ADA): Promise<Record<number, number>> {
  const out: Record<number, number> = {};
  for await (const e of kv.list({ prefix: keys.notificationUnreadDuePrefix(userId) })) {
    out[e.key[2] as number] = counterValue(e.value);
  }
  return out;
}

async function counter(kv: Deno.Kv, userId = ADA): Promise<number> {
  return counterValue((await kv.get(keys.notificationUnread(userId))).value);
}

/** What the count must be: the unread notifications in the history not expired at `now`. */
async function truth(kv: Deno.Kv, now: number, userId = ADA): Promise<number> {
  const mark = unreadMarkOf(await kv.get<number>(unreadMarkKey(userId)));
  let n = 0;
  for await (const e of kv.list({ prefix: keys.notificationsPrefix(userId) })) {
    const rec = notificationOf(e.key[2] as string, e.value)!;
    if (isUnread(rec, e.versionstamp, mark) && Math.floor(now / DAY) < dueDayOf(rec.createdAt)) n++;
  }
  return n;
}

Deno.test("unreadCount(): a day's unread notifications leave the count when their day begins, also after KV removed them", async () => {
  using kv = await Deno.openKv(":memory:");
  const first = await notify(kv, D0);
  await notify(kv, D0 + 1);
  await notify(kv, D0 + DAY);
  assert.deepEqual(await ledger(kv), { [dueDayOf(D0)]: 2, [dueDayOf(D0) + 1]: 1 });
  const due = dueDayOf(D0) * DAY;
  assert.equal(await unreadCount(kv, ADA, due - 1), 3);
  // KV's expireIn removes one of them before anyone reads: nothing of it is left.
  await kv.delete(keys.notification(ADA, first));
  assert.equal(await unreadCount(kv, ADA, due), 1);
  // Taken off for good: the counter itself, and the begun day is gone from the ledger.
  assert.equal(await counter(kv), 1);
  assert.deepEqual(await ledger(kv), { [dueDayOf(D0) + 1]: 1 });
  assert.equal(await unreadCount(kv, ADA, due + DAY), 0);
  assert.deepEqual(await ledger(kv), {});
  assert.equal(await counter(kv), 0);
});

Deno.test("markRead(): one whose day another instance already took off is not taken twice", async () => {
  using kv = await Deno.openKv(":memory:");
  const id = await notify(kv, D0);
  const due = dueDayOf(D0) * DAY;
  // One instance's clock turned midnight: the day leaves the count.
  assert.equal(await unreadCount(kv, ADA, due), 0);
  // Another, a moment behind, marks it read: the count stays 0, not −1.
  assert.deepEqual(await markRead(kv, ADA, [id], due - 1), { unread: 0 });
  assert.equal(await counter(kv), 0);
  await notify(kv, due + 1);
  assert.equal(await unreadCount(kv, ADA, due + 2), 1, "a new one counts as one");
});

Deno.test("markRead(): one still unread leaves its day with the counter; marking all read empties the ledger", async () => {
  using kv = await Deno.openKv(":memory:");
  const ids = [await notify(kv, D0), await notify(kv, D0 + 1), await notify(kv, D0 + DAY)];
  assert.deepEqual(await markRead(kv, ADA, [ids[0]], D0 + DAY), { unread: 2 });
  assert.deepEqual(await ledger(kv), { [dueDayOf(D0)]: 1, [dueDayOf(D0) + 1]: 1 });
  assert.deepEqual(await markRead(kv, ADA, undefined, D0 + DAY + 1), { unread: 0 });
  assert.deepEqual(await ledger(kv), {});
  // Their days begin: nothing to take off, nothing below zero.
  assert.equal(await unreadCount(kv, ADA, (dueDayOf(D0) + 2) * DAY), 0);
  assert.equal(await counter(kv), 0);
});

Deno.test("notifyUpvote(): an entry made unread again is filed under its own creation day", async () => {
  using kv = await Deno.openKv(":memory:");
  const upvote = (voterId: string, at: number) =>
    notifyUpvote(kv, {
      recipientId: ADA,
      voterId,
      targetType: "message",
      targetId: "msg-1",
      questionId: "q-1",
      answerId: "msg-1",
    }, at);
  await upvote("u-bob", D0);
  await markRead(kv, ADA, undefined, D0 + 1);
  await upvote("u-cyd", D0 + 2);
  assert.deepEqual(await ledger(kv), { [dueDayOf(D0)]: 1 });
  assert.equal(await unreadCount(kv, ADA, D0 + 3), 1);
  assert.equal(await unreadCount(kv, ADA, dueDayOf(D0) * DAY), 0);
});

Deno.test("trimNotifications(): unread ones trimmed leave the counter and their day; a day already taken off is not taken twice", async () => {
  using kv = await Deno.openKv(":memory:");
  for (let i = 0; i < 3; i++) await notify(kv, D0 + i);
  for (let i = 0; i < 2; i++) await notify(kv, D0 + DAY + i);
  assert.equal(await trimNotifications(kv, ADA, 3), 2);
  assert.deepEqual(await ledger(kv), { [dueDayOf(D0)]: 1, [dueDayOf(D0) + 1]: 2 });
  assert.equal(await unreadCount(kv, ADA, D0 + DAY), 3);
  // The first day begins (taken off), then the rest is trimmed: only the second day leaves.
  assert.equal(await unreadCount(kv, ADA, dueDayOf(D0) * DAY), 2);
  assert.equal(await trimNotifications(kv, ADA, 0), 3);
  assert.equal(await counter(kv), 0);
  assert.deepEqual(await ledger(kv), {});
});

Deno.test("trimNotifications(): a batch judged by a watermark that moved meanwhile does not commit", async () => {
  using kv = await Deno.openKv(":memory:");
  for (let i = 0; i < 4; i++) await notify(kv, D0 + i);
  // "Mark all read" lands between the trim's read of the watermark and its commit: the
  // counter is 0 then, and the unread ones the trim counted must not be taken again.
  let once = false;
  const list = kv.list.bind(kv);
  kv.list = ((...args: Parameters<Deno.Kv["list"]>) => {
    if (!once && (args[0] as { prefix: Deno.KvKey }).prefix?.[0] === "notifications") {
      once = true;
      return (async function* () {
        await markRead(kv, ADA, undefined, D0 + 10);
        yield* list(...args);
      })() as unknown as Deno.KvListIterator<unknown>;
    }
    return list(...args);
  }) as Deno.Kv["list"];
  assert.equal(await trimNotifications(kv, ADA, 1), 0, "nothing removed by that batch");
  kv.list = list;
  assert.equal(await counter(kv), 0);
  assert.equal(await trimNotifications(kv, ADA, 1), 3);
  assert.equal(await counter(kv), 0);
});

Deno.test("counts stay exact with concurrent writes, reads and marks while a day ends", async () => {
  using kv = await Deno.openKv(":memory:");
  const old = await Promise.all(Array.from({ length: 30 }, (_, i) => notify(kv, D0 + i)));
  const later = dueDayOf(D0) * DAY;
  await Promise.all([
    ...Array.from({ length: 40 }, (_, i) => notify(kv, later + i, `msg-${i % 5}`)),
    ...Array.from({ length: 10 }, (_, i) => unreadCount(kv, ADA, later + i)),
    markRead(kv, ADA, old.slice(0, 10), later - 1),
  ]);
  const fresh = [];
  for await (const e of kv.list({ prefix: keys.notificationsPrefix(ADA) }, { reverse: true })) {
    fresh.push(e.key[2] as string);
  }
  await Promise.all([
    markRead(kv, ADA, fresh.slice(0, 15), later + 100),
    ...Array.from({ length: 10 }, (_, i) => notify(kv, later + 200 + i)),
    ...Array.from({ length: 5 }, () => unreadCount(kv, ADA, later + 300)),
  ]);
  const now = later + 400;
  assert.equal(await unreadCount(kv, ADA, now), await truth(kv, now));
  assert.equal(await truth(kv, now), 35);
  assert.equal(await counter(kv), 35);
});

Deno.test("recountUnread() and the migration: a store from before the ledger gets one, and then expiry works", async () => {
  using kv = await Deno.openKv(":memory:");
  // As the code before the ledger wrote them: the notification and +1 on the counter.
  const old = async (at: number, read = false) => {
    const id = `n-${at.toString(36).padStart(9, "0")}0000abc`;
    const n = notificationOf(id, { t: "reply", q: "q-1", m: "msg-1" })!;
    const op = kv.atomic().set(keys.notification(ADA, id), refOf({ ...n, read }));
    if (!read) addToCounter(op, keys.notificationUnread(ADA), 1);
    assert.ok((await op.commit()).ok);
  };
  await old(D0);
  await old(D0 + 1, true);
  await old(D0 + DAY);
  await old(D0 - 100 * DAY); // already expired (KV would have removed it by now)
  await kv.set(keys.storeShape(), SHAPE_VERSION - 1);
  assert.equal(await counter(kv), 3);
  const progress = await compactStore(kv, { now: () => D0 + DAY });
  assert.ok(progress.doneAt !== undefined);
  assert.equal((await kv.get(keys.storeShape())).value, SHAPE_VERSION);
  assert.equal(await counter(kv), 2);
  assert.deepEqual(await ledger(kv), { [dueDayOf(D0)]: 1, [dueDayOf(D0) + 1]: 1 });
  assert.equal(await unreadCount(kv, ADA, dueDayOf(D0) * DAY), 1);
  // Again: nothing changes.
  assert.equal(await recountUnread(kv, ADA, dueDayOf(D0) * DAY), 1);
  assert.deepEqual(await ledger(kv), { [dueDayOf(D0) + 1]: 1 });
});

for (const [how, migrate] of MIGRATIONS) {
  Deno.test(`the migration (${how}) keeps what mark all read covered: a legacy notification from the minute before the mark stays read`, async () => {
    using kv = await Deno.openKv(":memory:");
    // Yesterday's noon by the real clock: fsck judges expiry by it.
    const NOON = Math.floor(Date.now() / DAY) * DAY - DAY / 2;
    // What the notifications point to (fsck removes those of a missing post).
    await kv.set(keys.question("q-1"), { id: "q-1" });
    await kv.set(keys.message("msg-1"), { id: "msg-1", questionId: "q-1" });
    // As stores before compact storage hold them: copies, with the counter beside them.
    const legacy = async (at: number) => {
      const id = `n-${at.toString(36).padStart(9, "0")}0000abc`;
      const n: LegacyNotification = {
        id,
        type: "reply",
        actor: { id: "u-bob", name: "Bob", avatarUrl: null },
        questionId: "q-1",
        messageId: "msg-1",
        answerId: null,
        title: "A question",
        excerpt: "A reply",
        count: 1,
        createdAt: at,
        updatedAt: at,
        read: false,
      };
      const op = kv.atomic().set(keys.notification(ADA, id), n);
      assert.ok((await addToCounter(op, keys.notificationUnread(ADA), 1).commit()).ok);
      return id;
    };
    const seen = await legacy(NOON - 10_000); // 10 s before the mark
    const long = await legacy(NOON - 600_000); // 10 min before it
    await markRead(kv, ADA, undefined, NOON);
    const later = await legacy(NOON + 5_000);
    const unreadIds = async () => {
      const mark = unreadMarkOf(await kv.get(unreadMarkKey(ADA)));
      const ids: string[] = [];
      for await (const e of kv.list({ prefix: keys.notificationsPrefix(ADA) })) {
        if (isUnread(notificationOf(e.key[2] as string, e.value)!, e.versionstamp, mark)) {
          ids.push(e.key[2] as string);
        }
      }
      return ids;
    };
    assert.deepEqual(await unreadIds(), [later]);
    assert.ok(seen && long);
    await kv.set(keys.storeShape(), 1);
    await migrate(kv, NOON + 10_000);
    // Every row was written again after the watermark; what it had read stays read.
    assert.deepEqual(await unreadIds(), [later]);
    assert.equal(await unreadCount(kv, ADA, NOON + 10_000), 1);
    assert.equal(await truth(kv, NOON + 10_000), 1);
  });
}

Deno.test("a backup keeps what mark all read covered: after a restore read ones stay read, unread ones unread", async () => {
  const dir = await Deno.makeTempDir({ prefix: "unread-backup-" });
  try {
    using kv = await Deno.openKv(":memory:");
    const before = await notify(kv, D0, "msg-1");
    await markRead(kv, ADA, undefined, D0 + 1_000);
    // After the mark, on a clock 5 s behind the one that marked: unread all the same.
    const behind = await notify(kv, D0 - 4_000, "msg-2");
    const after = await notify(kv, D0 + 2_000, "msg-3");
    const unreadIds = async (store: Deno.Kv) => {
      const mark = unreadMarkOf(await store.get(unreadMarkKey(ADA)));
      const ids: string[] = [];
      for await (const e of store.list({ prefix: keys.notificationsPrefix(ADA) })) {
        if (isUnread(notificationOf(e.key[2] as string, e.value)!, e.versionstamp, mark)) {
          ids.push(e.key[2] as string);
        }
      }
      return ids.sort();
    };
    assert.deepEqual(await unreadIds(kv), [behind, after].sort());
    assert.ok(before);
    const file = `${dir}/store.backup.gz`;
    await backupStore(kv, file, { now: () => D0 + 3_000 });
    using restored = await Deno.openKv(":memory:");
    const outcome = await restoreStore(restored, file, { now: () => D0 + 3_000 });
    assert.ok(outcome.ok);
    // The restore wrote every notification after the watermark: the rows say it now.
    assert.deepEqual(await unreadIds(restored), [behind, after].sort());
    assert.equal(await unreadCount(restored, ADA, D0 + 3_000), 2);
    assert.equal(await truth(restored, D0 + 3_000), 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("notificationsForBackup(): each person's rows are judged by their own watermark, found in one walk beside them", async () => {
  using kv = await Deno.openKv(":memory:");
  const people = ["u-a", "u-b", "u-c", "u-d", "u-e"];
  // u-b and u-d never marked all read; the others did, between two notifications each.
  const marked = new Set(["u-a", "u-c", "u-e"]);
  const read = new Set<string>();
  for (const [i, userId] of people.entries()) {
    const op = kv.atomic();
    const first = notifyInOp(op, userId, reply(`msg-${i}`), D0 + i)!;
    assert.ok((await op.commit()).ok);
    if (marked.has(userId)) {
      await markRead(kv, userId, undefined, D0 + 100);
      read.add(first.id);
    }
    const later = kv.atomic();
    notifyInOp(later, userId, reply(`msg-${i}-later`), D0 + 200 + i);
    assert.ok((await later.commit()).ok);
  }
  const valueOf = notificationsForBackup(kv);
  const flagged: string[] = [];
  for await (const e of kv.list({ prefix: ["notifications"] })) {
    const v = await valueOf(e) as { r?: boolean };
    if (v.r) flagged.push(e.key[2] as string);
  }
  assert.deepEqual(flagged.sort(), [...read].sort());
});
