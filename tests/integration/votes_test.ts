/**
 * Votes through POST /api/likes and the agent vote endpoint: every row of SPEC.md's vote
 * table on questions and messages, errors, concurrency, and the statistics and activity
 * rows written with each vote.
 */
import assert from "node:assert/strict";
import { counterValue, readCounters } from "@/lib/kv/atomic.ts";
import { keys } from "@/lib/kv/keys.ts";
import { type UserVoteEntry, type VoteResult } from "@/lib/community/votes.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { answer, ask, getAs, json, type Member, member, postAs } from "../helpers/community.ts";

type Target = "question" | "message";

async function setup(t: TestApp) {
  const author = await member(t, "Author");
  const voter = await member(t, "Voter");
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
    const author = await member(t, "Author");
    const questionId = await ask(t, author, { title: "A very hot question" });
    const people = await Promise.all(Array.from({ length: 200 }, (_, i) => member(t, `V${i}`)));
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
    const vote = (await t.kv.get<{ voteType: string }>(keys.vote("question", questionId, voter.id)))
      .value?.voteType ?? null;
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
    const list = await Array.fromAsync(
      t.kv.list<UserVoteEntry>({ prefix: keys.userVotesPrefix(voter.id) }),
    );
    assert.deepEqual(
      list.map((e) => [e.value.targetType, e.value.targetId, e.value.voteType]),
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
    const after = await Array.fromAsync(
      t.kv.list<UserVoteEntry>({ prefix: keys.userVotesPrefix(voter.id) }),
    );
    assert.deepEqual(after.map((e) => [e.value.targetId, e.value.voteType]), [[
      questionId,
      "down",
    ]]);
  } finally {
    await t.close();
  }
});
