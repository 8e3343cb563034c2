/**
 * Votes through POST /api/likes and the agent vote endpoint: every row of docs/interface.md#votes's vote
 * table on questions and messages, errors, concurrency, and the statistics and activity
 * rows written with each vote.
 */
import assert from "node:assert/strict";
import { counterValue, readCounters } from "@/lib/kv/atomic.ts";
import { keys } from "@/lib/kv/keys.ts";
import { voteCommitStats, type VoteResult } from "@/lib/community/votes.ts";
import { userVoteOf } from "@/lib/community/user_vote_rows.ts";
import { voteOf } from "@/lib/community/vote_rows.ts";
import { type HitLog, loggedTimes } from "@/lib/limits/window.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  answer,
  ask,
  getAs,
  json,
  type Member,
  postAs,
  publicVoter,
} from "../helpers/community.ts";

type Target = "question" | "message";

async function setup(t: TestApp) {
  const author = await publicVoter(t, "Author");
  const voter = await publicVoter(t, "Voter");
  const questionId = await ask(t, author, { title: "Which KV layout is best?" });
  const messageId = await answer(t, author, questionId, "Per-voter keys.");
  return { author, voter, questionId, messageId };
}

async function like(
  t: TestApp,
  who: Member,
  targetType: Target,
  targetId: string,
  voteType?: "up" | "down",
) {
  return await json<VoteResult>(postAs(t, who, "/api/likes", { targetId, targetType, voteType }));
}

interface Voted {
  id: string;
  likedBy: string[];
  dislikedBy: string[];
  upvotes: number;
  downvotes: number;
}

async function voters(
  t: TestApp,
  targetType: Target,
  questionId: string,
  targetId: string,
): Promise<Voted> {
  const { body } = await json<Voted & { messages: Voted[] }>(
    getAs(t, null, `/api/questions/${questionId}`),
  );
  if (targetType === "question") return body;
  return body.messages.find((m) => m.id === targetId)!;
}

for (const targetType of ["question", "message"] as const) {
  Deno.test(`vote table on a ${targetType}: every row, with counts and voter lists`, async () => {
    const t = await createTestApp();
    try {
      const { voter, questionId, messageId } = await setup(t);
      const id = targetType === "question" ? questionId : messageId;

      // none + up → liked
      let r = await like(t, voter, targetType, id, "up");
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, {
        action: "liked",
        upvotes: 1,
        downvotes: 0,
        liked: true,
        downvoted: false,
      });
      let v = await voters(t, targetType, questionId, id);
      assert.deepEqual([v.likedBy, v.dislikedBy], [[voter.id], []]);

      // upvoted + up → unliked
      r = await like(t, voter, targetType, id, "up");
      assert.deepEqual(r.body, {
        action: "unliked",
        upvotes: 0,
        downvotes: 0,
        liked: false,
        downvoted: false,
      });
      v = await voters(t, targetType, questionId, id);
      assert.deepEqual([v.likedBy, v.dislikedBy], [[], []]);

      // none + down → downvoted
      r = await like(t, voter, targetType, id, "down");
      assert.deepEqual(r.body, {
        action: "downvoted",
        upvotes: 0,
        downvotes: 1,
        liked: false,
        downvoted: true,
      });
      v = await voters(t, targetType, questionId, id);
      assert.deepEqual([v.likedBy, v.dislikedBy], [[], [voter.id]]);

      // downvoted + down → undownvoted
      r = await like(t, voter, targetType, id, "down");
      assert.deepEqual(r.body, {
        action: "undownvoted",
        upvotes: 0,
        downvotes: 0,
        liked: false,
        downvoted: false,
      });

      // downvoted + up → liked (switch)
      await like(t, voter, targetType, id, "down");
      r = await like(t, voter, targetType, id, "up");
      assert.deepEqual(r.body, {
        action: "liked",
        upvotes: 1,
        downvotes: 0,
        liked: true,
        downvoted: false,
      });
      v = await voters(t, targetType, questionId, id);
      assert.deepEqual([v.likedBy, v.dislikedBy], [[voter.id], []]);

      // upvoted + down → downvoted (switch)
      r = await like(t, voter, targetType, id, "down");
      assert.deepEqual(r.body, {
        action: "downvoted",
        upvotes: 0,
        downvotes: 1,
        liked: false,
        downvoted: true,
      });
      v = await voters(t, targetType, questionId, id);
      assert.deepEqual([v.likedBy, v.dislikedBy], [[], [voter.id]]);
    } finally {
      await t.close();
    }
  });
}

