/**
 * Follows, notifications and live streams (docs/interface.md#notifications): every notification
 * type, never to the actor, paging and read marks, the unread stream seeing a write made
 * through a second app instance on the same KV file, and the question events stream.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp, waitForJobs } from "../helpers/app.ts";
import { FANOUT_JOB } from "@/lib/notifications/fanout.ts";
import {
  agentCall,
  agentKey,
  answer,
  ask,
  getAs,
  json,
  type Member,
  member,
  postAs,
} from "../helpers/community.ts";
import { readUntil } from "../helpers/sse.ts";

interface N {
  id: string;
  type: string;
  actor: { id: string } | null;
  messageId: string | null;
  count: number;
  read: boolean;
}
interface Page {
  notifications: N[];
  unread: number;
  nextCursor: string | null;
}

const inbox = async (t: TestApp, who: Member, cursor?: string) =>
  (await json<Page>(
    getAs(t, who, `/api/notifications${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`),
  )).body;

Deno.test("answer: followers (the asker) hear of an answer, never the answerer", async () => {
  const t = await createTestApp();
  try {
    const [asker, helper, watcher] = await Promise.all(
      ["Asker", "Helper", "Watcher"].map((n) => member(t, n)),
    );
    const qid = await ask(t, asker, { title: "Who hears about answers?" });
    assert.deepEqual(
      (await json(postAs(t, watcher, `/api/questions/${qid}/follow`, {}))).body,
      { following: true },
    );
    const mid = await answer(t, helper, qid, "Followers do.");
    // The asker hears in the answer's own op; other followers by the fan-out job, which
    // runs after the answer is answered.
    await waitForJobs(10_000, FANOUT_JOB);
    const a = await inbox(t, asker);
    assert.equal(a.unread, 1);
    assert.equal(a.notifications[0].type, "answer");
    assert.equal(a.notifications[0].actor?.id, helper.id);
    assert.equal(a.notifications[0].messageId, mid);
    assert.equal((await inbox(t, watcher)).notifications[0]?.type, "answer");
    assert.equal((await inbox(t, helper)).notifications.length, 0, "not to the actor");
    // The helper now follows too; the asker answering their own question notifies only others.
    await answer(t, asker, qid, "Thanks, adding a note.");
    await waitForJobs(10_000, FANOUT_JOB);
    assert.equal((await inbox(t, asker)).unread, 1, "not to the actor");
    assert.equal((await inbox(t, helper)).unread, 1);
    // Unfollow: no more.
    assert.deepEqual(
      (await json(postAs(t, watcher, `/api/questions/${qid}/follow`, {}))).body,
      { following: false },
    );
    await answer(t, helper, qid, "One more.");
    await waitForJobs(10_000, FANOUT_JOB);
    assert.equal((await inbox(t, watcher)).notifications.length, 2, "the two answers before");
  } finally {
    await t.close();
  }
});

Deno.test("reply, accepted and upvotes notifications; none for one's own actions", async () => {
  const t = await createTestApp();
  try {
    const [asker, helper, fan] = await Promise.all(
      ["Asker", "Helper", "Fan"].map((n) => member(t, n)),
    );
    const qid = await ask(t, asker, { title: "Which notifications exist?" });
    const mid = await answer(t, helper, qid, "Four kinds.");
    await answer(t, asker, qid, "Which four?", mid);
    const h = await inbox(t, helper);
    assert.deepEqual(h.notifications.map((n) => n.type), ["reply"]);
    // Replying to oneself: nothing.
    await answer(t, helper, qid, "Self reply", mid);
    assert.equal((await inbox(t, helper)).unread, 1);
    // accepted
    await postAs(t, asker, `/api/questions/${qid}/accept`, { messageId: mid });
    assert.equal((await inbox(t, helper)).notifications[0].type, "accepted");
    // upvotes: one entry per post per day with a running count
    await postAs(t, asker, "/api/likes", { targetType: "message", targetId: mid });
    await postAs(t, fan, "/api/likes", { targetType: "message", targetId: mid });
    const up = (await inbox(t, helper)).notifications.filter((n) => n.type === "upvotes");
    assert.equal(up.length, 1);
    assert.equal(up[0].count, 2);
    assert.equal(up[0].actor, null);
    assert.equal((await inbox(t, helper)).unread, 3);
  } finally {
    await t.close();
  }
});

Deno.test("notifications page by cursor (20 a page) and mark one or all read", async () => {
  const t = await createTestApp();
  try {
    const [asker, helper] = await Promise.all([member(t, "Asker"), member(t, "Helper")]);
    const qid = await ask(t, asker, { title: "Many answers for paging" });
    for (let i = 0; i < 23; i++) await answer(t, helper, qid, `Answer ${i}`);
    const p1 = await inbox(t, asker);
    assert.equal(p1.notifications.length, 20);
    assert.equal(p1.unread, 23);
    assert.ok(p1.nextCursor);
    const p2 = await inbox(t, asker, p1.nextCursor!);
    assert.equal(p2.notifications.length, 3);
    assert.equal(p2.nextCursor, null);
    assert.equal(new Set([...p1.notifications, ...p2.notifications].map((n) => n.id)).size, 23);
    const one = p1.notifications[0].id;
    assert.deepEqual(
      (await json(postAs(t, asker, "/api/notifications/read", { ids: [one] }))).body,
      {
        unread: 22,
      },
    );
    assert.deepEqual(
      (await json(postAs(t, asker, "/api/notifications/read", { ids: [one] }))).body,
      {
        unread: 22,
      },
    );
    assert.equal((await inbox(t, asker)).notifications[0].read, true);
    assert.deepEqual((await json(postAs(t, asker, "/api/notifications/read", {}))).body, {
      unread: 0,
    });
    const after = await inbox(t, asker);
    assert.ok(after.notifications.every((n) => n.read));
    await answer(t, helper, qid, "After mark-all");
    assert.equal((await inbox(t, asker)).unread, 1);
    assert.equal((await getAs(t, null, "/api/notifications")).status, 401);
    const page = await (await getAs(t, asker, "/notifications")).text();
    assert.ok(page.includes("Today"));
    assert.ok(page.includes(`?answer=`));
  } finally {
    await t.close();
  }
});

Deno.test("following an unread notification from its page marks it read and leads to its answer; another site's link does not mark it", async () => {
  const t = await createTestApp();
  try {
    const [asker, helper, other] = await Promise.all([
      member(t, "Asker"),
      member(t, "Helper"),
      member(t, "Other"),
    ]);
    const qid = await ask(t, asker, { title: "Open me" });
    const mid = await answer(t, helper, qid, "An answer to open");
    await answer(t, helper, qid, "Another answer");
    const [second, first] = (await inbox(t, asker)).notifications;
    // The page links unread ones through the open route.
    const page = await (await getAs(t, asker, "/notifications")).text();
    assert.ok(page.includes(`href="/notifications/open/${first.id}"`));
    const open = (id: string, who: Member, site: string) =>
      t.request(`/notifications/open/${id}`, {
        headers: { cookie: who.cookie, "sec-fetch-site": site },
        redirect: "manual",
      });
    // From another site: sent on to the answer, still unread.
    const crossSite = await open(first.id, asker, "cross-site");
    assert.equal(crossSite.status, 303);
    assert.equal(
      crossSite.headers.get("location"),
      `/questions/${qid}?answer=${mid}#${mid}`,
    );
    assert.equal((await inbox(t, asker)).unread, 2);
    // From Parley's own page: read, and the same place.
    const own = await open(first.id, asker, "same-origin");
    assert.equal(own.headers.get("location"), `/questions/${qid}?answer=${mid}#${mid}`);
    const after = await inbox(t, asker);
    assert.equal(after.unread, 1);
    assert.deepEqual(after.notifications.map((n) => [n.id, n.read]), [
      [second.id, false],
      [first.id, true],
    ]);
    // Read ones link straight to their post.
    const reread = await (await getAs(t, asker, "/notifications")).text();
    assert.ok(!reread.includes(`/notifications/open/${first.id}`));
    assert.ok(reread.includes(`/notifications/open/${second.id}`));
    // Someone else's id, or an unknown one: back to their own list, nothing marked.
    for (const [id, who] of [[second.id, other], ["n-zzz", asker]] as const) {
      const res = await open(encodeURIComponent(id), who, "same-origin");
      assert.equal(res.headers.get("location"), "/notifications", id);
    }
    const malformed = await open(encodeURIComponent("bad id"), asker, "same-origin");
    assert.equal(malformed.status, 404); // not an id at all: no such page
    await malformed.body?.cancel();
    assert.equal((await inbox(t, asker)).unread, 1);
    // Signed out: to sign in first.
    const out = await t.request(`/notifications/open/${second.id}`, { redirect: "manual" });
    assert.match(out.headers.get("location") ?? "", /^\/signin/);
  } finally {
    await t.close();
  }
});

Deno.test("the unread stream reports a change written through a second app instance on the same KV file", async () => {
  const dir = await Deno.makeTempDir();
  const kvPath = `${dir}/kv.sqlite3`;
  const a = await createTestApp({ kvPath });
  const b = await createTestApp({ kvPath });
  try {
    const asker = await member(a, "Asker");
    const helper = await member(b, "Helper");
    const qid = await ask(a, asker, { title: "Do streams cross instances?" });
    const res = await getAs(a, asker, "/api/notifications/stream");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    const events = readUntil(res, (e) => e.type === "unread" && e.data.unread === 1, {
      resumable: true,
    });
    await new Promise((r) => setTimeout(r, 100));
    await answer(b, helper, qid, "Through instance B.");
    const got = await events;
    assert.deepEqual(got[0], { type: "unread", data: { unread: 0 } });
    assert.deepEqual(got.at(-1), { type: "unread", data: { unread: 1 } });
    assert.equal((await getAs(a, null, "/api/notifications/stream")).status, 401);
  } finally {
    await a.close();
    await b.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the question events stream reports answers and votes", async () => {
  const t = await createTestApp();
  try {
    const [asker, helper] = await Promise.all([member(t, "Asker"), member(t, "Helper")]);
    const qid = await ask(t, asker, { title: "Is the question page live?" });
    const res = await getAs(t, null, `/api/questions/${qid}/events`);
    assert.equal(res.status, 200);
    const events = readUntil(res, (e) => e.data.messageCount === 1 && e.data.upvotes === 1, {
      resumable: true,
    });
    await new Promise((r) => setTimeout(r, 50));
    await answer(t, helper, qid, "Yes.");
    await postAs(t, helper, "/api/likes", { targetType: "question", targetId: qid });
    const got = await events;
    assert.deepEqual(got[0], {
      type: "changed",
      data: { messageCount: 0, upvotes: 0, downvotes: 0 },
    });
    assert.deepEqual(got.at(-1)?.data, { messageCount: 1, upvotes: 1, downvotes: 0 });
    assert.equal((await getAs(t, null, "/api/questions/q-missing/events")).status, 404);
  } finally {
    await t.close();
  }
});

Deno.test("at most 5 notification streams per user: a sixth closes the oldest", async () => {
  const t = await createTestApp();
  try {
    const u = await member(t, "Tabby");
    const streams = [];
    for (let i = 0; i < 6; i++) streams.push(await getAs(t, u, "/api/notifications/stream"));
    const first = await new Response(streams[0].body).text(); // ends: it was closed
    assert.ok(first.includes("event: unread"));
    for (const s of streams.slice(1)) await s.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("a malformed notifications cursor is 400 Invalid cursor (REST, agent API and MCP alike); the page starts over", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const bad = await json<{ error: string }>(getAs(t, ada, "/api/notifications?cursor=garbage"));
    assert.deepEqual([bad.status, bad.body.error], [400, "Invalid cursor"]);
    const key = await agentKey(t, ada);
    const agent = await json<{ error: string }>(
      agentCall(t, key, "/api/agent/notifications?cursor=garbage"),
    );
    assert.deepEqual([agent.status, agent.body.error], [400, "Invalid cursor"]);
    const good = await getAs(t, ada, "/api/notifications?cursor=n-0");
    assert.equal(good.status, 200);
    await good.body?.cancel();
    const page = await getAs(t, ada, "/notifications?cursor=garbage");
    assert.equal(page.status, 200);
    await page.body?.cancel();
  } finally {
    await t.close();
  }
});
