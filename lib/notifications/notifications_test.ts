import assert from "node:assert/strict";
import { acceptAnswer } from "../community/accept.ts";
import { addMessage } from "../community/messages/write.ts";
import type { Author } from "../community/questions/model.ts";
import { createQuestion } from "../community/questions/write.ts";
import { castVote } from "../community/votes.ts";
import { keys } from "../kv/keys.ts";
import {
  listNotifications,
  markRead,
  type NewNotification,
  NOTIFICATIONS_PAGE,
  notifyInOp,
  notifyUpvote,
  trimNotifications,
  unreadCount,
} from "./notifications.ts";
import { NOTIFICATIONS_KEPT } from "./stored.ts";

const DAY = 86_400_000;
/** A time after the notifications the tests write at 1 s, 2 s, … after the epoch. */
const LATER = 10_000;
const ada: Author = { id: "u-ada", name: "Ada", avatar: null };
const bob: Author = { id: "u-bob", name: "Bob", avatar: "https://example.com/bob.png" };
const cyd: Author = { id: "u-cyd", name: "Cyd", avatar: null };

/** A reply notification from `actorId` about message `messageId` (under answer msg-1). */
function reply(messageId: string, actorId = bob.id): NewNotification {
  return {
    type: "reply",
    actor: { id: actorId },
    questionId: "q-1",
    messageId,
    answerId: "msg-1",
  };
}

/** Commit one notification for `recipientId`; what `notifyInOp` returned. */
async function notify(kv: Deno.Kv, recipientId: string, n: NewNotification, now: number) {
  const op = kv.atomic();
  const rec = notifyInOp(op, recipientId, n, now);
  assert.ok((await op.commit()).ok);
  return rec;
}

async function stored(kv: Deno.Kv, userId: string) {
  return (await Array.fromAsync(kv.list({ prefix: keys.notificationsPrefix(userId) }))).length;
}

/** Every notification of a user, newest first, following the cursors. */
async function everyNotification(kv: Deno.Kv, userId: string, now: number) {
  const all = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<typeof listNotifications>> = await listNotifications(
      kv,
      userId,
      cursor,
      now,
    );
    all.push(...page.notifications);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}

Deno.test("notifyInOp(): writes the notification and +1 unread in the cause's op; nothing to the actor or to nobody", async () => {
  using kv = await Deno.openKv(":memory:");
  const rec = await notify(kv, ada.id, reply("msg-2"), 1_000);
  assert.ok(rec);
  assert.equal(rec.type, "reply");
  assert.equal(rec.count, 1);
  assert.equal(rec.read, false);
  // Stored as a reference: no copy of the title, the text or the actor's name.
  assert.deepEqual((await kv.get(keys.notification(ada.id, rec.id))).value, {
    t: "reply",
    q: "q-1",
    m: "msg-2",
    a: "msg-1",
    by: bob.id,
  });
  assert.equal(await unreadCount(kv, ada.id, LATER), 1);
  // The actor about their own action, and an empty recipient: nothing, not even in the op.
  const op = kv.atomic();
  assert.equal(notifyInOp(op, bob.id, reply("msg-3"), 2_000), null);
  assert.equal(notifyInOp(op, "", reply("msg-4"), 2_000), null);
  assert.ok((await op.commit()).ok);
  assert.equal(await stored(kv, bob.id), 0);
  assert.equal(await unreadCount(kv, bob.id, LATER), 0);
  // Nothing lands when the cause's op fails.
  const failing = kv.atomic().check({ key: ["never"], versionstamp: "00000000000000010000" });
  notifyInOp(failing, ada.id, reply("msg-5"), 3_000);
  assert.equal((await failing.commit()).ok, false);
  assert.equal(await stored(kv, ada.id), 1);
  assert.equal(await unreadCount(kv, ada.id, LATER), 1);
});

