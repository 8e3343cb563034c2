/**
 * The people API for questions and messages: creation rules, threads with replies, the
 * feed (new, hot, search, tag, pages), and the per-author indexes and statistics.
 */
import assert from "node:assert/strict";
import { counterValue } from "@/lib/kv/atomic.ts";
import { keys } from "@/lib/kv/keys.ts";
import { readUserStats } from "@/lib/profile/user_stats.ts";
import { createTestApp } from "../helpers/app.ts";
import { answer, ask, getAs, json, member, postAs } from "../helpers/community.ts";

interface Page {
  questions: { id: string; title: string; upvotes: number; messageCount: number }[];
  total: number | null;
  page: number;
  limit: number;
  hasMore: boolean;
}

Deno.test("POST /api/questions: created with the profile as author, validated field by field", async () => {
  const t = await createTestApp({ now: () => 1_700_000_000_000 });
  try {
    const ada = await member(t, "Ada");
    const created = await json(postAs(t, ada, "/api/questions", {
      title: "  Why are KV sums conflict-free? ",
      description: "I read *DESIGN.md*.",
      tags: [" kv ", "", "KV", "deno"],
    }));
    assert.equal(created.status, 201);
    assert.match(created.body.id as string, /^q-[a-z0-9]+$/);
    assert.deepEqual({ ...created.body, id: "" }, {
      id: "",
      title: "Why are KV sums conflict-free?",
      description: "I read *DESIGN.md*.",
      tags: ["kv", "deno"],
      author: { id: ada.id, name: "Ada", avatar: "" },
      createdBy: "user",
      createdAt: 1_700_000_000_000,
      status: "active",
      discussionRounds: 0,
      upvotes: 0,
      downvotes: 0,
      likedBy: [],
      dislikedBy: [],
      messageCount: 0,
      answerCount: 0,
      acceptedMessageId: null,
      editedAt: null,
      // Ada signed up today with nothing up-voted yet: a new account, whose links carry
      // rel="ugc nofollow" (as `standIn`, present only when true).
      newAccount: true,
    });

    const bad = async (body: unknown, error: string, status = 400) => {
      const r = await json(postAs(t, ada, "/api/questions", body));
      assert.deepEqual([r.status, r.body.error], [status, error], JSON.stringify(body));
      if (status === 400 && r.body.issues) assert.ok(Array.isArray(r.body.issues));
    };
    await bad({}, "Titles need 2 to 120 characters.");
    await bad({ title: " a " }, "Titles need 2 to 120 characters; this one has 1.");
    await bad({ title: "x".repeat(121) }, "Titles need 2 to 120 characters; this one has 121.");
    await bad({ title: "ok", tags: [1] }, "Each tag must be text.");
    // Any number of tags may be sent (the first 5 are kept): tests/integration/lifecycle_test.ts.
    await bad(
      { title: "ok", description: "x".repeat(10_001) },
      "Details can have at most 10,000 characters; these have 10,001.",
    );
    await bad("nope", "Invalid JSON body");
    const anon = await json(postAs(t, null, "/api/questions", { title: "Anonymous?" }));
    assert.deepEqual([anon.status, anon.body], [401, { error: "Unauthorized" }]);
    assert.equal(counterValue((await t.kv.get(keys.counter("questions"))).value), 1);
  } finally {
    await t.close();
  }
});

