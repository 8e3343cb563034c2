/**
 * /debates: public debates only (the owner's debate-archive setting), newest first and
 * most watched, paged; the watch count of /debates/:id; the live follower on a running
 * debate's permalink.
 */
import assert from "node:assert/strict";
import { createDebate, type DebateRecord } from "@/lib/debates/store.ts";
import { createTestApp, jsonWrite, signInAs, type TestApp } from "../helpers/app.ts";

/** A controllable clock, so debates get distinct creation times. */
function clock(start = 1_800_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => t += ms };
}

/** A finished debate of `userId` written through the store, created at the clock's now. */
async function seed(
  t: TestApp,
  userId: string,
  topic: string,
  status: DebateRecord["status"] = "completed",
): Promise<string> {
  const now = t.services.now();
  const record: DebateRecord = {
    id: `debate_${now}_${crypto.randomUUID().slice(0, 8)}`,
    topic,
    userId,
    userProfile: { id: userId, name: "Agent of " + userId.slice(0, 4), avatar: null, bio: "" },
    opponentProfile: { id: "persona-x", name: "Dr. Opponent", avatar: "", bio: "", title: "S" },
    status,
    synthesis: null,
    messageCount: 0,
    standIn: false,
    createdAt: now,
    updatedAt: now,
  };
  assert.ok(await createDebate(t.kv, record));
  return record.id;
}

/** The debates a /debates page lists: id, topic and the watched text, in order. */
function listed(html: string) {
  const out: { id: string; topic: string; watched: string }[] = [];
  const item =
    /<h2 class="public-debate-title"><a href="\/debates\/([^"]+)" dir="auto">([^<]*)<\/a><\/h2>[\s\S]*?data-testid="debate-watches">([^<]*)</g;
  for (const m of html.matchAll(item)) {
    out.push({ id: decodeURIComponent(m[1]), topic: m[2], watched: m[3] });
  }
  return out;
}

function nextHref(html: string): string | null {
  const m = html.match(/rel="next"\s+href="([^"]+)"/) ?? html.match(/href="([^"]+)"\s+rel="next"/);
  return m ? m[1].replaceAll("&amp;", "&") : null;
}

async function setArchive(t: TestApp, cookie: string, debateArchive: "public" | "private") {
  const res = await t.request("/api/profile/settings", {
    method: "PUT",
    headers: jsonWrite(t, cookie),
    body: JSON.stringify({ debateArchive }),
  });
  assert.equal(res.status, 200);
  await res.body?.cancel();
}

async function page(t: TestApp, path: string, cookie?: string): Promise<string> {
  const res = await t.request(path, cookie ? { headers: { cookie } } : undefined);
  assert.equal(res.status, 200, path);
  return await res.text();
}

Deno.test("/debates lists only public debates, newest first, in pages of 20", async () => {
  const c = clock();
  const t = await createTestApp({ llm: null, now: c.now });
  try {
    const ada = await signInAs(t, "Ada");
    const bob = await signInAs(t, "Bob");
    await setArchive(t, bob.cookie, "private");
    const adaIds: string[] = [];
    const bobTopics: string[] = [];
    for (let i = 0; i < 25; i++) {
      c.advance(1000);
      adaIds.push(await seed(t, ada.user.id, `Ada topic ${i}`));
      if (i % 8 === 0) {
        c.advance(10);
        bobTopics.push(`Bob secret ${i}`);
        await seed(t, bob.user.id, `Bob secret ${i}`);
      }
    }
    const newestFirst = adaIds.toReversed();

    const first = await page(t, "/debates");
    assert.match(first, /<h1>Public debates<\/h1>/);
    const one = listed(first);
    assert.deepEqual(one.map((d) => d.id), newestFirst.slice(0, 20));
    for (const topic of bobTopics) assert.ok(!first.includes(topic), `${topic} is private`);
    const next = nextHref(first);
    assert.ok(next, "a next page link");
    const second = await page(t, next);
    const two = listed(second);
    assert.deepEqual(two.map((d) => d.id), newestFirst.slice(20));
    assert.equal(nextHref(second), null, "the last page has no next link");
    for (const topic of bobTopics) assert.ok(!second.includes(topic));

    // Bob's archive turns public: his debates join the list in time order.
    await setArchive(t, bob.cookie, "public");
    const all = listed(await page(t, "/debates"));
    assert.equal(all.length, 20);
    assert.equal(all[0].topic, "Bob secret 24");
    assert.equal(all[1].id, newestFirst[0]);
    // And Ada's turn private: only Bob's remain.
    await setArchive(t, ada.cookie, "private");
    const bobOnly = listed(await page(t, "/debates"));
    assert.deepEqual(bobOnly.map((d) => d.topic), bobTopics.toReversed());
  } finally {
    await t.close();
  }
});