Deno.test("listNotifications(): newest first, 20 a page by cursor, each with its link, the unread count beside", async () => {
  using kv = await Deno.openKv(":memory:");
  // The posts they point at exist (a notification of a post that is gone shows as removed);
  // what a notification says is rendered from them.
  await kv.set(keys.question("q-1"), { id: "q-1", title: "Why KV?", author: cyd });
  const ids: string[] = [];
  for (let i = 0; i < 45; i++) {
    const content = `reply **${i}**`;
    await kv.set(keys.message(`msg-r${i}`), {
      id: `msg-r${i}`,
      questionId: "q-1",
      author: bob,
      content,
    });
    ids.push((await notify(kv, ada.id, reply(`msg-r${i}`), 1_000 + i))!.id);
  }
  const first = await listNotifications(kv, ada.id, null, LATER);
  assert.equal(first.notifications.length, NOTIFICATIONS_PAGE);
  assert.equal(first.unread, 45);
  assert.equal(first.notifications[0].excerpt, "reply 44", "the excerpt is plain text");
  assert.equal(first.notifications[0].title, "Why KV?");
  assert.deepEqual(first.notifications[0].actor, {
    id: bob.id,
    name: "Bob",
    avatarUrl: bob.avatar,
  });
  assert.equal(first.links[0], "/questions/q-1?answer=msg-1#msg-r44");
  assert.equal("answerId" in first.notifications[0], false, "served without its internal fields");
  const all = await everyNotification(kv, ada.id, LATER);
  assert.deepEqual(all.map((n) => n.id), [...ids].reverse());
  // An unknown cursor starts over.
  const over = await listNotifications(kv, ada.id, "not a cursor", LATER);
  assert.equal(over.notifications[0].id, ids[44]);
  assert.deepEqual((await listNotifications(kv, "u-nobody", null, LATER)).notifications, []);
});

Deno.test("markRead(): the named ones once each, or all (a watermark); later ones are unread again", async () => {
  using kv = await Deno.openKv(":memory:");
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    ids.push((await notify(kv, ada.id, reply(`msg-r${i}`), 1_000 + i))!.id);
  }
  assert.deepEqual(await markRead(kv, ada.id, [ids[0], ids[1]], LATER), { unread: 3 });
  // Again, repeated, unknown, malformed or someone else's: no change.
  assert.deepEqual(await markRead(kv, ada.id, [ids[1], ids[1], "n-unknown", "../x"], LATER), {
    unread: 3,
  });
  assert.deepEqual(await markRead(kv, bob.id, [ids[2]], LATER), { unread: 0 });
  assert.equal(await unreadCount(kv, ada.id, LATER), 3);
  const read = (await everyNotification(kv, ada.id, LATER)).filter((n) => n.read).map((n) => n.id);
  assert.deepEqual(read.sort(), [ids[0], ids[1]].sort());

  assert.deepEqual(await markRead(kv, ada.id, undefined, 2_000), { unread: 0 });
  assert.ok((await everyNotification(kv, ada.id, LATER)).every((n) => n.read));
  // Marking one that the watermark already covers does not go below zero.
  assert.deepEqual(await markRead(kv, ada.id, [ids[4]], LATER), { unread: 0 });
  const later = await notify(kv, ada.id, reply("msg-r9"), 3_000);
  assert.equal(await unreadCount(kv, ada.id, LATER), 1);
  const [newest] = (await listNotifications(kv, ada.id, null, LATER)).notifications;
  assert.deepEqual([newest.id, newest.read], [later!.id, false]);
});