Deno.test("messages: answers and replies in thread order; replyTo must belong to the question", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const qid = await ask(t, ada, { title: "Threaded?" });
    const a1 = await answer(t, bob, qid, "First");
    const a2 = await answer(t, ada, qid, "Second");
    const r1 = await answer(t, ada, qid, "Reply to first", a1);
    const q = await json<{ messageCount: number; messages: Record<string, unknown>[] }>(
      getAs(t, null, `/api/questions/${qid}`),
    );
    assert.equal(q.body.messageCount, 3);
    // Each answer is followed by its replies (the default order is by votes, ties oldest first).
    assert.deepEqual(q.body.messages.map((m) => [m.id, m.replyTo ?? null]), [
      [a1, null],
      [r1, a1],
      [a2, null],
    ]);
    assert.deepEqual(
      [q.body.messages[0].authorType, q.body.messages[0].createdBy, q.body.messages[0].questionId],
      ["user", "user", qid],
    );

    const other = await ask(t, ada, { title: "Another one" });
    const bad = await json(postAs(t, ada, `/api/questions/${other}/messages`, {
      content: "cross-thread",
      replyTo: a1,
    }));
    assert.deepEqual([bad.status, bad.body.error], [
      400,
      "replyTo must be a message of this question",
    ]);
    const missing = await json(postAs(t, ada, `/api/questions/q-none/messages`, { content: "x" }));
    assert.deepEqual([missing.status, missing.body.error], [404, "Question not found"]);
    const empty = await json(postAs(t, ada, `/api/questions/${qid}/messages`, { content: "   " }));
    assert.deepEqual([empty.status, empty.body.error], [
      400,
      "Write something first: an empty answer can't be posted.",
    ]);
    const long = await json(
      postAs(t, ada, `/api/questions/${qid}/messages`, { content: "x".repeat(10_001) }),
    );
    // Refused in a sentence that says by how much — never cut and stored.
    assert.deepEqual([long.status, long.body.error], [
      400,
      "Answers and replies can have at most 10,000 characters; this one has 10,001.",
    ]);
    const anon = await json(postAs(t, null, `/api/questions/${qid}/messages`, { content: "hi" }));
    assert.equal(anon.status, 401);
    assert.equal((await getAs(t, null, "/api/questions/q-none")).status, 404);
    // Failures wrote nothing.
    assert.equal(counterValue((await t.kv.get(keys.messageCount(other))).value), 0);
  } finally {
    await t.close();
  }
});

Deno.test("per-author indexes and statistics are written with questions and answers", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const q1 = await ask(t, ada, { title: "First question" });
    const q2 = await ask(t, ada, { title: "Second question" });
    const m1 = await answer(t, ada, q1, "An answer");
    const qs = await Array.fromAsync(
      t.kv.list<string>({ prefix: keys.questionsByAuthorPrefix(ada.id) }),
    );
    assert.deepEqual(qs.map((e) => e.value), [q2, q1], "newest first");
    const ms = await Array.fromAsync(
      t.kv.list<string>({ prefix: keys.messagesByAuthorPrefix(ada.id) }),
    );
    assert.deepEqual(ms.map((e) => [e.key[3], e.value]), [[m1, q1]], "the key names the answer");
    const [nq, na] = await Promise.all([
      t.kv.get(keys.userStat(ada.id, "questions")),
      t.kv.get(keys.userStat(ada.id, "answers")),
    ]);
    assert.deepEqual([counterValue(nq.value), counterValue(na.value)], [2, 1]);
  } finally {
    await t.close();
  }
});

