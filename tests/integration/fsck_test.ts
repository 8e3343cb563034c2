/**
 * `deno task fsck`: each invariant broken on purpose with raw KV writes after real data
 * was made through HTTP; the check counts it, the repair fixes what is derived, and the
 * check after the repair is clean.
 */
import assert from "node:assert/strict";
import type { QuestionSnapshot } from "@/lib/community/questions/model.ts";
import { type QuestionRecord, snapshotOf } from "@/lib/community/questions/model.ts";
import type { QuestionSeqEntry } from "@/lib/community/questions/write.ts";
import { counterValue, invertTime } from "@/lib/kv/atomic.ts";
import { keys } from "@/lib/kv/keys.ts";
import { FEED_PROBLEMS } from "@/lib/ops/fsck/feeds.ts";
import { QUESTION_PROBLEMS } from "@/lib/ops/fsck/questions.ts";
import { THREAD_PROBLEMS } from "@/lib/ops/fsck/threads.ts";
import { VOTE_PROBLEMS } from "@/lib/ops/fsck/votes.ts";
import type { MessageRecord } from "@/lib/community/messages/model.ts";
import { ask } from "../helpers/community.ts";
import { check, community, remove, repairClean } from "../helpers/fsck.ts";

Deno.test("a store made through HTTP is clean", async () => {
  const c = await community();
  try {
    const report = await check(c.t.kv);
    assert.ok(report.clean, report.lines().join("\n"));
  } finally {
    await c.t.close();
  }
});

Deno.test("votes: counters that drifted, a lost activity row, a stray row and a vote on a missing post", async () => {
  const c = await community();
  const { kv } = c.t;
  try {
    await kv.set(keys.voteCount("message", c.a1, "up"), new Deno.KvU64(7n));
    await kv.delete(keys.voteCount("question", c.q1, "down"));
    let row: Deno.KvKey | null = null;
    for await (const e of kv.list({ prefix: keys.userVotesPrefix(c.ada.id) })) row ??= e.key;
    await kv.delete(row!);
    await kv.set(keys.userVote(c.bob.id, 5, "question", "q-gone"), {
      targetType: "question",
      targetId: "q-gone",
      voteType: "up",
      createdAt: 1,
    });
    await kv.set(keys.vote("message", "msg-gone", c.cy.id), { voteType: "down", createdAt: 2 });
    await kv.set(keys.voteCount("message", "msg-gone", "down"), new Deno.KvU64(1n));

    const found = await check(kv);
    assert.equal(found.count("votes", VOTE_PROBLEMS.counter), 3, found.lines().join("\n"));
    assert.equal(found.count("votes", VOTE_PROBLEMS.noActivity), 1);
    assert.equal(found.count("votes", VOTE_PROBLEMS.staleActivity), 1);
    assert.equal(found.count("votes", VOTE_PROBLEMS.orphan), 1);

    const fixed = await repairClean(kv);
    assert.equal(fixed.fixed, fixed.problems, fixed.lines().join("\n"));
    const [up, down, gone] = await kv.getMany([
      keys.voteCount("message", c.a1, "up"),
      keys.voteCount("question", c.q1, "down"),
      keys.voteCount("message", "msg-gone", "down"),
    ]);
    assert.equal(counterValue(up.value), 2);
    assert.equal(counterValue(down.value), 1);
    assert.equal(gone.versionstamp, null);
    const api = await (await c.t.request(`/api/questions/${c.q1}`)).json();
    assert.equal(api.downvotes, 1);
  } finally {
    await c.t.close();
  }
});