Deno.test("voteType defaults to up", async () => {
  const t = await createTestApp();
  try {
    const { voter, questionId } = await setup(t);
    const r = await like(t, voter, "question", questionId);
    assert.equal(r.body.action, "liked");
  } finally {
    await t.close();
  }
});

Deno.test("likes: unknown targets 404, bad targetType/voteType 400, signed out 401, bad JSON 400", async () => {
  const t = await createTestApp();
  try {
    const { voter, questionId, messageId } = await setup(t);
    let r = await json(
      postAs(t, voter, "/api/likes", { targetId: "q-nope", targetType: "question" }),
    );
    assert.equal(r.status, 404);
    assert.equal(r.body.error, "The question was not found");
    // A message id is not a question id (and the reverse).
    r = await json(postAs(t, voter, "/api/likes", { targetId: messageId, targetType: "question" }));
    assert.equal(r.status, 404);
    r = await json(postAs(t, voter, "/api/likes", { targetId: questionId, targetType: "message" }));
    assert.equal(r.status, 404);
    r = await json(postAs(t, voter, "/api/likes", { targetId: questionId, targetType: "answer" }));
    assert.equal(r.status, 400);
    assert.equal(r.body.error, 'targetType must be "question" or "message"');
    assert.deepEqual((r.body.issues as { path: string }[]).map((i) => i.path), ["targetType"]);
    r = await json(
      postAs(t, voter, "/api/likes", {
        targetId: questionId,
        targetType: "question",
        voteType: "sideways",
      }),
    );
    assert.equal(r.status, 400);
    assert.equal(r.body.error, 'voteType must be "up" or "down"');
    r = await json(postAs(t, voter, "/api/likes", { targetType: "question" }));
    assert.equal(r.status, 400);
    assert.equal(r.body.error, "targetId is required");
    r = await json(postAs(t, voter, "/api/likes", "{not json"));
    assert.deepEqual([r.status, r.body], [400, { error: "Invalid JSON body" }]);
    r = await json(postAs(t, null, "/api/likes", { targetId: questionId, targetType: "question" }));
    assert.deepEqual([r.status, r.body], [401, { error: "Unauthorized" }]);
    // Nothing was half-written by the failures.
    const q = await json(getAs(t, null, `/api/questions/${questionId}`));
    assert.deepEqual([q.body.upvotes, q.body.downvotes, q.body.likedBy], [0, 0, []]);
  } finally {
    await t.close();
  }
});

Deno.test("200 distinct users voting on one question at once: counts and likedBy are exact", async () => {
  const t = await createTestApp();
  try {
    const author = await publicVoter(t, "Author");
    const questionId = await ask(t, author, { title: "A very hot question" });
    const people = await Promise.all(
      Array.from({ length: 200 }, (_, i) => publicVoter(t, `V${i}`)),
    );
    // Three in four vote up, the rest down — all at once.
    const results = await Promise.all(
      people.map((p, i) => like(t, p, "question", questionId, i % 4 === 3 ? "down" : "up")),
    );
    assert.ok(results.every((r) => r.status === 200));
    const ups = people.filter((_, i) => i % 4 !== 3).map((p) => p.id).sort();
    const downs = people.filter((_, i) => i % 4 === 3).map((p) => p.id).sort();
    const q = await voters(t, "question", questionId, questionId);
    assert.equal(q.upvotes, ups.length);
    assert.equal(q.downvotes, downs.length);
    assert.deepEqual([...q.likedBy].sort(), ups);
    assert.deepEqual([...q.dislikedBy].sort(), downs);
    // The author's statistics moved with every up-vote, and the best count is the peak.
    const [received, best] = await readCounters(t.kv, [
      keys.userStat(author.id, "upvotes_received"),
      keys.userStat(author.id, "best_question_upvotes"),
    ]);
    assert.equal(received, ups.length);
    assert.equal(best, ups.length);
  } finally {
    await t.close();
  }
});