Deno.test("feed: new pages, tag filter (case-insensitive), search, hot, validation", async () => {
  let clock = 1_700_000_000_000;
  // About the feed, not the hourly posting limit (tests/integration/limits_test.ts).
  const t = await createTestApp({ now: () => clock, env: { LIMIT_QUESTIONS_PER_HOUR: "0" } });
  try {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      clock += 1000;
      ids.push(
        await ask(t, ada, {
          title: i === 3 ? "Hydration of Preact islands" : `Plain question ${i}`,
          description: i === 7 ? "Talks about FoundationDB storage" : "",
          tags: i % 5 === 0 ? ["Deno"] : ["misc"],
        }),
      );
    }
    const feed = (q: string) =>
      json<Page & { error?: string }>(getAs(t, null, `/api/questions${q}`));

    let r = await feed("");
    assert.deepEqual([r.body.total, r.body.page, r.body.limit, r.body.hasMore], [25, 1, 20, true]);
    assert.equal(r.body.questions[0].id, ids[24]);
    r = await feed("?page=2");
    assert.deepEqual(r.body.questions.map((q) => q.id), ids.slice(0, 5).reverse());
    assert.equal(r.body.hasMore, false);
    r = await feed("?page=9");
    assert.deepEqual([r.body.questions.length, r.body.total], [0, 25]);

    r = await feed("?tag=deno");
    assert.deepEqual(r.body.questions.map((q) => q.id), [
      ids[20],
      ids[15],
      ids[10],
      ids[5],
      ids[0],
    ]);
    assert.equal(r.body.total, 5);
    r = await feed("?tag=DENO&limit=2&page=3");
    assert.deepEqual(r.body.questions.map((q) => q.id), [ids[0]]);

    // Search: a title word prefix, a description word, several words, nothing.
    r = await feed("?q=hydrat");
    assert.deepEqual(r.body.questions.map((q) => q.id), [ids[3]]);
    r = await feed("?q=foundationdb");
    assert.deepEqual(r.body.questions.map((q) => q.id), [ids[7]]);
    r = await feed("?q=preact%20islands");
    assert.deepEqual(r.body.questions.map((q) => q.id), [ids[3]]);
    // With sort=new the matches come newest first (without it, by relevance).
    r = await feed("?q=plain%20question&tag=deno&limit=50&sort=new");
    assert.deepEqual(r.body.questions.map((q) => q.id), [
      ids[20],
      ids[15],
      ids[10],
      ids[5],
      ids[0],
    ]);
    r = await feed("?q=zebra");
    assert.deepEqual([r.body.questions, r.body.total, r.body.hasMore], [[], 0, false]);

    // Hot: activity lifts an older question above newer quiet ones.
    await postAs(t, bob, "/api/likes", { targetId: ids[2], targetType: "question" });
    await answer(t, bob, ids[2], "Busy");
    await answer(t, ada, ids[2], "Busier");
    clock += 3_600_000;
    r = await feed("?sort=hot&limit=3");
    assert.equal(r.body.questions[0].id, ids[2]);
    assert.deepEqual([r.body.questions[0].upvotes, r.body.questions[0].messageCount], [1, 2]);
    assert.equal(r.body.questions[1].id, ids[24], "then by recency");

    for (
      const [q, error] of [
        ["?sort=top", 'sort must be "new", "hot" or "relevance"'],
        ["?page=0", "page must be an integer of at least 1"],
        ["?limit=abc", "limit must be an integer of at least 1"],
        ["?limit=1.5", "limit must be an integer of at least 1"],
        ["?limit=9007199254740992", "limit is too large"],
        ["?page=99999999999", "page is too large"],
        [`?q=${"x".repeat(201)}`, "q must be at most 200 characters"],
      ]
    ) {
      const e = await feed(q);
      assert.deepEqual([e.status, e.body.error], [400, error], q);
    }
    r = await feed("?limit=1000");
    assert.equal(r.body.limit, 50);
  } finally {
    await t.close();
  }
});

Deno.test("racing question creations all succeed and keep the sequence dense", async () => {
  const t = await createTestApp({ env: { LIMIT_QUESTIONS_PER_HOUR: "0" } });
  try {
    const ada = await member(t, "Ada");
    const ids = await Promise.all(
      Array.from({ length: 40 }, (_, i) => ask(t, ada, { title: `Race ${i}`, tags: ["race"] })),
    );
    assert.equal(new Set(ids).size, 40);
    const seq = await Array.fromAsync(
      t.kv.list<string>({ prefix: keys.questionsBySeqPrefix() }),
    );
    assert.deepEqual(seq.map((e) => e.key[1]), Array.from({ length: 40 }, (_, i) => i + 1));
    assert.deepEqual(new Set(seq.map((e) => e.value)), new Set(ids), "each row holds an id");
    const tagged = await Array.fromAsync(t.kv.list({ prefix: ["questions_by_tag", "race"] }));
    assert.equal(tagged.length, 40);
    const page = await json<Page>(getAs(t, null, "/api/questions?tag=race&limit=50"));
    assert.equal(page.body.total, 40);
    const stats = await readUserStats(t.kv, ada.id);
    assert.equal(stats.questions, 40);
  } finally {
    await t.close();
  }
});