Deno.test("questions: lost rows, a stale snapshot, a stray row, a taken position and the total", async () => {
  const c = await community();
  const { kv } = c.t;
  try {
    const q1 = (await kv.get<QuestionRecord>(keys.question(c.q1))).value!;
    const q2 = (await kv.get<QuestionRecord>(keys.question(c.q2))).value!;
    const seqs1 = (await kv.get<QuestionSeqEntry>(keys.questionSeqs(c.q1))).value!;
    const seqs2 = (await kv.get<QuestionSeqEntry>(keys.questionSeqs(c.q2))).value!;
    await kv.delete(keys.questionByTime(invertTime(q1.createdAt), c.q1));
    await kv.delete(keys.questionByAuthor(c.bob.id, invertTime(q2.createdAt), c.q2));
    await kv.delete(keys.questionByTag("deno", seqs1.tags.deno));
    await kv.set(keys.questionBySeq(seqs1.seq), { ...snapshotOf(q1), title: "An older title" });
    await kv.set(keys.questionByTime(5, "q-gone"), "q-gone");
    await kv.set(keys.counter("questions"), new Deno.KvU64(9n));
    // Bob's question claims Ada's position in the newest feed (a head reset by a restore).
    await kv.set(keys.questionSeqs(c.q2), { ...seqs2, seq: seqs1.seq });

    const found = await check(kv);
    const count = (kind: string) => found.count("questions", kind);
    assert.equal(count(QUESTION_PROBLEMS.noTimeRow), 1, found.lines().join("\n"));
    assert.equal(count(QUESTION_PROBLEMS.noAuthorRow), 1);
    assert.equal(count(QUESTION_PROBLEMS.noTagRow), 1);
    assert.equal(count(QUESTION_PROBLEMS.staleSnapshot), 1);
    assert.equal(count(QUESTION_PROBLEMS.strayTimeRow), 1);
    assert.equal(count(QUESTION_PROBLEMS.counter), 1);
    assert.equal(count(QUESTION_PROBLEMS.noFeedRow), 1, "Bob's position is Ada's");
    assert.equal(count(QUESTION_PROBLEMS.strayFeedRow), 1, "Bob's old row");

    await repairClean(kv);
    assert.equal(counterValue((await kv.get(keys.counter("questions"))).value), 2);
    const moved = (await kv.get<QuestionSeqEntry>(keys.questionSeqs(c.q2))).value!;
    assert.equal(moved.seq, 3, "a new position at the head");
    assert.equal((await kv.get<number>(keys.questionSeqHead())).value, 3);
    const snap = await kv.get<QuestionSnapshot>(keys.questionBySeq(seqs1.seq));
    assert.equal(snap.value?.title, q1.title);
    // Both questions are served by the newest feed and their tag feeds again.
    const newest = await (await c.t.request("/api/questions?sort=new")).json();
    assert.deepEqual(newest.questions.map((q: { id: string }) => q.id), [c.q2, c.q1]);
    const deno = await (await c.t.request("/api/questions?tag=deno")).json();
    assert.deepEqual(deno.questions.map((q: { id: string }) => q.id), [c.q1]);
  } finally {
    await c.t.close();
  }
});

Deno.test("feeds: a lost hole, a hole under a row, a head below its rows and a hole counter", async () => {
  const c = await community();
  const { kv } = c.t;
  try {
    await remove(c.t, c.bob, `/api/questions/${c.q2}`); // leaves holes in the newest and kv feeds
    const seqs1 = (await kv.get<QuestionSeqEntry>(keys.questionSeqs(c.q1))).value!;
    const seqs2 = (await kv.get<QuestionSeqEntry>(keys.questionSeqs(c.q2))).value!;
    await kv.delete(keys.seqHole("all", seqs2.seq));
    await kv.set(keys.seqHole("tag:deno", seqs1.tags.deno), c.q1);
    await kv.set(keys.tagSeqHead("kv"), 1);
    await kv.set(keys.seqHoleCount("tag:deno"), new Deno.KvU64(3n));

    const found = await check(kv);
    const count = (kind: string) => found.count("feeds", kind);
    assert.equal(count(FEED_PROBLEMS.gap), 1, found.lines().join("\n"));
    assert.equal(count(FEED_PROBLEMS.both), 1);
    assert.equal(count(FEED_PROBLEMS.aboveHead), 1);
    // tag:deno (3, one hole under a row) and all (1 counted, its hole gone).
    assert.equal(count(FEED_PROBLEMS.holeCounter), 2);

    await repairClean(kv);
    assert.equal((await kv.get<number>(keys.tagSeqHead("kv"))).value, 2);
    assert.equal(counterValue((await kv.get(keys.seqHoleCount("tag:deno"))).value), 0);
    assert.equal(counterValue((await kv.get(keys.seqHoleCount("all"))).value), 1);
    // The next question of the kv tag takes a new position: nothing written over.
    const q3 = await ask(c.t, c.cy, { title: "Watching keys", tags: ["kv"] });
    const kvFeed = await (await c.t.request("/api/questions?tag=kv")).json();
    assert.deepEqual(kvFeed.questions.map((q: { id: string }) => q.id), [q3, c.q1]);
    assert.equal(kvFeed.total, 2);
  } finally {
    await c.t.close();
  }
});

