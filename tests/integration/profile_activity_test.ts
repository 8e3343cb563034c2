/**
 * Profiles through the real app: activity of each kind (shape, order, paging), the
 * statistics and badges kept by the writes, public profiles, and privacy.
 */
import assert from "node:assert/strict";
import { createTestApp, jsonWrite, type TestApp } from "../helpers/app.ts";
import { seedFinishedDebate } from "../helpers/debates.ts";
import { answer, ask, getAs, json, type Member, member, postAs } from "../helpers/community.ts";

/** A clock that moves one second per reading, so every write has its own time. */
function steppingClock(start = 1_800_000_000_000) {
  let t = start;
  return () => (t += 1000);
}

const seedDebate = (t: TestApp, userId: string, topic: string, winner: "user" | "tie") =>
  seedFinishedDebate(t.kv, userId, topic, { at: t.services.now(), winner });

async function activity(t: TestApp, who: Member | null, path: string) {
  return await json<
    { activities: Record<string, unknown>[]; hasMore: boolean; nextCursor: string | null }
  >(
    getAs(t, who, path),
  );
}

Deno.test("activity: questions and answers, newest first, in SPEC's shapes", async () => {
  const t = await createTestApp({ now: steppingClock() });
  try {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const q1 = await ask(t, ada, { title: "First question", description: "One", tags: ["x"] });
    const q2 = await ask(t, ada, { title: "Second question", tags: [] });
    const m1 = await answer(t, ada, q2, "An **answer**");
    await postAs(t, bob, "/api/likes", { targetId: q1, targetType: "question", voteType: "up" });
    await postAs(t, bob, "/api/likes", { targetId: m1, targetType: "message", voteType: "up" });

    const qs = await activity(t, ada, "/api/profile/activity?type=questions");
    assert.equal(qs.status, 200);
    assert.deepEqual(qs.body.activities.map((a) => a.id), [q2, q1]);
    const first = qs.body.activities[1];
    assert.deepEqual(Object.keys(first).sort(), [
      "answerCount",
      "createdAt",
      "description",
      "id",
      "messageCount",
      "tags",
      "title",
      "upvotes",
    ]);
    assert.equal(first.upvotes, 1);
    assert.deepEqual(first.tags, ["x"]);
    assert.equal(qs.body.activities[0].messageCount, 1);
    assert.equal(qs.body.hasMore, false);

    const as = await activity(t, ada, "/api/profile/activity?type=answers");
    assert.deepEqual(as.body.activities, [{
      id: m1,
      content: "An **answer**",
      questionId: q2,
      questionTitle: "Second question",
      createdAt: as.body.activities[0].createdAt,
      upvotes: 1,
    }]);
    assert.equal(typeof as.body.activities[0].createdAt, "number");
  } finally {
    await t.close();
  }
});

Deno.test("activity: likes and favorites embed the target; debates list the outcome", async () => {
  const t = await createTestApp({ now: steppingClock() });
  try {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const q = await ask(t, ada, {
      title: "Is KV fast?",
      description: "Asking for *speed*.",
      tags: ["kv"],
    });
    const m = await answer(t, ada, q, "Yes, with per-voter keys.");
    await postAs(t, bob, "/api/likes", { targetId: q, targetType: "question", voteType: "down" });
    await postAs(t, bob, "/api/likes", { targetId: m, targetType: "message" });
    await postAs(t, bob, "/api/favorites", { targetId: m, targetType: "message" });
    await postAs(t, bob, "/api/favorites", { targetId: q, targetType: "question" });
    const d1 = await seedDebate(t, bob.id, "Cats or dogs?", "user");
    const d2 = await seedDebate(t, bob.id, "Tabs or spaces?", "tie");

    const likes = await activity(t, bob, "/api/profile/activity?type=likes");
    assert.deepEqual(likes.body.activities.map((a) => [a.targetType, a.targetId, a.voteType]), [
      ["message", m, "up"],
      ["question", q, "down"],
    ]);
    const likedMessage = likes.body.activities[0].target as Record<string, unknown>;
    assert.equal(likedMessage.title, "Is KV fast?");
    assert.equal(likedMessage.excerpt, "Yes, with per-voter keys.");
    assert.equal(likedMessage.url, `/questions/${q}#${m}`);
    // SPEC: "plus the target's full content" — the whole text, not only the excerpt.
    assert.equal(likedMessage.content, "Yes, with per-voter keys.");
    assert.deepEqual(likedMessage.tags, ["kv"]);

    const favs = await activity(t, bob, "/api/profile/activity?type=favorites");
    assert.deepEqual(favs.body.activities.map((a) => a.targetId), [q, m]);
    const favQuestion = favs.body.activities[0].target as Record<string, unknown>;
    assert.equal(favQuestion.excerpt, "Asking for speed.");
    assert.equal(favQuestion.content, "Asking for *speed*.");
    assert.deepEqual(favQuestion.tags, ["kv"]);
    assert.equal(typeof favs.body.activities[0].createdAt, "number");

    const debates = await activity(t, bob, "/api/profile/activity?type=debates");
    assert.deepEqual(
      debates.body.activities.map((a) => [a.id, a.topic, a.opponentName, a.status, a.winner]),
      [
        [d2, "Tabs or spaces?", "Dr. Opponent", "completed", "tie"],
        [d1, "Cats or dogs?", "Dr. Opponent", "completed", "user"],
      ],
    );
  } finally {
    await t.close();
  }
});

