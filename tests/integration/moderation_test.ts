/**
 * Moderation (docs/interface.md#moderation): flags, the third flag hiding a post, every
 * moderator action, the log, and 403 for everyone else — through the HTTP surface.
 */
import assert from "node:assert/strict";
import { createTestApp } from "../helpers/app.ts";
import { answer, ask, getAs, json, member, postAs } from "../helpers/community.ts";

/** Members are established (NEW_ACCOUNT_HOURS 0): each flag weighs 1, so three hide a post. */
async function setup() {
  const t = await createTestApp({ env: { NEW_ACCOUNT_HOURS: "0" } });
  const [asker, helper, b, c, d, mod] = await Promise.all(
    ["Asker", "Helper", "Bea", "Cy", "Dee", "Mo"].map((n) => member(t, n)),
  );
  t.services.config.moderators = [mod.id];
  const qid = await ask(t, asker, { title: "How do flags work here?", tags: ["meta"] });
  const mid = await answer(t, helper, qid, "Buy cheap watches at spam.example");
  return { t, asker, helper, b, c, d, mod, qid, mid };
}

Deno.test("flags: once per user and post (409 on a repeat), never on one's own post (400)", async () => {
  const { t, helper, b, mid } = await setup();
  try {
    const body = { targetType: "message", targetId: mid, reason: "spam" };
    assert.deepEqual((await json(postAs(t, b, "/api/flags", body))).body, { ok: true });
    assert.deepEqual((await postAs(t, b, "/api/flags", body)).status, 409);
    assert.deepEqual((await postAs(t, helper, "/api/flags", body)).status, 400);
    assert.deepEqual(
      (await postAs(t, b, "/api/flags", { ...body, targetId: "msg-nope" })).status,
      404,
    );
    assert.deepEqual((await postAs(t, b, "/api/flags", { ...body, reason: "meh" })).status, 400);
  } finally {
    await t.close();
  }
});