Deno.test("threads: lost rows, stray rows, the vote order, an accepted reply and every thread counter", async () => {
  const c = await community();
  const { kv } = c.t;
  try {
    const msg = async (id: string) => (await kv.get<MessageRecord>(keys.message(id))).value!;
    const [a1, a2, r1] = [await msg(c.a1), await msg(c.a2), await msg(c.r1)];
    await kv.delete(keys.questionMessage(c.q1, a2.createdAt, a2.id));
    await kv.delete(keys.answerReply(a1.id, r1.createdAt, r1.id));
    await kv.delete(keys.messageByAuthor(c.bob.id, invertTime(a1.createdAt), a1.id));
    await kv.set(keys.questionMessage(c.q1, 1, "msg-gone"), "msg-gone");
    await kv.set(keys.answerCount(c.q1), new Deno.KvU64(5n));
    await kv.set(keys.answerScore(a1.id), 7); // its row stays filed under 2
    await kv.set(keys.acceptedAnswer(c.q1), r1.id);
    await kv.set(keys.hiddenMessageCount(c.q1), new Deno.KvU64(1n));
    await kv.delete(keys.directReplyCount(a1.id));

    const found = await check(kv);
    const count = (kind: string) => found.count("threads", kind);
    const lines = found.lines().join("\n");
    for (
      const kind of [
        THREAD_PROBLEMS.noThreadRow,
        THREAD_PROBLEMS.noReplyRow,
        THREAD_PROBLEMS.noAuthorRow,
        THREAD_PROBLEMS.strayThreadRow,
        THREAD_PROBLEMS.noScoreRow,
        THREAD_PROBLEMS.goneScoreRow,
        THREAD_PROBLEMS.badAccepted,
        THREAD_PROBLEMS.messageCounter,
        THREAD_PROBLEMS.answerCounter,
        THREAD_PROBLEMS.replyCounter,
        THREAD_PROBLEMS.hiddenCounter,
        THREAD_PROBLEMS.directCounter,
      ]
    ) assert.equal(count(kind), 1, `${kind}\n${lines}`);

    await repairClean(kv);
    const q = await (await c.t.request(`/api/questions/${c.q1}`)).json();
    assert.equal(q.messageCount, 3);
    assert.equal(q.answerCount, 2);
    assert.equal(q.acceptedMessageId, null);
    const page = await (await c.t.request(`/questions/${c.q1}?sort=votes`)).text();
    assert.ok(page.indexOf(a1.id) < page.indexOf(a2.id), "a1 (score 2) before a2 (score 0)");
    assert.equal((await kv.get(keys.answerScore(a1.id))).value, 2);
    const replies = await (await c.t.request(`/api/questions/${c.q1}`)).json();
    assert.ok(replies.messages.some((m: { id: string }) => m.id === r1.id));
  } finally {
    await c.t.close();
  }
});