Deno.test("activity: a liked or favorited long post arrives whole, not as its 200-character excerpt", async () => {
  const t = await createTestApp({ now: steppingClock() });
  try {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const paragraph = "Deno KV pages with cursors; each page resumes after the last key. ";
    const longDescription = paragraph.repeat(60).trim(); // ~4,000 characters
    const longAnswer = `${paragraph.repeat(120).trim()}\n\n**The end.**`; // ~8,000 characters
    const q = await ask(t, ada, { title: "A long question", description: longDescription });
    const m = await answer(t, ada, q, longAnswer);
    await postAs(t, bob, "/api/likes", { targetId: m, targetType: "message" });
    await postAs(t, bob, "/api/favorites", { targetId: q, targetType: "question" });

    const likes = await activity(t, bob, "/api/profile/activity?type=likes");
    const liked = likes.body.activities[0].target as { content: string; excerpt: string };
    assert.equal(liked.content, longAnswer);
    assert.ok(liked.excerpt.length <= 201, `excerpt ${liked.excerpt.length}`);
    const favs = await activity(t, bob, "/api/profile/activity?type=favorites");
    const fav = favs.body.activities[0].target as { content: string };
    assert.equal(fav.content, longDescription);
    // Others see the same item when the setting is public (favorites are by default).
    const pub = await activity(t, null, `/api/profile/public/${bob.id}/activity?type=favorites`);
    assert.equal(pub.status, 200);
    assert.equal((pub.body.activities[0].target as { content: string }).content, longDescription);
  } finally {
    await t.close();
  }
});

Deno.test("activity pages with a cursor and hasMore; bad queries are 400", async () => {
  const t = await createTestApp({ now: steppingClock() });
  try {
    const ada = await member(t, "Ada");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await ask(t, ada, { title: `Question ${i}` }));
    const p1 = await activity(t, ada, "/api/profile/activity?type=questions&limit=2");
    assert.deepEqual(p1.body.activities.map((a) => a.id), [ids[4], ids[3]]);
    assert.equal(p1.body.hasMore, true);
    const p2 = await activity(
      t,
      ada,
      `/api/profile/activity?type=questions&limit=2&cursor=${
        encodeURIComponent(p1.body.nextCursor!)
      }`,
    );
    assert.deepEqual(p2.body.activities.map((a) => a.id), [ids[2], ids[1]]);
    const p3 = await activity(
      t,
      ada,
      `/api/profile/activity?type=questions&limit=2&cursor=${
        encodeURIComponent(p2.body.nextCursor!)
      }`,
    );
    assert.deepEqual(p3.body.activities.map((a) => a.id), [ids[0]]);
    assert.equal(p3.body.hasMore, false);
    assert.equal(p3.body.nextCursor, null);

    for (const q of ["type=posts", "", "type=questions&limit=0", "type=questions&limit=51"]) {
      const res = await getAs(t, ada, `/api/profile/activity?${q}`);
      assert.equal(res.status, 400, q);
      const body = await res.json();
      assert.equal(body.error, "Invalid activity query");
      assert.ok(Array.isArray(body.issues));
    }
    const bogusCursor = await getAs(t, ada, "/api/profile/activity?type=questions&cursor=%%%");
    assert.equal(bogusCursor.status, 400);
    assert.deepEqual(await bogusCursor.json(), { error: "Invalid cursor" });
    assert.equal((await getAs(t, null, "/api/profile/activity?type=questions")).status, 401);
  } finally {
    await t.close();
  }
});