Deno.test("notifyUpvote(): one entry per post per UTC day with a running count, unread again when it grows; never for one's own vote", async () => {
  using kv = await Deno.openKv(":memory:");
  const day = 20_000 * DAY;
  const upvote = (voterId: string, targetId: string, now: number, count?: number) =>
    notifyUpvote(kv, {
      recipientId: ada.id,
      voterId,
      targetType: "message",
      targetId,
      questionId: "q-1",
      answerId: targetId,
      count,
    }, now);
  await upvote(bob.id, "msg-1", day + 1_000);
  await upvote(cyd.id, "msg-1", day + 2_000);
  await upvote("u-dan", "msg-1", day + 3_000, 3); // a grouped call standing for three
  await upvote(ada.id, "msg-1", day + 4_000); // her own: nothing
  let all = await everyNotification(kv, ada.id, day + 2 * DAY);
  assert.equal(all.length, 1);
  assert.deepEqual([all[0].type, all[0].count, all[0].actor, all[0].read], [
    "upvotes",
    5,
    null,
    false,
  ]);
  assert.equal(await unreadCount(kv, ada.id, day + 2 * DAY), 1, "one entry, one unread");
  // Another post the same day has its own entry.
  await upvote(bob.id, "msg-9", day + 5_000);
  assert.equal((await everyNotification(kv, ada.id, day + 2 * DAY)).length, 2);
  assert.equal(await unreadCount(kv, ada.id, day + 2 * DAY), 2);
  // Read, then one more up-vote: the count grows and it is unread again (once).
  assert.deepEqual(await markRead(kv, ada.id, [all[0].id], day + 2 * DAY), { unread: 1 });
  await upvote("u-eve", "msg-1", day + 6_000);
  await upvote("u-fay", "msg-1", day + 7_000);
  all = await everyNotification(kv, ada.id, day + 2 * DAY);
  const msg1 = all.find((n) => n.messageId === "msg-1")!;
  assert.deepEqual([msg1.count, msg1.read], [7, false]);
  assert.equal(await unreadCount(kv, ada.id, day + 2 * DAY), 2);
  // The next UTC day starts a new entry.
  await upvote(bob.id, "msg-1", day + DAY + 1);
  all = await everyNotification(kv, ada.id, day + 2 * DAY);
  assert.deepEqual(
    all.filter((n) => n.messageId === "msg-1").map((n) => n.count),
    [1, 7],
    "newest first",
  );
  assert.equal(await unreadCount(kv, ada.id, day + 2 * DAY), 3);
});

Deno.test("castVote() likes: the post's author gets one upvotes entry counting every like of the day, the voters none", async () => {
  using kv = await Deno.openKv(":memory:");
  const now = 20_000 * DAY + 5_000;
  const q = await createQuestion(kv, { title: "Liked a lot", author: ada, createdBy: "user" });
  const voters = Array.from({ length: 25 }, (_, i) => `u-fan-${i}`);
  const results = await Promise.all(
    voters.map((userId) =>
      castVote(kv, { userId, targetType: "question", targetId: q.id, voteType: "up" }, now)
    ),
  );
  assert.ok(results.every((r) => r.ok));
  const all = await everyNotification(kv, ada.id, now);
  assert.equal(all.length, 1);
  assert.deepEqual([all[0].type, all[0].count, all[0].questionId], ["upvotes", 25, q.id]);
  assert.equal(await unreadCount(kv, ada.id, now), 1);
  for (const userId of voters.slice(0, 3)) assert.equal(await stored(kv, userId), 0);
  // A down-vote or a withdrawn like notifies nobody.
  await castVote(kv, {
    userId: "u-fan-0",
    targetType: "question",
    targetId: q.id,
    voteType: "down",
  }, now);
  assert.equal((await everyNotification(kv, ada.id, now))[0].count, 25);
});

