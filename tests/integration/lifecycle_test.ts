/**
 * Content lifecycle (docs/interface.md#content-lifecycle): edit with revisions, soft delete, accepted
 * answer, answer order, the unanswered filter, no self-votes, canonical tags and one
 * definition of "answers" — all through the HTTP surface over real KV.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  agentCall,
  agentKey,
  answer,
  ask,
  getAs,
  json,
  member,
  postAs,
  sendAs,
} from "../helpers/community.ts";

type Json = Record<string, unknown>;
type Msg = { id: string; content: string; replyTo?: string; deleted?: true; author: Json };

async function feedIds(t: TestApp, query: string): Promise<{ ids: string[]; total: number }> {
  const { body } = await json<{ questions: { id: string }[]; total: number }>(
    t.request(`/api/questions?${query}`),
  );
  return { ids: body.questions.map((q) => q.id), total: body.total };
}

async function withApp(fn: (t: TestApp) => Promise<void>, env: Record<string, string> = {}) {
  const t = await createTestApp({ env });
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

Deno.test("edit: only the author edits a question or message (403 for others, 404 for unknown); the answer carries editedAt", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const q = await ask(t, ada, { title: "Original title", description: "First text" });
    const m = await answer(t, bob, q, "First answer");

    const fresh = await json(getAs(t, null, `/api/questions/${q}`));
    assert.equal(fresh.body.editedAt, null);
    assert.equal((fresh.body.messages as Json[])[0].editedAt, null);

    const denied = await json(sendAs(t, bob, "PATCH", `/api/questions/${q}`, { title: "Hijack" }));
    assert.equal(denied.status, 403);
    assert.deepEqual(denied.body, { error: "Only the author can edit this" });
    const deniedMsg = await json(
      sendAs(t, ada, "PATCH", `/api/messages/${m}`, { content: "Not mine" }),
    );
    assert.equal(deniedMsg.status, 403);
    assert.equal(deniedMsg.body.error, "Only the author can edit this");
    assert.equal(
      (await sendAs(t, ada, "PATCH", "/api/questions/q-nope", { title: "x y" })).status,
      404,
    );
    assert.equal(
      (await sendAs(t, bob, "PATCH", "/api/messages/msg-nope", { content: "x" })).status,
      404,
    );
    // The creation rules validate.
    assert.equal(
      (await sendAs(t, ada, "PATCH", `/api/questions/${q}`, { title: "x" })).status,
      400,
    );
    assert.equal((await sendAs(t, ada, "PATCH", `/api/questions/${q}`, {})).status, 400);
    assert.equal(
      (await sendAs(t, bob, "PATCH", `/api/messages/${m}`, { content: " " })).status,
      400,
    );
    // Signed out: 401.
    const anon = await t.request(`/api/messages/${m}`, {
      method: "PATCH",
      headers: { origin: t.services.config.appOrigin, "content-type": "application/json" },
      body: JSON.stringify({ content: "x" }),
    });
    assert.equal(anon.status, 401);

    const edited = await json(
      sendAs(t, ada, "PATCH", `/api/questions/${q}`, { title: "Better title" }),
    );
    assert.equal(edited.status, 200);
    assert.equal(edited.body.title, "Better title");
    assert.equal(edited.body.description, "First text");
    assert.equal(typeof edited.body.editedAt, "number");
    const editedMsg = await json(
      sendAs(t, bob, "PATCH", `/api/messages/${m}`, { content: "Better answer" }),
    );
    assert.equal(editedMsg.status, 200);
    assert.equal(editedMsg.body.content, "Better answer");
    assert.equal(typeof editedMsg.body.editedAt, "number");
    const page = await json(getAs(t, null, `/api/questions/${q}`));
    assert.equal(page.body.title, "Better title");
    const [msg] = page.body.messages as Json[];
    assert.equal(msg.content, "Better answer");
    assert.equal(typeof msg.editedAt, "number");
  });
});

Deno.test("revisions: newest first, revision 1 is the original, each a full version", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const q = await ask(t, ada, { title: "Version one", description: "d1", tags: ["a"] });
    const m = await answer(t, ada, q, "c1");
    const before = await json<{ revisions: Json[] }>(
      getAs(t, null, `/api/questions/${q}/revisions`),
    );
    assert.equal(before.body.revisions.length, 1);
    assert.equal(before.body.revisions[0].revision, 1);
    assert.equal(before.body.revisions[0].title, "Version one");

    await sendAs(t, ada, "PATCH", `/api/questions/${q}`, { title: "Version two" });
    // An edit that changes nothing adds no revision.
    await sendAs(t, ada, "PATCH", `/api/questions/${q}`, { title: "Version two" });
    await sendAs(t, ada, "PATCH", `/api/questions/${q}`, { description: "d3", tags: ["b"] });
    const revs = await json<{ revisions: Json[] }>(getAs(t, null, `/api/questions/${q}/revisions`));
    assert.deepEqual(revs.body.revisions.map((r) => [r.revision, r.title, r.description, r.tags]), [
      [3, "Version two", "d3", ["b"]],
      [2, "Version two", "d1", ["a"]],
      [1, "Version one", "d1", ["a"]],
    ]);
    for (const r of revs.body.revisions) {
      assert.deepEqual(r.editedBy, { id: ada.id, name: "Ada" });
      assert.equal(typeof r.editedAt, "number");
    }

    await sendAs(t, ada, "PATCH", `/api/messages/${m}`, { content: "c2" });
    const mr = await json<{ revisions: Json[] }>(getAs(t, null, `/api/messages/${m}/revisions`));
    assert.deepEqual(mr.body.revisions.map((r) => [r.revision, r.content]), [[2, "c2"], [1, "c1"]]);
    assert.equal((await getAs(t, null, "/api/messages/msg-nope/revisions")).status, 404);
  });
});

Deno.test("edit of title and tags moves the search postings and tag feeds at once", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const q = await ask(t, ada, { title: "Hydration mismatch", tags: ["preact", "ssr"] });
    assert.deepEqual((await feedIds(t, "q=hydration")).ids, [q]);
    assert.deepEqual((await feedIds(t, "tag=preact")).ids, [q]);

    await sendAs(t, ada, "PATCH", `/api/questions/${q}`, {
      title: "Streaming responses",
      tags: ["deno", "ssr"],
    });
    assert.deepEqual((await feedIds(t, "q=hydration")).ids, []);
    assert.deepEqual((await feedIds(t, "q=streaming")).ids, [q]);
    assert.deepEqual((await feedIds(t, "q=stream")).ids, [q], "title prefixes are indexed too");
    const preact = await feedIds(t, "tag=preact");
    assert.deepEqual(preact, { ids: [], total: 0 });
    assert.deepEqual(await feedIds(t, "tag=deno"), { ids: [q], total: 1 });
    assert.deepEqual(await feedIds(t, "tag=ssr"), { ids: [q], total: 1 });
    assert.deepEqual((await feedIds(t, "sort=hot&tag=deno")).ids, [q]);
    // The newest feed shows the new title (its snapshot moved with the edit).
    const { body } = await json<{ questions: Json[] }>(t.request("/api/questions"));
    assert.equal(body.questions[0].title, "Streaming responses");
    assert.equal(typeof body.questions[0].editedAt, "number");
  });
});

Deno.test("delete: a deleted question leaves new, hot, tag, search, agent list, activity and public profile at once; 404 to others, visible to its author", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const key = await agentKey(t, bob);
    const keep = await ask(t, ada, { title: "Keeper question", tags: ["kv"] });
    const gone = await ask(t, ada, { title: "Doomed question", tags: ["kv"] });
    const bobsAnswer = await answer(t, bob, gone, "An answer on the doomed one");
    assert.equal(bobsAnswer.length > 0, true);

    const denied = await json(sendAs(t, bob, "DELETE", `/api/questions/${gone}`));
    assert.equal(denied.status, 403);
    assert.equal((await sendAs(t, ada, "DELETE", "/api/questions/q-nope")).status, 404);
    const ok = await json(sendAs(t, ada, "DELETE", `/api/questions/${gone}`));
    assert.deepEqual([ok.status, ok.body], [200, { ok: true }]);
    assert.equal((await sendAs(t, ada, "DELETE", `/api/questions/${gone}`)).status, 404);

    assert.deepEqual(await feedIds(t, "sort=new"), { ids: [keep], total: 1 });
    assert.deepEqual((await feedIds(t, "sort=hot")).ids, [keep]);
    assert.deepEqual(await feedIds(t, "tag=kv"), { ids: [keep], total: 1 });
    assert.deepEqual((await feedIds(t, "sort=hot&tag=kv")).ids, [keep]);
    assert.deepEqual((await feedIds(t, "q=doomed")).ids, []);
    assert.deepEqual((await feedIds(t, "q=question")).ids, [keep]);
    const agentList = await json<{ questions: Json[]; total: number }>(
      agentCall(t, key, "/api/agent/questions"),
    );
    assert.deepEqual(agentList.body.questions.map((q) => q.id), [keep]);
    assert.equal(agentList.body.total, 1);
    const activity = await json<{ activities: Json[] }>(
      getAs(t, ada, "/api/profile/activity?type=questions"),
    );
    assert.deepEqual(activity.body.activities.map((a) => a.id), [keep]);
    const bobsAnswers = await json<{ activities: Json[] }>(
      getAs(t, bob, "/api/profile/activity?type=answers"),
    );
    assert.deepEqual(bobsAnswers.body.activities, [], "answers on a deleted question leave too");
    const profile = await json<{ recentQuestions: Json[]; stats: Json }>(
      getAs(t, null, `/api/profile/public/${ada.id}`),
    );
    assert.deepEqual(profile.body.recentQuestions.map((q) => q.id), [keep]);
    assert.equal(profile.body.stats.questionsCount, 1);

    // 404 to others (signed out, or another member), visible to the author.
    assert.equal((await getAs(t, null, `/api/questions/${gone}`)).status, 404);
    assert.equal((await getAs(t, bob, `/api/questions/${gone}`)).status, 404);
    assert.equal((await getAs(t, bob, `/questions/${gone}`)).status, 404);
    const mine = await json(getAs(t, ada, `/api/questions/${gone}`));
    assert.equal(mine.status, 200);
    assert.equal(typeof mine.body.deletedAt, "number");
    // Nobody can answer, vote on or favorite it any more.
    assert.equal(
      (await postAs(t, bob, `/api/questions/${gone}/messages`, { content: "late" })).status,
      404,
    );
    assert.equal(
      (await postAs(t, bob, "/api/likes", { targetType: "question", targetId: gone })).status,
      404,
    );
  });
});

Deno.test("delete: feed pages stay full and totals right around removed rows", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const ids: string[] = [];
    for (let i = 1; i <= 7; i++) {
      ids.push(await ask(t, ada, { title: `Question ${i}`, tags: ["t"] }));
    }
    const newest = [...ids].reverse(); // 7 … 1
    // Remove the 2nd and 5th newest.
    for (const id of [newest[1], newest[4]]) {
      assert.equal((await sendAs(t, ada, "DELETE", `/api/questions/${id}`)).status, 200);
    }
    const live = newest.filter((_, i) => i !== 1 && i !== 4);
    for (const feed of ["sort=new", "tag=t"]) {
      const p1 = await feedIds(t, `${feed}&limit=2&page=1`);
      const p2 = await feedIds(t, `${feed}&limit=2&page=2`);
      const p3 = await feedIds(t, `${feed}&limit=2&page=3`);
      assert.deepEqual([p1.ids, p2.ids, p3.ids], [live.slice(0, 2), live.slice(2, 4), [live[4]]]);
      assert.equal(p1.total, 5, feed);
    }
    const key = await agentKey(t, ada);
    const agentPage = await json<{ questions: Json[]; total: number }>(
      agentCall(t, key, "/api/agent/questions?limit=2&page=2"),
    );
    assert.deepEqual(agentPage.body.questions.map((q) => q.id), live.slice(2, 4));
    assert.equal(agentPage.body.total, 5);
  });
});

Deno.test("delete message: with replies it stays as [deleted], without it disappears; counters and stats move in the same op", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const carol = await member(t, "Carol");
    const q = await ask(t, ada, { title: "Thread with replies" });
    const a1 = await answer(t, bob, q, "Answer with a reply");
    const r1 = await answer(t, carol, q, "A reply", a1);
    const a2 = await answer(t, bob, q, "Lonely answer");
    const stats = async () =>
      (await json<{ stats: Json }>(getAs(t, null, `/api/profile/public/${bob.id}`))).body.stats;
    assert.equal((await stats()).answersCount, 2);

    assert.equal((await sendAs(t, carol, "DELETE", `/api/messages/${a1}`)).status, 403);
    assert.equal((await sendAs(t, bob, "DELETE", "/api/messages/msg-nope")).status, 404);
    assert.equal((await sendAs(t, bob, "DELETE", `/api/messages/${a1}`)).status, 200);
    assert.equal((await sendAs(t, bob, "DELETE", `/api/messages/${a2}`)).status, 200);

    const page = await json<{ messages: Msg[]; messageCount: number; answerCount: number }>(
      getAs(t, null, `/api/questions/${q}?sort=oldest`),
    );
    assert.deepEqual(page.body.messages.map((m) => m.id), [a1, r1]);
    const placeholder = page.body.messages[0];
    assert.equal(placeholder.deleted, true);
    assert.equal(placeholder.content, "");
    assert.deepEqual(placeholder.author, { id: "", name: "[deleted]", avatar: null });
    assert.equal(page.body.messages[1].replyTo, a1);
    // The placeholder keeps its slot; the lonely answer left the counts.
    assert.equal(page.body.messageCount, 2);
    assert.equal(page.body.answerCount, 1);
    const feed = await json<{ questions: Json[] }>(t.request("/api/questions"));
    assert.equal(feed.body.questions[0].messageCount, 2);
    assert.equal(feed.body.questions[0].answerCount, 1);
    assert.equal((await stats()).answersCount, 0);
    const activity = await json<{ activities: Json[] }>(
      getAs(t, bob, "/api/profile/activity?type=answers"),
    );
    assert.deepEqual(activity.body.activities, []);
    // A deleted message cannot be voted on, edited, or replied to.
    assert.equal(
      (await postAs(t, carol, "/api/likes", { targetType: "message", targetId: a1 })).status,
      404,
    );
    assert.equal(
      (await sendAs(t, bob, "PATCH", `/api/messages/${a1}`, { content: "x" })).status,
      404,
    );
    assert.equal(
      (await postAs(t, carol, `/api/questions/${q}/messages`, { content: "x", replyTo: a1 }))
        .status,
      400,
    );
    // A reply without replies disappears.
    assert.equal((await sendAs(t, carol, "DELETE", `/api/messages/${r1}`)).status, 200);
    const after = await json<{ messages: Msg[]; messageCount: number }>(
      getAs(t, null, `/api/questions/${q}`),
    );
    assert.deepEqual(after.body.messages.map((m) => m.id), [a1]);
    assert.equal(after.body.messageCount, 1);
  });
});

Deno.test("moderators (MODERATORS) delete others' posts and still open a deleted question", async () => {
  const t = await createTestApp();
  try {
    const mod = await member(t, "Mod");
    t.services.config.moderators = [mod.id];
    const ada = await member(t, "Ada");
    const q = await ask(t, ada, { title: "Spam question" });
    const m = await answer(t, ada, q, "spam");
    assert.equal((await sendAs(t, mod, "DELETE", `/api/messages/${m}`)).status, 200);
    assert.equal((await sendAs(t, mod, "DELETE", `/api/questions/${q}`)).status, 200);
    assert.equal((await getAs(t, mod, `/api/questions/${q}`)).status, 200);
    assert.equal((await getAs(t, null, `/api/questions/${q}`)).status, 404);
    // Moderators do not edit others' posts.
    const q2 = await ask(t, ada, { title: "Fine question" });
    assert.equal(
      (await sendAs(t, mod, "PATCH", `/api/questions/${q2}`, { title: "Mod" })).status,
      403,
    );
  } finally {
    await t.close();
  }
});

Deno.test("accept: the asker only, a top-level answer of this question, null clears, deleting it unaccepts", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const q = await ask(t, ada, { title: "Which one works?" });
    const other = await ask(t, ada, { title: "Another question" });
    const a = await answer(t, bob, q, "This works");
    const reply = await answer(t, ada, q, "Thanks", a);
    const foreign = await answer(t, bob, other, "Elsewhere");

    const byBob = await json(postAs(t, bob, `/api/questions/${q}/accept`, { messageId: a }));
    assert.equal(byBob.status, 403);
    assert.equal(
      (await postAs(t, ada, `/api/questions/${q}/accept`, { messageId: reply })).status,
      400,
    );
    assert.equal(
      (await postAs(t, ada, `/api/questions/${q}/accept`, { messageId: foreign })).status,
      404,
    );
    assert.equal((await postAs(t, ada, `/api/questions/${q}/accept`, {})).status, 400);
    assert.equal(
      (await postAs(t, ada, "/api/questions/q-nope/accept", { messageId: null })).status,
      404,
    );

    const ok = await json(postAs(t, ada, `/api/questions/${q}/accept`, { messageId: a }));
    assert.deepEqual([ok.status, ok.body], [200, { acceptedMessageId: a }]);
    assert.equal((await json(getAs(t, null, `/api/questions/${q}`))).body.acceptedMessageId, a);
    const feed = await json<{ questions: Json[] }>(t.request("/api/questions"));
    assert.equal(feed.body.questions.find((x) => x.id === q)?.acceptedMessageId, a);
    assert.equal(feed.body.questions.find((x) => x.id === other)?.acceptedMessageId, null);

    const cleared = await json(postAs(t, ada, `/api/questions/${q}/accept`, { messageId: null }));
    assert.deepEqual(cleared.body, { acceptedMessageId: null });
    assert.equal((await json(getAs(t, null, `/api/questions/${q}`))).body.acceptedMessageId, null);

    await postAs(t, ada, `/api/questions/${q}/accept`, { messageId: a });
    assert.equal((await sendAs(t, bob, "DELETE", `/api/messages/${a}`)).status, 200);
    assert.equal((await json(getAs(t, null, `/api/questions/${q}`))).body.acceptedMessageId, null);
  });
});

Deno.test("answer order: votes (accepted first, then score, ties oldest first), newest, oldest; replies stay under their answer in time order", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const voters = [await member(t, "V1"), await member(t, "V2")];
    const bob = await member(t, "Bob");
    const q = await ask(t, ada, { title: "Order the answers" });
    const a1 = await answer(t, bob, q, "one");
    const a2 = await answer(t, bob, q, "two");
    const a3 = await answer(t, bob, q, "three");
    const a4 = await answer(t, bob, q, "four");
    const r1 = await answer(t, ada, q, "reply to one", a1);
    const r2 = await answer(t, voters[0], q, "second reply to one", a1);
    for (const v of voters) {
      await postAs(t, v, "/api/likes", { targetType: "message", targetId: a3 });
    }
    await postAs(t, voters[0], "/api/likes", { targetType: "message", targetId: a2 });
    await postAs(t, voters[0], "/api/likes", {
      targetType: "message",
      targetId: a4,
      voteType: "down",
    });
    const order = async (sort?: string) => {
      const path = `/api/questions/${q}${sort ? `?sort=${sort}` : ""}`;
      const { body } = await json<{ messages: Msg[]; sort: string }>(getAs(t, null, path));
      return { ids: body.messages.map((m) => m.id), sort: body.sort };
    };
    assert.deepEqual(await order(), { ids: [a3, a2, a1, r1, r2, a4], sort: "votes" });
    assert.deepEqual((await order("oldest")).ids, [a1, r1, r2, a2, a3, a4]);
    assert.deepEqual((await order("newest")).ids, [a4, a3, a2, a1, r1, r2]);
    await postAs(t, ada, `/api/questions/${q}/accept`, { messageId: a4 });
    assert.deepEqual((await order("votes")).ids, [a4, a3, a2, a1, r1, r2]);
    assert.equal((await getAs(t, null, `/api/questions/${q}?sort=best`)).status, 400);
  });
});

Deno.test("filter=unanswered: no top-level answer and no accepted answer", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const open = await ask(t, ada, { title: "Nobody answered", tags: ["x"] });
    const answered = await ask(t, ada, { title: "Somebody answered", tags: ["x"] });
    await answer(t, bob, answered, "Here");
    const gone = await ask(t, ada, { title: "Answer deleted", tags: ["x"] });
    const m = await answer(t, bob, gone, "Soon gone");
    await sendAs(t, bob, "DELETE", `/api/messages/${m}`);
    assert.deepEqual(await feedIds(t, "filter=unanswered"), { ids: [gone, open], total: 2 });
    assert.deepEqual((await feedIds(t, "filter=unanswered&tag=x")).ids, [gone, open]);
    assert.deepEqual(
      (await feedIds(t, "filter=unanswered&sort=hot")).ids.sort(),
      [gone, open].sort(),
    );
    assert.deepEqual((await feedIds(t, "filter=unanswered&q=nobody")).ids, [open]);
    // "answered" stems to "answer": both unanswered questions match, the answered one does not.
    assert.deepEqual(
      (await feedIds(t, "filter=unanswered&q=answered")).ids.sort(),
      [gone, open].sort(),
    );
    assert.deepEqual((await feedIds(t, "filter=unanswered&limit=1&page=2")).ids, [open]);
    assert.equal((await t.request("/api/questions?filter=bogus")).status, 400);
    const home = await (await t.request("/?filter=unanswered")).text();
    assert.match(home, /Nobody answered/);
    assert.doesNotMatch(home, /Somebody answered/);
  });
});

Deno.test("self-votes: people and agents cannot vote on their own posts (403); favorites of one's own post stay allowed", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const key = await agentKey(t, ada);
    const q = await ask(t, ada, { title: "My own question" });
    const m = await answer(t, ada, q, "My own answer");
    for (const [targetType, targetId] of [["question", q], ["message", m]]) {
      const r = await json(postAs(t, ada, "/api/likes", { targetType, targetId }));
      assert.deepEqual([r.status, r.body], [403, { error: "You cannot vote on your own post" }]);
    }
    const viaAgent = await json(
      agentCall(t, key, `/api/agent/questions/${q}/vote`, { body: { voteType: "up" } }),
    );
    assert.deepEqual([viaAgent.status, viaAgent.body], [403, {
      error: "You cannot vote on your own post",
    }]);
    const onMessage = await json(
      agentCall(t, key, `/api/agent/questions/${q}/vote`, { body: { messageId: m } }),
    );
    assert.equal(onMessage.status, 403);
    const stats = await json<{ stats: Json }>(getAs(t, null, `/api/profile/public/${ada.id}`));
    assert.equal(stats.body.stats.upvotesReceived, 0);
    const fav = await json(
      postAs(t, ada, "/api/favorites", { targetType: "question", targetId: q }),
    );
    assert.deepEqual([fav.status, fav.body.favorited], [200, true]);
  });
});

Deno.test("agents: PATCH and DELETE their owner's questions and messages; others' posts are refused", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const key = await agentKey(t, ada);
    const mine = await ask(t, ada, { title: "Agent owner question", tags: ["one"] });
    const theirs = await ask(t, bob, { title: "Someone else's" });
    const myAnswer = await answer(t, ada, theirs, "Owner's answer");
    const theirAnswer = await answer(t, bob, mine, "Bob's answer");

    const edited = await json(
      agentCall(t, key, `/api/agent/questions/${mine}`, {
        method: "PATCH",
        body: { tags: ["Two Words", "two-words", "three"] },
      }),
    );
    assert.equal(edited.status, 200);
    assert.deepEqual(edited.body.tags, ["two-words", "three"]);
    assert.equal(typeof edited.body.editedAt, "number");
    const denied = await json(
      agentCall(t, key, `/api/agent/questions/${theirs}`, {
        method: "PATCH",
        body: { title: "Mine now" },
      }),
    );
    assert.deepEqual([denied.status, denied.body], [403, {
      error: "Only the author can edit this",
    }]);
    const msg = await json(
      agentCall(t, key, `/api/agent/messages/${myAnswer}`, {
        method: "PATCH",
        body: { content: "Edited by the agent" },
      }),
    );
    assert.deepEqual([msg.status, msg.body.content], [200, "Edited by the agent"]);
    assert.equal(
      (await agentCall(t, key, `/api/agent/messages/${theirAnswer}`, {
        method: "PATCH",
        body: { content: "no" },
      })).status,
      403,
    );
    assert.equal(
      (await agentCall(t, key, `/api/agent/messages/${theirAnswer}`, { method: "DELETE" })).status,
      403,
    );
    assert.equal(
      (await agentCall(t, key, `/api/agent/questions/${theirs}`, { method: "DELETE" })).status,
      403,
    );
    assert.equal(
      (await agentCall(t, null, `/api/agent/questions/${mine}`, { method: "DELETE" })).status,
      401,
    );
    const del = await json(
      agentCall(t, key, `/api/agent/messages/${myAnswer}`, { method: "DELETE" }),
    );
    assert.deepEqual([del.status, del.body], [200, { ok: true }]);
    const delQ = await json(
      agentCall(t, key, `/api/agent/questions/${mine}`, { method: "DELETE" }),
    );
    assert.deepEqual([delQ.status, delQ.body], [200, { ok: true }]);
    assert.equal(
      (await agentCall(t, key, `/api/agent/questions/${mine}`, { method: "DELETE" })).status,
      404,
    );
    const list = await json<{ questions: Json[] }>(agentCall(t, key, "/api/agent/questions"));
    assert.deepEqual(list.body.questions.map((q) => q.id), [theirs]);
  });
});

Deno.test("tags: lower-cased, NFKC, inner whitespace joined by '-', repeats dropped before the first five are kept; any number accepted", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const many = Array.from({ length: 80 }, (_, i) => `Tag ${i}`);
    const res = await json(postAs(t, ada, "/api/questions", {
      title: "Lots of tags",
      tags: [" Deno ", "DENO", "ｄｅｎｏ", "Deno  KV", "", ...many],
    }));
    assert.equal(res.status, 201);
    assert.deepEqual(res.body.tags, ["deno", "deno-kv", "tag-0", "tag-1", "tag-2"]);
    const key = await agentKey(t, ada);
    const viaAgent = await json(agentCall(t, key, "/api/agent/questions", {
      body: { title: "Agent tags", tags: ["A", "a", "B", "C", "D", "E", "F"] },
    }));
    assert.equal(viaAgent.status, 201);
    const view = await json(getAs(t, null, `/api/questions/${viaAgent.body.id}`));
    assert.deepEqual(view.body.tags, ["a", "b", "c", "d", "e"]);
    // The tag filter uses the same canonical form.
    assert.deepEqual((await feedIds(t, "tag=Deno%20KV")).ids, [res.body.id]);
    const tooLong = await postAs(t, ada, "/api/questions", {
      title: "Long tag",
      tags: ["x".repeat(41)],
    });
    assert.equal(tooLong.status, 400);
  });
});

Deno.test("answers: one definition — answerCount is the same on the question, in the feed and on the profile", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const q = await ask(t, ada, { title: "Count me" });
    const a1 = await answer(t, bob, q, "one");
    await answer(t, bob, q, "two");
    await answer(t, bob, q, "three");
    for (let i = 0; i < 4; i++) await answer(t, ada, q, `reply ${i}`, a1);
    const page = await json(getAs(t, null, `/api/questions/${q}`));
    const feed = await json<{ questions: Json[] }>(t.request("/api/questions"));
    const profile = await json<{ recentQuestions: Json[] }>(
      getAs(t, null, `/api/profile/public/${ada.id}`),
    );
    assert.equal(page.body.answerCount, 3);
    assert.equal(page.body.messageCount, 7);
    assert.equal(feed.body.questions[0].answerCount, 3);
    assert.equal(feed.body.questions[0].messageCount, 7);
    assert.equal(profile.body.recentQuestions[0].answerCount, 3);
    assert.equal(profile.body.recentQuestions[0].messageCount, 7);
  });
});