Deno.test("/debates empty state, a bad cursor answers 400, an unknown sort falls back to newest", async () => {
  const t = await createTestApp({ llm: null });
  try {
    const html = await page(t, "/debates");
    assert.match(html, /data-testid="debates-empty"/);
    assert.match(html, /No public debates yet\./);
    const watched = await page(t, "/debates?sort=watched");
    assert.match(watched, /No public debate has been watched yet\./);
    assert.match(await page(t, "/debates?sort=bogus"), /aria-current="page">\s*Newest/);
    const bad = await t.request("/debates?cursor=%3Cnot-a-cursor%3E");
    assert.equal(bad.status, 400);
    await bad.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("most watched: distinct members other than the owner who opened the debate", async () => {
  const c = clock();
  const t = await createTestApp({ llm: null, now: c.now });
  try {
    const ada = await signInAs(t, "Ada");
    const bob = await signInAs(t, "Bob");
    const grace = await signInAs(t, "Grace");
    const lin = await signInAs(t, "Lin");
    await setArchive(t, bob.cookie, "private");
    c.advance(1000);
    const x = await seed(t, ada.user.id, "Debate X");
    c.advance(1000);
    const y = await seed(t, ada.user.id, "Debate Y");
    c.advance(1000);
    await seed(t, ada.user.id, "Debate Z (never opened)");
    c.advance(1000);
    const hidden = await seed(t, bob.user.id, "Bob's private debate");

    await page(t, `/debates/${x}`, grace.cookie);
    await page(t, `/debates/${x}`, grace.cookie); // a reload: not counted again
    await page(t, `/debates/${x}`, lin.cookie);
    await page(t, `/debates/${x}`, ada.cookie); // the owner: not counted
    await page(t, `/debates/${x}`); // signed out: not counted (served from the page cache)
    await page(t, `/debates/${y}`, lin.cookie);
    await page(t, `/debates/${hidden}`, bob.cookie);
    const refused = await t.request(`/debates/${hidden}`, { headers: { cookie: grace.cookie } });
    assert.equal(refused.status, 404);
    await refused.body?.cancel();

    const watched = listed(await page(t, "/debates?sort=watched"));
    assert.deepEqual(watched.map((d) => [d.topic, d.watched]), [
      ["Debate X", "Watched by 2 members"],
      ["Debate Y", "Watched by 1 member"],
    ]);
    // Y overtakes X once two more members open it.
    await page(t, `/debates/${y}`, grace.cookie);
    await page(t, `/debates/${y}`, bob.cookie);
    // Read signed in: a signed-out page may be up to the page cache's TTL old.
    const after = listed(await page(t, "/debates?sort=watched", ada.cookie));
    assert.deepEqual(after.map((d) => [d.id, d.watched]), [
      [y, "Watched by 3 members"],
      [x, "Watched by 2 members"],
    ]);
    // The newest list shows the same counts, and the unwatched debate with 0.
    const newest = listed(await page(t, "/debates", ada.cookie));
    assert.deepEqual(newest.map((d) => d.watched), [
      "Watched by 0 members",
      "Watched by 3 members",
      "Watched by 2 members",
    ]);
    assert.ok(!newest.some((d) => d.id === hidden));
  } finally {
    await t.close();
  }
});

Deno.test("a running debate's permalink hydrates the live follower; a finished one does not; /debate links /debates", async () => {
  const t = await createTestApp({ llm: null });
  try {
    const ada = await signInAs(t, "Ada");
    const running = await seed(t, ada.user.id, "Still going", "in_progress");
    const done = await seed(t, ada.user.id, "All over");
    assert.match(await page(t, `/debates/${running}`), /data-island="DebateFollow"/);
    assert.doesNotMatch(await page(t, `/debates/${done}`), /data-island="DebateFollow"/);
    assert.match(await page(t, `/debates/${done}`), /href="\/debates"/);
    assert.match(await page(t, "/debate"), /href="\/debates"/);
  } finally {
    await t.close();
  }
});

Deno.test("a debate's status reads the same on /debates, its page and the owner's /debate history", async () => {
  const c = clock();
  const t = await createTestApp({ llm: null, now: c.now });
  try {
    const ada = await signInAs(t, "Ada");
    const statusOf = (html: string, topic: string) => {
      const at = html.indexOf(`>${topic}<`);
      assert.ok(at > 0, `${topic} shown`);
      return /class="debate-status debate-status-[a-z_]+">([^<]*)</.exec(html.slice(at))?.[1];
    };
    c.advance(1000);
    const done = await seed(t, ada.user.id, "All over");
    c.advance(1000);
    const failed = await seed(t, ada.user.id, "Cut short", "failed");
    const list = await page(t, "/debates");
    const history = await page(t, "/debate", ada.cookie);
    for (
      const [id, topic, word] of [[done, "All over", "finished"], [
        failed,
        "Cut short",
        "stopped early",
      ]]
    ) {
      assert.equal(statusOf(list, topic), word, `/debates: ${topic}`);
      assert.equal(statusOf(history, topic), word, `/debate history: ${topic}`);
      assert.equal(statusOf(await page(t, `/debates/${id}`), topic), word, `its page: ${topic}`);
    }
    for (const html of [list, history]) assert.doesNotMatch(html, />\s*(completed|Completed)\s*</);

    // A debate still running is listed (live), never under "will be listed here".
    const bob = await signInAs(t, "Bob");
    c.advance(1000);
    await seed(t, bob.user.id, "Still going", "in_progress");
    const bobs = await page(t, "/debate", bob.cookie);
    assert.equal(statusOf(bobs, "Still going"), "live");
    assert.doesNotMatch(bobs, /debate-history-empty/);
  } finally {
    await t.close();
  }
});