Deno.test("answers, replies and accepts notify in their own op: the asker, the parent's author, the answer's author — never the actor", async () => {
  using kv = await Deno.openKv(":memory:");
  const q = await createQuestion(kv, {
    title: "Who hears of what?",
    author: ada,
    createdBy: "user",
  });
  // Ada answers her own question: nobody is told.
  const own = await addMessage(kv, {
    questionId: q.id,
    author: ada,
    content: "My own idea",
    createdBy: "user",
  });
  assert.ok(own.ok);
  assert.equal(await stored(kv, ada.id), 0);
  // Bob answers: Ada (the asker follows) hears of it, Bob does not.
  const answer = await addMessage(kv, {
    questionId: q.id,
    author: bob,
    content: "Use KV",
    createdBy: "user",
  });
  assert.ok(answer.ok);
  let adas = await everyNotification(kv, ada.id, Date.now());
  assert.deepEqual(adas.map((n) => [n.type, n.messageId, n.actor?.id]), [[
    "answer",
    answer.message.id,
    bob.id,
  ]]);
  assert.equal(adas[0].actor?.avatarUrl, bob.avatar);
  assert.equal(await stored(kv, bob.id), 0);
  // Ada replies to Bob's answer: Bob hears of the reply.
  const r = await addMessage(kv, {
    questionId: q.id,
    author: ada,
    content: "Why KV?",
    createdBy: "user",
    replyTo: answer.message.id,
  });
  assert.ok(r.ok);
  const bobs = await everyNotification(kv, bob.id, Date.now());
  assert.deepEqual(bobs.map((n) => [n.type, n.messageId]), [["reply", r.message.id]]);
  // Bob replies to his own answer: nobody is told.
  const self = await addMessage(kv, {
    questionId: q.id,
    author: bob,
    content: "Also this",
    createdBy: "user",
    replyTo: answer.message.id,
  });
  assert.ok(self.ok);
  assert.equal(await stored(kv, bob.id), 1);
  // Ada accepts Bob's answer: Bob is told; accepting her own answer tells nobody.
  assert.ok(
    (await acceptAnswer(kv, { questionId: q.id, userId: ada.id, messageId: answer.message.id })).ok,
  );
  assert.deepEqual((await everyNotification(kv, bob.id, Date.now())).map((n) => n.type), [
    "accepted",
    "reply",
  ]);
  assert.ok(
    (await acceptAnswer(kv, { questionId: q.id, userId: ada.id, messageId: own.message.id })).ok,
  );
  adas = await everyNotification(kv, ada.id, Date.now());
  assert.deepEqual(adas.map((n) => n.type), ["answer"]);
  assert.equal(await unreadCount(kv, ada.id, Date.now()), 1);
  assert.equal(await unreadCount(kv, bob.id, Date.now()), 2);
});

Deno.test("history is bounded: marking read (one or all) keeps the newest 200, and trimmed unread ones leave the unread counter", async () => {
  using kv = await Deno.openKv(":memory:");
  const ids: string[] = [];
  for (let i = 0; i < NOTIFICATIONS_KEPT + 5; i++) {
    ids.push((await notify(kv, ada.id, reply(`msg-r${i}`), 1_000 + i))!.id);
  }
  const history = () => Array.fromAsync(kv.list({ prefix: keys.notificationsPrefix(ada.id) }));
  // Marking one read trims: the oldest five go (the one just read among them), and the four
  // unread ones leave the counter with them.
  assert.deepEqual(await markRead(kv, ada.id, [ids[0]], LATER), { unread: NOTIFICATIONS_KEPT });
  let left = await history();
  assert.equal(left.length, NOTIFICATIONS_KEPT);
  assert.equal(left[0].key[2], ids[5], "the oldest five are gone");
  // Marking all read does too.
  for (let i = 0; i < 5; i++) await notify(kv, ada.id, reply(`msg-s${i}`), 3_000 + i);
  assert.equal((await history()).length, NOTIFICATIONS_KEPT + 5);
  assert.deepEqual(await markRead(kv, ada.id, undefined, 5_000), { unread: 0 });
  left = await history();
  assert.equal(left.length, NOTIFICATIONS_KEPT);
  assert.equal(left[0].key[2], ids[10], "the next five are gone");
  assert.equal(await trimNotifications(kv, ada.id, 3), NOTIFICATIONS_KEPT - 3);
  const later = await notify(kv, ada.id, reply("msg-r0"), 6_000);
  assert.ok(later);
  assert.equal(await unreadCount(kv, ada.id, LATER), 1);
  // Trimming unread ones takes them off the counter.
  assert.equal(await trimNotifications(kv, ada.id, 1), 3);
  assert.equal(await unreadCount(kv, ada.id, LATER), 1);
  assert.equal(await trimNotifications(kv, ada.id, 0), 1);
  assert.equal(await unreadCount(kv, ada.id, LATER), 0);
});