Deno.test("stats: counters move with each write and give the contribution score", async () => {
  const t = await createTestApp({ now: steppingClock() });
  try {
    const ada = await member(t, "Ada");
    const voters = await Promise.all(Array.from({ length: 10 }, (_, i) => member(t, `V${i}`)));
    const q = await ask(t, ada, { title: "Score me" });
    const m = await answer(t, ada, q, "An answer worth ten votes");
    for (const v of voters) {
      await postAs(t, v, "/api/likes", { targetId: m, targetType: "message" });
    }
    await postAs(t, voters[0], "/api/likes", { targetId: q, targetType: "question" });
    await postAs(t, voters[1], "/api/favorites", { targetId: q, targetType: "question" });
    await seedDebate(t, ada.id, "A debate", "user");

    const stats = await json<Record<string, unknown>>(getAs(t, ada, "/api/profile/stats"));
    assert.equal(stats.status, 200);
    const { badges, ...figures } = stats.body as { badges: Record<string, unknown>[] };
    assert.deepEqual(figures, {
      questionsCount: 1,
      answersCount: 1,
      debatesCount: 1,
      upvotesReceived: 11,
      favoritesReceived: 1,
      contributionScore: 5 + 3 + 11 + 10,
    });
    const earned = badges.filter((b) => b.earned).map((b) => b.id).sort();
    assert.deepEqual(earned, ["debater", "first-question", "helpful-answer"]);
    const helpful = badges.find((b) => b.id === "helpful-answer")!;
    assert.equal(typeof helpful.earnedAt, "number");
    const prolific = badges.find((b) => b.id === "prolific")!;
    assert.deepEqual(prolific.progress, { current: 1, target: 100 });

    // Undoing an upvote moves the score but keeps an earned badge.
    await postAs(t, voters[9], "/api/likes", { targetId: m, targetType: "message" });
    const after = await json<Record<string, unknown>>(getAs(t, ada, "/api/profile/stats"));
    assert.equal(after.body.upvotesReceived, 10);
    assert.equal(after.body.contributionScore, 28);
    assert.ok(
      (after.body.badges as Record<string, unknown>[]).find((b) => b.id === "helpful-answer")!
        .earned,
    );
    assert.equal((await getAs(t, null, "/api/profile/stats")).status, 401);
  } finally {
    await t.close();
  }
});

Deno.test("public profile: profile, stats, badges, recent items — never email or tokens", async () => {
  const t = await createTestApp({ now: steppingClock() });
  try {
    const ada = await member(t, "Ada");
    await t.request("/api/profile/me", {
      method: "PATCH",
      headers: jsonWrite(t, ada.cookie),
      body: JSON.stringify({
        displayName: "Ada L",
        bio: "Engines",
        coverUrl: "https://img.example/c.png",
      }),
    });
    const q = await ask(t, ada, { title: "Analytical engines?" });
    await answer(t, ada, q, "Self-answer");
    const res = await json<Record<string, unknown>>(
      getAs(t, null, `/api/profile/public/${ada.id}`),
    );
    assert.equal(res.status, 200);
    const p = res.body;
    assert.equal(p.userId, ada.id);
    assert.equal(p.displayName, "Ada L");
    assert.equal(p.bio, "Engines");
    assert.equal(p.coverUrl, "https://img.example/c.png");
    assert.equal((p.stats as Record<string, number>).questionsCount, 1);
    assert.equal((p.badges as unknown[]).length, 6);
    assert.deepEqual((p.recentQuestions as { id: string }[]).map((x) => x.id), [q]);
    assert.equal((p.recentAnswers as unknown[]).length, 1);
    const text = JSON.stringify(p);
    assert.doesNotMatch(text, /email|token|@/i);

    const missing = await getAs(t, null, "/api/profile/public/u_nobody");
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), { error: "User not found" });
    const page = await getAs(t, null, "/u/u_nobody");
    assert.equal(page.status, 404);
    assert.match(await page.text(), /Page not found/);
    const html = await (await getAs(t, null, `/u/${ada.id}`)).text();
    assert.match(html, /Ada L/);
    assert.match(html, /Analytical engines\?/);
    assert.match(html, /First Question/);
  } finally {
    await t.close();
  }
});

