/**
 * `deno task fsck`: each invariant broken on purpose with raw KV writes after real data
 * was made through HTTP; the check counts it, the repair fixes what is derived, and the
 * check after the repair is clean.
 */
import assert from "node:assert/strict";
import { type QuestionRecord, snapshotOf } from "@/lib/community/questions/model.ts";
import type { QuestionSeqEntry } from "@/lib/community/questions/write.ts";
import { counterValue, invertTime } from "@/lib/kv/atomic.ts";
import { keys } from "@/lib/kv/keys.ts";
import { FEED_PROBLEMS } from "@/lib/ops/fsck/feeds.ts";
import { QUESTION_PROBLEMS } from "@/lib/ops/fsck/questions.ts";
import { THREAD_PROBLEMS } from "@/lib/ops/fsck/threads.ts";
import { VOTE_PROBLEMS } from "@/lib/ops/fsck/votes.ts";
import type { MessageRecord } from "@/lib/community/messages/model.ts";
import { createDebate, type DebateRecord } from "@/lib/debates/store.ts";
import { AGENT_KEY_PROBLEMS } from "@/lib/ops/fsck/agent_keys.ts";
import { DEBATE_PROBLEMS } from "@/lib/ops/fsck/debates.ts";
import { FAVORITE_PROBLEMS } from "@/lib/ops/fsck/favorites.ts";
import { NOTIFICATION_PROBLEMS } from "@/lib/ops/fsck/notifications.ts";
import { SEARCH_PROBLEMS } from "@/lib/ops/fsck/search.ts";
import { postingKey, type StoredDoc } from "@/lib/search/index.ts";
import { userStatProblem } from "@/lib/ops/fsck/user_stats.ts";
import { readUserStats } from "@/lib/profile/user_stats.ts";
import { waitForJobs } from "../helpers/app.ts";
import { agentCall, agentKey, ask, getAs } from "../helpers/community.ts";
import { check, community, firstKey, remove, repairClean } from "../helpers/fsck.ts";

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

