/**
 * An answer notifies every follower of its question, however many: the fan-out is a job
 * of the runner created in the answer's op (lib/notifications/fanout.ts), run in batches
 * outside the request, resumable without sending anyone a second notification.
 */
import assert from "node:assert/strict";
import { keys } from "@/lib/kv/keys.ts";
import { FANOUT_JOB } from "@/lib/notifications/fanout.ts";
import { JobRunner, jobRunner, LEASE_MS } from "@/lib/jobs/runner.ts";
import { fanoutJobKind } from "@/lib/notifications/fanout.ts";
import { notificationOf } from "@/lib/notifications/stored.ts";
import { notifyInOp, unreadCount } from "@/lib/notifications/notifications.ts";
import { createTestApp, type TestApp, waitForJobs } from "../helpers/app.ts";
import { answer, ask, member } from "../helpers/community.ts";

/** `n` followers of `questionId` (ids `f-00001`…), written straight into the store. */
async function seedFollowers(t: TestApp, questionId: string, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, (_, i) => `f-${String(i + 1).padStart(5, "0")}`);
  for (let i = 0; i < ids.length; i += 500) {
    const op = t.kv.atomic();
    for (const id of ids.slice(i, i + 500)) op.set(keys.follow(questionId, id), { at: 1 });
    assert.ok((await op.commit()).ok);
  }
  return ids;
}

/** How many `answer` notifications of `messageId` each user holds. */
async function answerNotifications(t: TestApp, messageId: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for await (const e of t.kv.list({ prefix: ["notifications"] })) {
    const n = notificationOf(e.key[2] as string, e.value);
    if (n?.type !== "answer" || n.messageId !== messageId) continue;
    const userId = e.key[1] as string;
    out.set(userId, (out.get(userId) ?? 0) + 1);
  }
  return out;
}

Deno.test("an answer on a question with 6,000 followers notifies every one of them, once, without the request waiting", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const qid = await ask(t, ada, { title: "Who follows this?" });
    const followers = await seedFollowers(t, qid, 6_000);
    const mid = await answer(t, bob, qid, "Everyone does, it seems.");
    await waitForJobs(60_000, FANOUT_JOB);
    const got = await answerNotifications(t, mid);
    const missing = followers.filter((f) => got.get(f) !== 1);
    assert.deepEqual(missing.slice(0, 5), [], `${missing.length} followers not notified once`);
    assert.equal(got.get(ada.id), 1, "the asker, in the answer's own op");
    assert.equal(got.get(bob.id), undefined, "never the answerer");
    assert.equal(got.size, 6_001);
    assert.equal((await t.kv.get(keys.fanoutJob(mid))).value, null, "the job ended");
    const unread = await t.kv.get(keys.notificationUnread(followers.at(-1)!));
    assert.ok(unread.value, "the last follower's unread count moved");
  } finally {
    await t.close();
  }
});

Deno.test("the answer's instance dies right after the commit: another instance's pass sends every follower's notification once", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const qid = await ask(t, ada, { title: "Who finishes?" });
    const followers = await seedFollowers(t, qid, 1_500);
    // This instance runs nothing more (as if killed once the answer committed).
    await jobRunner(t.kv).shutdown(0);
    const mid = await answer(t, bob, qid, "Somebody else will tell them.");
    assert.ok(
      (await t.kv.get(keys.fanoutJob(mid))).value,
      "the fan-out was stored with the answer",
    );
    // Another instance, once the dead one's lease lapsed.
    const later = () => Date.now() + LEASE_MS + 1;
    const other = new JobRunner(t.kv, { owner: "other", now: later });
    other.register(fanoutJobKind(Date.now));
    assert.deepEqual(await other.pass(), [`${FANOUT_JOB}/${mid}`]);
    await other.waitIdle(30_000);
    await other.shutdown();
    const got = await answerNotifications(t, mid);
    assert.deepEqual(followers.filter((f) => got.get(f) !== 1), []);
    assert.equal((await t.kv.get(keys.job(FANOUT_JOB, mid))).value, null);
  } finally {
    await t.close();
  }
});

Deno.test("a fan-out trims its recipients' histories to the newest 200, the unread count with them", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const qid = await ask(t, ada, { title: "Who keeps everything?" });
    const [hoarder, other] = await seedFollowers(t, qid, 2);
    // 250 unread notifications from yesterday, never marked read.
    const yesterday = Date.now() - 86_400_000;
    for (let i = 0; i < 250; i += 50) {
      const op = t.kv.atomic();
      for (let j = i; j < i + 50; j++) {
        for (const userId of [hoarder, other]) {
          notifyInOp(op, userId, {
            type: "answer",
            actor: { id: ada.id },
            questionId: qid,
            messageId: `msg-old-${j}`,
            answerId: `msg-old-${j}`,
          }, yesterday + j);
        }
      }
      assert.ok((await op.commit()).ok);
    }
    // The fan-out runs on another instance (once this one's lease lapsed), whose dice pick
    // the hoarder only.
    await jobRunner(t.kv).shutdown(0);
    const runner = new JobRunner(t.kv, { owner: "other", now: () => Date.now() + LEASE_MS + 1 });
    let picks = 0;
    runner.register(fanoutJobKind(Date.now, () => picks++ === 0 ? 0 : 0.99));
    const mid = await answer(t, bob, qid, "Only the newest stay.");
    assert.deepEqual(await runner.pass(), [`${FANOUT_JOB}/${mid}`]);
    await runner.waitIdle(30_000);
    await runner.shutdown();

    const history = async (userId: string) =>
      (await Array.fromAsync(t.kv.list({ prefix: keys.notificationsPrefix(userId) })))
        .map((e) => notificationOf(e.key[2] as string, e.value)!);
    const kept = await history(hoarder);
    assert.equal(kept.length, 200);
    assert.equal(kept.at(-1)!.messageId, mid, "the new one is among them");
    assert.equal(kept[0].messageId, "msg-old-51", "the oldest 51 went");
    assert.equal(await unreadCount(t.kv, hoarder, Date.now()), 200, "only what is left counts");
    assert.equal((await history(other)).length, 251, "not picked: untouched");
    assert.equal(await unreadCount(t.kv, other, Date.now()), 251);
  } finally {
    await t.close();
  }
});