Deno.test("privacy: 'Activity feed: Only me' hides every kind from others; vote history and debate archive hide their own kind", async () => {
  const t = await createTestApp({ now: steppingClock() });
  try {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const q = await ask(t, bob, { title: "Bob's question" });
    await answer(t, ada, q, "Ada's answer");
    await ask(t, ada, { title: "Ada's question" });
    await postAs(t, ada, "/api/likes", { targetId: q, targetType: "question" });
    await postAs(t, ada, "/api/favorites", { targetId: q, targetType: "question" });
    await seedDebate(t, ada.id, "Ada's debate", "tie");

    const seenBy = async (viewer: Member | null, type: string) =>
      (await getAs(t, viewer, `/api/profile/public/${ada.id}/activity?type=${type}`)).status;
    const set = async (settings: Record<string, string>) => {
      const res = await t.request("/api/profile/settings", {
        method: "PUT",
        headers: jsonWrite(t, ada.cookie),
        body: JSON.stringify(settings),
      });
      assert.equal(res.status, 200);
    };
    const all = ["questions", "answers", "debates", "likes", "favorites"];

    await set({ activityVisibility: "public", voteHistory: "public", debateArchive: "public" });
    for (const type of all) assert.equal(await seenBy(bob, type), 200, `public ${type}`);

    // The activity feed private: nothing of it for others, signed in or not.
    await set({ activityVisibility: "private" });
    for (const type of all) {
      const res = await getAs(t, bob, `/api/profile/public/${ada.id}/activity?type=${type}`);
      assert.equal(res.status, 403, `private ${type}`);
      assert.deepEqual(await res.json(), { error: "This activity is private" });
      assert.equal(await seenBy(null, type), 403, `private ${type} when signed out`);
      assert.equal(await seenBy(ada, type), 200, `the owner still sees ${type}`);
    }
    const pub = await json<Record<string, unknown>>(getAs(t, bob, `/api/profile/public/${ada.id}`));
    assert.deepEqual(pub.body.visibleActivity, {
      questions: false,
      answers: false,
      debates: false,
      likes: false,
      favorites: false,
    });
    assert.deepEqual([pub.body.recentQuestions, pub.body.recentAnswers], [[], []]);
    // The posts themselves stay public where they were posted.
    const thread = await json<{ messages: { content: string }[] }>(
      getAs(t, null, `/api/questions/${q}`),
    );
    assert.ok(thread.body.messages.some((m) => m.content === "Ada's answer"));

    // The feed public again, vote history and debate archive private: only those kinds hide.
    await set({ activityVisibility: "public", voteHistory: "private", debateArchive: "private" });
    for (const type of ["questions", "answers", "favorites"]) {
      assert.equal(await seenBy(bob, type), 200, type);
    }
    assert.equal(await seenBy(bob, "likes"), 403);
    assert.equal(await seenBy(bob, "debates"), 403);
    const html = await (await getAs(t, bob, `/u/${ada.id}?tab=likes`)).text();
    assert.match(html, /keeps this activity private/);
    assert.doesNotMatch(html, /Bob&#39;s question|Bob's question/);
    await set({ voteHistory: "public" });
    assert.equal(await seenBy(bob, "likes"), 200);
    assert.equal(await seenBy(bob, "debates"), 403);
  } finally {
    await t.close();
  }
});

Deno.test("activity pages link back to the newest and shrug off a stale cursor", async () => {
  // About paging, not the hourly posting limit (tests/integration/limits_test.ts).
  const t = await createTestApp({ now: steppingClock(), env: { LIMIT_QUESTIONS_PER_HOUR: "0" } });
  try {
    const ada = await member(t, "Ada");
    for (let i = 0; i < 25; i++) await ask(t, ada, { title: `Question number ${i}` });
    const first = await (await getAs(t, null, `/u/${ada.id}?tab=questions`)).text();
    assert.match(first, /Question number 24/);
    assert.doesNotMatch(first, /Newest questions/);
    const next = /href="([^"]*cursor=[^"]*)"/.exec(first)?.[1].replace(/&amp;/g, "&");
    assert.ok(next, "an Older link");
    const second = await (await getAs(t, null, next!)).text();
    assert.match(second, /Question number 4\b/);
    assert.doesNotMatch(second, /Question number 24/);
    assert.match(second, /Newest questions/);
    for (
      const path of [
        `/u/${ada.id}?tab=questions&cursor=bogus`,
        "/profile?tab=questions&cursor=bogus",
      ]
    ) {
      const res = await getAs(t, ada, path);
      assert.equal(res.status, 200, path);
      assert.match(await res.text(), /Question number 24/, `${path} shows the newest page`);
    }
  } finally {
    await t.close();
  }
});