Deno.test("questions: lost rows, a copy in a newest-feed row, a stray row, a taken position and the total", async () => {
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
    // The newest-feed row as stores before compact storage 3 kept it: a copy, not the id.
    await kv.set(keys.questionBySeq(seqs1.seq), snapshotOf(q1));
    await kv.set(keys.questionByTime(5, "q-gone"), "q-gone");
    await kv.set(keys.counter("questions"), new Deno.KvU64(9n));
    // Bob's question claims Ada's position in the newest feed (a head reset by a restore).
    await kv.set(keys.questionSeqs(c.q2), { ...seqs2, seq: seqs1.seq });

    const found = await check(kv);
    const count = (kind: string) => found.count("questions", kind);
    assert.equal(count(QUESTION_PROBLEMS.noTimeRow), 1, found.lines().join("\n"));
    assert.equal(count(QUESTION_PROBLEMS.noAuthorRow), 1);
    assert.equal(count(QUESTION_PROBLEMS.noTagRow), 1);
    assert.equal(count(QUESTION_PROBLEMS.legacyFeedRow), 1);
    assert.equal(count(QUESTION_PROBLEMS.strayTimeRow), 1);
    assert.equal(count(QUESTION_PROBLEMS.counter), 1);
    assert.equal(count(QUESTION_PROBLEMS.noFeedRow), 1, "Bob's position is Ada's");
    assert.equal(count(QUESTION_PROBLEMS.strayFeedRow), 1, "Bob's old row");

    await repairClean(kv);
    assert.equal(counterValue((await kv.get(keys.counter("questions"))).value), 2);
    const moved = (await kv.get<QuestionSeqEntry>(keys.questionSeqs(c.q2))).value!;
    assert.equal(moved.seq, 3, "a new position at the head");
    assert.equal((await kv.get<number>(keys.questionSeqHead())).value, 3);
    const row = await kv.get(keys.questionBySeq(seqs1.seq));
    assert.equal(row.value, c.q1, "the row holds the id");
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

Deno.test("favorites: a drifted counter, a lost and a stray activity row, a favorite of a missing post", async () => {
  const c = await community();
  const { kv } = c.t;
  try {
    await kv.set(keys.favoriteCount("message", c.a1), new Deno.KvU64(4n));
    await kv.delete(await firstKey(kv, keys.userFavoritesPrefix(c.ada.id)));
    await kv.set(keys.userFavorite(c.bob.id, 5, "question", "q-gone"), {
      targetType: "question",
      targetId: "q-gone",
      questionId: "q-gone",
      createdAt: 1,
    });
    await kv.set(keys.favorite(c.bob.id, "question", "q-gone"), {
      userId: c.bob.id,
      targetType: "question",
      targetId: "q-gone",
      questionId: "q-gone",
      createdAt: 1,
      updatedAt: 1,
    });
    const found = await check(kv);
    const count = (kind: string) => found.count("favorites", kind);
    assert.equal(count(FAVORITE_PROBLEMS.counter), 1, found.lines().join("\n"));
    assert.equal(count(FAVORITE_PROBLEMS.noActivity), 1);
    assert.equal(count(FAVORITE_PROBLEMS.staleActivity), 1);
    assert.equal(count(FAVORITE_PROBLEMS.orphan), 1);

    await repairClean(kv);
    assert.equal(counterValue((await kv.get(keys.favoriteCount("message", c.a1))).value), 1);
    const activity = await (await getAs(c.t, c.ada, "/api/profile/activity?type=favorites")).json();
    assert.equal(JSON.stringify(activity).includes(c.a1), true, JSON.stringify(activity));
  } finally {
    await c.t.close();
  }
});

Deno.test("notifications: an unread counter that drifted and a notification of a post that does not exist", async () => {
  const c = await community();
  const { kv } = c.t;
  try {
    await waitForJobs(); // the answer fan-out to followers
    const before = await (await getAs(c.t, c.ada, "/api/notifications")).json();
    assert.ok(before.unread > 0, "Ada was told of the answers to her question");
    await kv.set(keys.notificationUnread(c.ada.id), new Deno.KvU64(40n));
    await kv.set(keys.notification(c.bob.id, "n-000000000zzzz0000"), {
      id: "n-000000000zzzz0000",
      type: "reply",
      actor: null,
      questionId: c.q1,
      messageId: "msg-gone",
      answerId: null,
      title: "Gone",
      excerpt: "",
      count: 1,
      createdAt: 1,
      updatedAt: 1,
      read: false,
    });
    const bobBefore = counterValue((await kv.get(keys.notificationUnread(c.bob.id))).value);
    await kv.set(keys.notificationUnread(c.bob.id), new Deno.KvU64(BigInt(bobBefore + 1)));

    const found = await check(kv);
    const count = (kind: string) => found.count("notifications", kind);
    assert.equal(count(NOTIFICATION_PROBLEMS.orphan), 1, found.lines().join("\n"));
    assert.equal(count(NOTIFICATION_PROBLEMS.counter), 2, "Ada's; Bob's counts the orphan");

    await repairClean(kv);
    const after = await (await getAs(c.t, c.ada, "/api/notifications")).json();
    assert.equal(after.unread, before.unread);
    assert.equal(counterValue((await kv.get(keys.notificationUnread(c.bob.id))).value), bobBefore);
  } finally {
    await c.t.close();
  }
});

Deno.test("notifications: an expiry ledger missing or drifted is reported and rebuilt; days begun but not yet taken off are no problem", async () => {
  const c = await community();
  const { kv } = c.t;
  try {
    await waitForJobs(); // the answer fan-out to followers
    const ledgerOf = async (userId: string) =>
      (await Array.fromAsync(kv.list({ prefix: keys.notificationUnreadDuePrefix(userId) })))
        .map((e) => [e.key[2], counterValue(e.value)]);
    const adas = await ledgerOf(c.ada.id);
    assert.ok(adas.length > 0, "Ada's unread notifications are filed under the day they expire");
    const bobBefore = (await (await getAs(c.t, c.bob, "/api/notifications")).json()).unread;
    assert.deepEqual((await check(kv)).lines(), []);
    // Ada's ledger lost (a store from before it); Bob's count holds 2 of a day that has begun
    // (his next read takes them off): only Ada's is a problem.
    for await (const e of kv.list({ prefix: keys.notificationUnreadDuePrefix(c.ada.id) })) {
      await kv.delete(e.key);
    }
    const yesterday = Math.floor(Date.now() / 86_400_000) - 1;
    await kv.atomic()
      .sum(keys.notificationUnread(c.bob.id), 2n)
      .sum(keys.notificationUnreadDue(c.bob.id, yesterday), 2n)
      .commit();
    const found = await check(kv);
    const count = (kind: string) => found.count("notifications", kind);
    assert.equal(count(NOTIFICATION_PROBLEMS.ledger), adas.length, found.lines().join("\n"));
    assert.equal(count(NOTIFICATION_PROBLEMS.counter), 0);

    await repairClean(kv);
    assert.deepEqual(await ledgerOf(c.ada.id), adas);
    assert.equal((await (await getAs(c.t, c.bob, "/api/notifications")).json()).unread, bobBefore);
    assert.ok((await ledgerOf(c.bob.id)).every(([day]) => Number(day) > yesterday), "taken off");
    assert.deepEqual((await check(kv)).lines(), []);
  } finally {
    await c.t.close();
  }
});

Deno.test("user stats: counts that drifted and peaks below what the posts have", async () => {
  const c = await community();
  const { kv } = c.t;
  try {
    const truth = await readUserStats(kv, c.bob.id);
    await kv.set(keys.userStat(c.ada.id, "questions"), new Deno.KvU64(5n));
    await kv.delete(keys.userStat(c.bob.id, "upvotes_received"));
    await kv.set(keys.userStat(c.cy.id, "favorites_received"), new Deno.KvU64(3n));
    await kv.set(keys.userStat(c.bob.id, "best_answer_upvotes"), new Deno.KvU64(1n));
    await kv.delete(keys.userStat(c.cy.id, "answers"));
    // A peak above what the posts have now is fine (votes can be withdrawn).
    await kv.set(keys.userStat(c.ada.id, "best_question_upvotes"), new Deno.KvU64(9n));

    const found = await check(kv);
    const count = (stat: string) => found.count("user stats", userStatProblem(stat));
    assert.equal(count("questions"), 1, found.lines().join("\n"));
    assert.equal(count("upvotes_received"), 1);
    assert.equal(count("favorites_received"), 1);
    assert.equal(count("best_answer_upvotes"), 1);
    assert.equal(count("answers"), 1);
    assert.equal(count("best_question_upvotes"), 0);

    await repairClean(kv);
    assert.deepEqual(await readUserStats(kv, c.bob.id), truth);
    const ada = await (await getAs(c.t, c.ada, "/api/profile/stats")).json();
    assert.equal(ada.questionsCount, 1);
    assert.equal((await readUserStats(kv, c.cy.id)).answers, 1);
    assert.equal((await readUserStats(kv, c.cy.id)).favorites_received, 0);
    assert.equal((await readUserStats(kv, c.ada.id)).best_question_upvotes, 9);
  } finally {
    await c.t.close();
  }
});

Deno.test("search: a question without its document, a document's lost posting, a stray posting, a deleted question left in, and the counters", async () => {
  const c = await community();
  const { kv } = c.t;
  try {
    const q3 = await ask(c.t, c.ada, { title: "Wombat burrows and their tunnels" });
    // q3 as if stored before the index: no document, no postings (its counts stay).
    const doc3 = (await kv.get<StoredDoc>(["sq", q3])).value!;
    await kv.delete(["sq", q3]);
    doc3.s.forEach((s, i) => kv.delete(postingKey("question", s, doc3.w[i], doc3.dl, q3)));
    // q1's document lists a posting that is gone; a posting of a word q1 never had.
    const doc1 = (await kv.get<StoredDoc>(["sq", c.q1])).value!;
    const lost = doc1.s.indexOf("order");
    await kv.delete(postingKey("question", "order", doc1.w[lost], doc1.dl, c.q1));
    await kv.set(postingKey("question", "zebra", 3, doc1.dl, c.q1), 3 + doc1.dl * 256);
    // q2 deleted, then its document and a posting written back (a torn restore).
    const doc2 = (await kv.get<StoredDoc>(["sq", c.q2])).value!;
    await remove(c.t, c.bob, `/api/questions/${c.q2}`);
    await kv.set(["sq", c.q2], doc2);
    const atomic = doc2.s.indexOf("atom");
    await kv.set(
      postingKey("question", "atom", doc2.w[atomic], doc2.dl, c.q2),
      doc2.w[atomic] + doc2.dl * 256,
    );

    const found = await check(kv);
    const count = (kind: string) => found.count("search", kind);
    assert.equal(count(SEARCH_PROBLEMS.missing), 1, found.lines().join("\n"));
    assert.equal(count(SEARCH_PROBLEMS.unlisted), 1);
    assert.equal(count(SEARCH_PROBLEMS.stray), 1);
    assert.equal(count(SEARCH_PROBLEMS.leftover), 2, "the record's pass and the document's");
    assert(count(SEARCH_PROBLEMS.counter) >= 1, "q3's stems are counted without postings");

    await repairClean(kv);
    const search = async (q: string) =>
      (await (await c.t.request(`/api/questions?q=${q}`)).json()).questions.map(
        (x: { id: string }) => x.id,
      );
    assert.deepEqual(await search("wombat"), [q3]);
    assert.deepEqual(await search("order"), [c.q1]);
    assert.deepEqual(await search("zebra"), []);
    assert.deepEqual(await search("atomic%20checks"), []);
  } finally {
    await c.t.close();
  }
});

Deno.test("agent keys: a listed key without its lookup, a key off its owner's list, the counts", async () => {
  const c = await community();
  const { kv } = c.t;
  try {
    await agentKey(c.t, c.ada, "gone");
    const bobKey = await agentKey(c.t, c.bob, "kept");
    const adaRow = await firstKey(kv, keys.agentKeysByUserPrefix(c.ada.id));
    const adaRecord = (await kv.get<{ hash: string }>(adaRow)).value!;
    await kv.delete(keys.agentKey(adaRecord.hash));
    await kv.delete(await firstKey(kv, keys.agentKeysByUserPrefix(c.bob.id)));

    const found = await check(kv);
    const count = (kind: string) => found.count("agent keys", kind);
    assert.equal(count(AGENT_KEY_PROBLEMS.unusable), 1, found.lines().join("\n"));
    assert.equal(count(AGENT_KEY_PROBLEMS.unlisted), 1);
    assert.equal(count(AGENT_KEY_PROBLEMS.counter), 2);
    assert.ok(!found.lines().join("\n").includes(adaRecord.hash), "hashes are never printed");

    await repairClean(kv);
    const list = await (await getAs(c.t, c.bob, "/api/profile/agent-keys")).json();
    assert.equal(JSON.stringify(list).includes("kept"), true);
    assert.equal((await kv.get(keys.agentKeyCount(c.ada.id))).versionstamp, null);
    assert.equal((await kv.get(keys.agentKeyCount(c.bob.id))).value, 1);
    const res = await agentCall(c.t, bobKey, "/api/agent/questions");
    assert.equal(res.status, 200);
    await res.body?.cancel();
  } finally {
    await c.t.close();
  }
});

Deno.test("debates: lost list rows, a watch count and its most-watched row, a watcher of nothing", async () => {
  const c = await community();
  const { kv } = c.t;
  try {
    const ids: string[] = [];
    for (const topic of ["Tabs or spaces", "Monorepo or not"]) {
      const now = Date.now() + ids.length;
      const record: DebateRecord = {
        id: `debate_${now}_${ids.length}`,
        topic,
        userId: c.ada.id,
        userProfile: { id: c.ada.id, name: "Ada's agent", avatar: null, bio: "" },
        opponentProfile: { id: "persona-x", name: "Dr. X", avatar: "", bio: "", title: "S" },
        status: "completed",
        synthesis: null,
        messageCount: 0,
        standIn: false,
        createdAt: now,
        updatedAt: now,
      };
      assert.ok(await createDebate(kv, record));
      ids.push(record.id);
    }
    const page = await getAs(c.t, c.bob, `/debates/${ids[0]}`); // Bob watches the first
    assert.equal(page.status, 200);
    await page.body?.cancel();
    const d0 = (await kv.get<DebateRecord>(keys.debate(ids[0]))).value!;
    await kv.delete(keys.debateByTime(invertTime(d0.createdAt), ids[0]));
    const d1 = (await kv.get<DebateRecord>(keys.debate(ids[1]))).value!;
    await kv.delete(keys.debateByUser(c.ada.id, invertTime(d1.createdAt), ids[1]));
    await kv.set(keys.debateWatches(ids[0]), 3);
    await kv.set(keys.debateWatcher("debate_gone", c.cy.id), 1);

    const found = await check(kv);
    const count = (kind: string) => found.count("debates", kind);
    assert.equal(count(DEBATE_PROBLEMS.noListRow), 1, found.lines().join("\n"));
    assert.equal(count(DEBATE_PROBLEMS.noHistoryRow), 1);
    assert.equal(count(DEBATE_PROBLEMS.counter), 1);
    assert.equal(count(DEBATE_PROBLEMS.orphanWatcher), 1);
    assert.equal(count(DEBATE_PROBLEMS.noWatchRow), 1, "the row at 3");
    assert.equal(count(DEBATE_PROBLEMS.strayRow), 1, "the row at 1");

    await repairClean(kv);
    assert.equal((await kv.get(keys.debateWatches(ids[0]))).value, 1);
    const watched = await (await getAs(c.t, c.cy, "/debates?sort=watched")).text();
    assert.match(watched, new RegExp(`${ids[0]}[\\s\\S]*Watched by 1 member`));
    const newest = await (await getAs(c.t, c.cy, "/debates")).text();
    assert.ok(newest.includes(ids[0]) && newest.includes(ids[1]), "both listed again");
  } finally {
    await c.t.close();
  }
});