Deno.test("80 voters each liking one question 3 times in a row, all at once: every answer alternates, counts exact", async () => {
  const t = await createTestApp();
  try {
    const author = await publicVoter(t, "Author");
    const questionId = await ask(t, author, { title: "A crowd that keeps clicking" });
    const people = await Promise.all(
      Array.from({ length: 80 }, (_, i) => publicVoter(t, `Clicker${i}`)),
    );
    // The likes bench's load: each voter clicks again as soon as its answer came back.
    const answers = await Promise.all(people.map(async (p) => {
      const mine: VoteResult[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await like(t, p, "question", questionId);
        assert.equal(r.status, 200);
        mine.push(r.body);
      }
      return mine;
    }));
    for (const mine of answers) {
      assert.deepEqual(mine.map((v) => v.action), ["liked", "unliked", "liked"]);
      assert.deepEqual(mine.map((v) => v.liked), [true, false, true]);
      // Each answer counts the voter's own like (and nobody's invented one).
      for (const v of [mine[0], mine[2]]) assert.ok(v.upvotes >= 1 && v.upvotes <= 80);
      assert.ok(mine[1].upvotes <= 79);
    }
    const q = await voters(t, "question", questionId, questionId);
    assert.equal(q.upvotes, 80);
    assert.deepEqual([...q.likedBy].sort(), people.map((p) => p.id).sort());
    const [up] = await readCounters(t.kv, [keys.voteCount("question", questionId, "up")]);
    const voterKeys = await Array.fromAsync(
      t.kv.list({ prefix: keys.votesPrefix("question", questionId) }),
    );
    assert.equal(up, voterKeys.length, "the up counter equals the voter keys");
  } finally {
    await t.close();
  }
});

Deno.test("one user firing 20 vote toggles at once ends in a consistent state", async () => {
  const t = await createTestApp();
  try {
    const { voter, questionId } = await setup(t);
    const results = await Promise.all(
      Array.from(
        { length: 20 },
        (_, i) => like(t, voter, "question", questionId, i % 3 ? "up" : "down"),
      ),
    );
    assert.ok(results.every((r) => r.status === 200));
    const q = await voters(t, "question", questionId, questionId);
    const vote = voteOf((await t.kv.get(keys.vote("question", questionId, voter.id))).value)
      ?.voteType ?? null;
    // Counts agree with the one vote key, and the user is in at most one list.
    assert.equal(q.upvotes, vote === "up" ? 1 : 0);
    assert.equal(q.downvotes, vote === "down" ? 1 : 0);
    assert.deepEqual(q.likedBy, vote === "up" ? [voter.id] : []);
    assert.deepEqual(q.dislikedBy, vote === "down" ? [voter.id] : []);
    // Exactly one activity entry exists while a vote stands, none otherwise.
    const entries = await Array.fromAsync(t.kv.list({ prefix: keys.userVotesPrefix(voter.id) }));
    assert.equal(entries.length, vote ? 1 : 0);
  } finally {
    await t.close();
  }
});