Deno.test("flags: over LIMIT_FLAGS_PER_DAY answers 429 with Retry-After", async () => {
  const t = await createTestApp({ env: { LIMIT_FLAGS_PER_DAY: "1" } });
  try {
    const [a, b] = await Promise.all([member(t, "A"), member(t, "B")]);
    const q1 = await ask(t, a, { title: "First question about limits" });
    const q2 = await ask(t, a, { title: "Second question about limits" });
    const flag = (id: string) =>
      postAs(t, b, "/api/flags", { targetType: "question", targetId: id, reason: "other" });
    assert.deepEqual((await flag(q1)).status, 200);
    const res = await flag(q2);
    assert.deepEqual(res.status, 429);
    assert(Number(res.headers.get("retry-after")) > 0);
    await res.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("the third distinct flag of established accounts hides a post: 404 to others, seen by its author and moderators", async () => {
  const { t, asker, helper, b, c, d, mod, qid, mid } = await setup();
  try {
    for (const who of [b, c]) {
      await postAs(t, who, "/api/flags", { targetType: "message", targetId: mid, reason: "spam" });
    }
    const visible =
      (await json<{ messages: { id: string }[] }>(getAs(t, asker, `/api/questions/${qid}`))).body;
    assert.deepEqual(visible.messages.map((m) => m.id), [mid]);
    await postAs(t, d, "/api/flags", {
      targetType: "message",
      targetId: mid,
      reason: "offensive",
      note: "ads",
    });
    const ids = async (who: typeof asker | null) =>
      (await json<{ messages: { id: string }[] }>(getAs(t, who, `/api/questions/${qid}`))).body
        .messages.map((m) => m.id);
    assert.deepEqual(await ids(asker), []);
    assert.deepEqual(await ids(null), []);
    assert.deepEqual(await ids(helper), [mid]);
    assert.deepEqual(await ids(mod), [mid]);
    // Hidden: no votes on it either.
    assert.deepEqual(
      (await postAs(t, asker, "/api/likes", { targetType: "message", targetId: mid })).status,
      404,
    );
    // The author's page carries the banner.
    const page = await (await getAs(t, helper, `/questions/${qid}`)).text();
    assert(page.includes("Hidden by moderators"), "banner for the author");
    const other = await (await getAs(t, asker, `/questions/${qid}`)).text();
    assert(!other.includes("Buy cheap watches"));
    // The queue shows it with reasons and counts.
    const queue =
      (await json<{ queue: Record<string, unknown>[] }>(getAs(t, mod, "/api/mod/queue")))
        .body.queue;
    assert.deepEqual(queue.length, 1);
    assert.deepEqual(queue[0].flags, 3);
    assert.deepEqual(queue[0].weight, 3);
    assert.deepEqual(queue[0].hidden, true);
    assert.deepEqual(queue[0].reasons, { spam: 2, offensive: 1 });
    assert.deepEqual(queue[0].notes, ["ads"]);
  } finally {
    await t.close();
  }
});

Deno.test("moderators only: queue, actions and log answer 403 to others, 401 signed out", async () => {
  const { t, b, mid } = await setup();
  try {
    assert.deepEqual((await getAs(t, b, "/api/mod/queue")).status, 403);
    assert.deepEqual((await getAs(t, b, "/api/mod/log")).status, 403);
    assert.deepEqual((await getAs(t, null, "/api/mod/queue")).status, 401);
    const res = await postAs(t, b, "/api/mod/actions", {
      targetType: "message",
      targetId: mid,
      action: "hide",
    });
    assert.deepEqual(res.status, 403);
    const notMod = await getAs(t, b, "/mod");
    assert.deepEqual(notMod.status, 403);
    // A page, in words, not a JSON body; signed out, /mod sends to sign-in.
    assert.match(await notMod.text(), /<h1>Moderators only<\/h1>/);
    const out = await getAs(t, null, "/mod");
    assert.equal(out.status, 303);
    assert.match(out.headers.get("location") ?? "", /^\/signin\?returnTo=%2Fmod/);
  } finally {
    await t.close();
  }
});

Deno.test("every moderator action works and is logged, newest first", async () => {
  const { t, asker, helper, b, mod, qid, mid } = await setup();
  try {
    const act = (targetType: string, targetId: string, action: string) =>
      json(postAs(t, mod, "/api/mod/actions", { targetType, targetId, action }));
    const ids = async () =>
      (await json<{ messages: { id: string }[] }>(getAs(t, asker, `/api/questions/${qid}`))).body
        .messages.map((m) => m.id);
    assert.deepEqual((await act("message", mid, "hide")).body, { ok: true });
    assert.deepEqual(await ids(), []);
    assert.deepEqual((await act("message", mid, "restore")).body, { ok: true });
    assert.deepEqual(await ids(), [mid]);
    // dismiss: a flagged post leaves the queue
    await postAs(t, b, "/api/flags", { targetType: "message", targetId: mid, reason: "spam" });
    assert.deepEqual(
      (await json<{ queue: unknown[] }>(getAs(t, mod, "/api/mod/queue"))).body.queue.length,
      1,
    );
    assert.deepEqual((await act("message", mid, "dismiss")).body, { ok: true });
    assert.deepEqual(
      (await json<{ queue: unknown[] }>(getAs(t, mod, "/api/mod/queue"))).body.queue.length,
      0,
    );
    // hide a question: 404 to others, its author still opens it
    assert.deepEqual((await act("question", qid, "hide")).body, { ok: true });
    assert.deepEqual((await getAs(t, b, `/api/questions/${qid}`)).status, 404);
    assert.deepEqual((await getAs(t, asker, `/api/questions/${qid}`)).status, 200);
    const feed = (await json<{ questions: { id: string }[] }>(getAs(t, b, "/api/questions"))).body;
    assert.deepEqual(feed.questions.map((q) => q.id).includes(qid), false);
    assert.deepEqual((await act("question", qid, "restore")).body, { ok: true });
    // delete (the lifecycle soft delete)
    assert.deepEqual((await act("message", mid, "delete")).body, { ok: true });
    assert.deepEqual(await ids(), []);
    assert.deepEqual((await getAs(t, helper, `/api/messages/${mid}/revisions`)).status, 404);
    assert.deepEqual((await act("message", "msg-none", "hide")).status, 404);
    const log = (await json<{ entries: { action: string; moderator: { id: string } }[] }>(
      getAs(t, mod, "/api/mod/log"),
    )).body.entries;
    assert.deepEqual(log.map((e) => e.action), [
      "delete",
      "restore",
      "hide",
      "dismiss",
      "restore",
      "hide",
    ]);
    assert(log.every((e) => e.moderator.id === mod.id));
    const page = await (await getAs(t, mod, "/mod")).text();
    assert(page.includes("Moderation log"));
  } finally {
    await t.close();
  }
});

Deno.test("a hidden post leaves activity lists and the public profile at once", async () => {
  const { t, helper, b, c, d, mid } = await setup();
  try {
    const answersOf = async () =>
      (await json<{ recentAnswers: { id: string }[] }>(
        getAs(t, b, `/api/profile/public/${helper.id}`),
      )).body.recentAnswers.map((a) => a.id);
    assert.deepEqual(await answersOf(), [mid]);
    for (const who of [b, c, d]) {
      await postAs(t, who, "/api/flags", { targetType: "message", targetId: mid, reason: "spam" });
    }
    assert.deepEqual(await answersOf(), []);
  } finally {
    await t.close();
  }
});