Deno.test("votes write the voter's activity index and the author's upvotes_received", async () => {
  const t = await createTestApp();
  try {
    const { author, voter, questionId, messageId } = await setup(t);
    await like(t, voter, "question", questionId, "up");
    await like(t, voter, "message", messageId, "down");
    const list = (await Array.fromAsync(t.kv.list({ prefix: keys.userVotesPrefix(voter.id) })))
      .map((e) => userVoteOf(e.key, e.value)!);
    assert.deepEqual(
      list.map((v) => [v.targetType, v.targetId, v.voteType]),
      [["message", messageId, "down"], ["question", questionId, "up"]],
      "newest first",
    );
    const stat = async () =>
      counterValue((await t.kv.get(keys.userStat(author.id, "upvotes_received"))).value);
    assert.equal(await stat(), 1);
    await like(t, voter, "message", messageId, "up"); // switch down → up: +1
    assert.equal(await stat(), 2);
    await like(t, voter, "question", questionId, "down"); // switch up → down: −1
    assert.equal(await stat(), 1);
    await like(t, voter, "message", messageId, "up"); // unlike: −1
    assert.equal(await stat(), 0);
    const best = await readCounters(t.kv, [
      keys.userStat(author.id, "best_question_upvotes"),
      keys.userStat(author.id, "best_answer_upvotes"),
    ]);
    assert.deepEqual(best, [1, 1], "the peak stays after unvotes");
    const after = (await Array.fromAsync(t.kv.list({ prefix: keys.userVotesPrefix(voter.id) })))
      .map((e) => userVoteOf(e.key, e.value)!);
    assert.deepEqual(after.map((v) => [v.targetId, v.voteType]), [[
      questionId,
      "down",
    ]]);
  } finally {
    await t.close();
  }
});

Deno.test("120 distinct users voting at once are group-committed: counters exact, every answer has its own vote", async () => {
  const t = await createTestApp();
  try {
    const author = await publicVoter(t, "Author");
    const questionId = await ask(t, author, { title: "A crowd votes on this one" });
    const people = await Promise.all(
      Array.from({ length: 120 }, (_, i) => publicVoter(t, `C${i}`)),
    );
    // The first 40 had voted down before: their up is a switch.
    for (const p of people.slice(0, 40)) await like(t, p, "question", questionId, "down");
    const before = voteCommitStats(t.kv);
    const results = await Promise.all(people.map((p) => like(t, p, "question", questionId, "up")));
    const after = voteCommitStats(t.kv);
    for (const [i, r] of results.entries()) {
      assert.equal(r.status, 200);
      assert.equal(r.body.action, "liked");
      assert.equal(r.body.liked, true);
      assert.equal(r.body.downvoted, false);
      // Its own up is counted, nobody else's vote is invented.
      assert.ok(r.body.upvotes >= 1 && r.body.upvotes <= 120, `${r.body.upvotes}`);
      // A switcher's own down is gone from its answer.
      const most = i < 40 ? 39 : 40;
      assert.ok(r.body.downvotes >= 0 && r.body.downvotes <= most, `${r.body.downvotes}`);
    }
    const groups = after.groups - before.groups;
    assert.ok(groups < 120 && groups > 0, `${groups} commits for 120 votes`);
    const q = await voters(t, "question", questionId, questionId);
    assert.equal(q.upvotes, 120);
    assert.equal(q.downvotes, 0);
    assert.deepEqual([...q.likedBy].sort(), people.map((p) => p.id).sort());
    // Everyone again at once: all unliked, back to zero.
    const again = await Promise.all(people.map((p) => like(t, p, "question", questionId, "up")));
    for (const r of again) {
      assert.equal(r.body.action, "unliked");
      assert.equal(r.body.liked, false);
      assert.ok(r.body.upvotes >= 0 && r.body.upvotes <= 119, `${r.body.upvotes}`);
    }
    const [up, down, received, best] = await readCounters(t.kv, [
      keys.voteCount("question", questionId, "up"),
      keys.voteCount("question", questionId, "down"),
      keys.userStat(author.id, "upvotes_received"),
      keys.userStat(author.id, "best_question_upvotes"),
    ]);
    assert.deepEqual([up, down, received, best], [0, 0, 0, 120]);
    assert.equal(
      (await Array.fromAsync(t.kv.list({ prefix: keys.votesPrefix("question", questionId) })))
        .length,
      0,
    );
  } finally {
    await t.close();
  }
});

Deno.test("a crowd voting on several posts at once: each voter's budget counts every vote, counts exact", async () => {
  const t = await createTestApp();
  try {
    const author = await publicVoter(t, "Author");
    const ids = [
      await ask(t, author, { title: "First post to vote on" }),
      await ask(t, author, { title: "Second post to vote on" }),
      await ask(t, author, { title: "Third post to vote on" }),
    ];
    const people = await Promise.all(Array.from({ length: 40 }, (_, i) => publicVoter(t, `P${i}`)));
    // Each person votes on all three at once (one budget log each, shared by the three).
    const results = await Promise.all(
      people.flatMap((p) => ids.map((id) => like(t, p, "question", id, "up"))),
    );
    assert.ok(results.every((r) => r.status === 200 && r.body.action === "liked"));
    for (const id of ids) {
      const q = await voters(t, "question", id, id);
      assert.equal(q.upvotes, 40);
      assert.equal(q.likedBy.length, 40);
    }
    for (const p of people) {
      const log = await t.kv.get<HitLog>(keys.rateLimitLog("post_votes", p.id));
      assert.equal(loggedTimes(log.value).length, 3, `${p.name}: every vote spent from the budget`);
    }
  } finally {
    await t.close();
  }
});

Deno.test("one user's concurrent votes inside a crowd: the budget refuses exactly the ones over it", async () => {
  const t = await createTestApp({ env: { LIMIT_VOTES_PER_HOUR: "5" } });
  try {
    const author = await publicVoter(t, "Author");
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push(await ask(t, author, { title: `Budget post ${i}` }));
    const eager = await publicVoter(t, "Eager");
    const crowd = await Promise.all(Array.from({ length: 30 }, (_, i) => publicVoter(t, `K${i}`)));
    const [mine, others] = await Promise.all([
      Promise.all(ids.map((id) => like(t, eager, "question", id, "up"))),
      Promise.all(crowd.map((p) => like(t, p, "question", ids[0], "up"))),
    ]);
    assert.ok(others.every((r) => r.status === 200));
    assert.deepEqual(mine.map((r) => r.status).sort(), [200, 200, 200, 200, 200, 429, 429, 429]);
    const liked = mine.flatMap((r, i) => r.status === 200 ? [ids[i]] : []);
    for (const id of ids) {
      const q = await voters(t, "question", id, id);
      const mineHere = liked.includes(id) ? 1 : 0;
      assert.equal(q.upvotes, mineHere + (id === ids[0] ? 30 : 0));
    }
  } finally {
    await t.close();
  }
});

Deno.test("a user's double vote inside a crowd: one liked, one unliked, and the counts agree", async () => {
  const t = await createTestApp();
  try {
    const author = await publicVoter(t, "Author");
    const questionId = await ask(t, author, { title: "Double votes in a crowd" });
    const twice = await publicVoter(t, "Twice");
    const crowd = await Promise.all(Array.from({ length: 60 }, (_, i) => publicVoter(t, `D${i}`)));
    const [mine, others] = await Promise.all([
      Promise.all([0, 1].map(() => like(t, twice, "question", questionId, "up"))),
      Promise.all(crowd.map((p) => like(t, p, "question", questionId, "up"))),
    ]);
    assert.ok(others.every((r) => r.status === 200 && r.body.action === "liked"));
    assert.deepEqual(mine.map((r) => r.body.action).sort(), ["liked", "unliked"]);
    const unliked = mine.find((r) => r.body.action === "unliked")!;
    assert.equal(unliked.body.liked, false);
    const q = await voters(t, "question", questionId, questionId);
    assert.equal(q.upvotes, 60);
    assert.ok(!q.likedBy.includes(twice.id));
    const entries = await Array.fromAsync(t.kv.list({ prefix: keys.userVotesPrefix(twice.id) }));
    assert.equal(entries.length, 0);
    const log = await t.kv.get<HitLog>(keys.rateLimitLog("post_votes", twice.id));
    assert.equal(loggedTimes(log.value).length, 2, "both votes spent from the budget");
  } finally {
    await t.close();
  }
});
