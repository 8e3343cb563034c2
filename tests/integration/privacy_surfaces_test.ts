/**
 * Each privacy setting holds on every surface that shows what a person did (docs/interface.md#profiles):
 * - "Activity feed: Only me" (`activityVisibility`): no activity section on the public profile
 *   page, empty recent lists in the public profile API, 403 from the activity API for every
 *   kind, no Atom feed, no sitemap entry — signed out and signed in as someone else; the
 *   owner still sees it all, and the posts stay public where they were posted.
 * - Vote history (`voteHistory`): the votes tab, and the person's name in voter lists of the
 *   REST API and MCP's get_question.
 * - Debate archive (`debateArchive`): the debates tab, the saved debate page and its event
 *   stream, the /debates list and the debate sitemap.
 */
import assert from "node:assert/strict";
import { XMLParser } from "fast-xml-parser";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createDebate, type DebateRecord } from "@/lib/debates/store.ts";
import { jobRunner } from "@/lib/jobs/runner.ts";
import {
  createTestApp,
  jsonWrite,
  serveAppOnLoopback,
  type TestApp,
  waitForJobs,
} from "../helpers/app.ts";
import {
  agentKey,
  answer,
  ask,
  getAs,
  json,
  type Member,
  member,
  postAs,
} from "../helpers/community.ts";

const ORIGIN = "https://parley.example";
const KINDS = ["questions", "answers", "debates", "likes", "favorites"];
const xml = new XMLParser({ isArray: (name) => name === "url" });

async function settle(t: TestApp, who: Member, settings: Record<string, string>) {
  const res = await t.request("/api/profile/settings", {
    method: "PUT",
    headers: jsonWrite(t, who.cookie),
    body: JSON.stringify(settings),
  });
  assert.equal(res.status, 200);
  await res.body?.cancel();
}

async function seedDebate(t: TestApp, userId: string, topic: string): Promise<string> {
  const now = Date.now();
  const record: DebateRecord = {
    id: `debate_${now}_${crypto.randomUUID().slice(0, 8)}`,
    topic,
    userId,
    userProfile: { id: userId, name: "Ada", avatar: "", bio: "" },
    opponentProfile: { id: "persona-x", name: "Dr. Opponent", avatar: "", bio: "", title: "S" },
    status: "completed",
    synthesis: null,
    messageCount: 0,
    standIn: false,
    createdAt: now,
    updatedAt: now,
  };
  assert.ok(await createDebate(t.kv, record));
  return record.id;
}

/** Every URL a sitemap page lists (empty when the page has none). */
async function sitemapLocs(t: TestApp, kind: string): Promise<string[]> {
  const res = await t.request(`/sitemaps/${kind}/1.xml`);
  if (res.status === 404) return [];
  assert.equal(res.status, 200);
  const doc = xml.parse(await res.text());
  return (doc.urlset?.url ?? []).map((u: { loc: string }) => u.loc);
}

async function rollSitemaps(t: TestApp) {
  await jobRunner(t.kv).pass();
  await waitForJobs();
}

async function world() {
  const t = await createTestApp({ env: { APP_ORIGIN: ORIGIN } });
  const ada = await member(t, "Ada");
  const bob = await member(t, "Bob");
  const bq = await ask(t, bob, { title: "Bob asks about bicycles" });
  await answer(t, ada, bq, "Ada answers about bicycles");
  const aq = await ask(t, ada, { title: "Ada asks about engines" });
  await postAs(t, ada, "/api/likes", { targetId: bq, targetType: "question" });
  await postAs(t, ada, "/api/favorites", { targetId: bq, targetType: "question" });
  const debate = await seedDebate(t, ada.id, "Ada debates engines");
  return { t, ada, bob, bq, aq, debate };
}

Deno.test("'Activity feed: Only me' hides the activity on every surface from everyone but its owner", async () => {
  const { t, ada, bob, bq, aq } = await world();
  try {
    await settle(t, ada, { activityVisibility: "public", voteHistory: "public" });
    await rollSitemaps(t);
    assert.ok((await sitemapLocs(t, "profiles")).includes(`${ORIGIN}/u/${ada.id}`));
    assert.equal((await getAs(t, null, `/feeds/users/${ada.id}`)).status, 200);
    const open = await (await getAs(t, null, `/u/${ada.id}`)).text();
    assert.match(open, /id="activity-h"[^>]*>Activity</);

    await settle(t, ada, { activityVisibility: "private" });
    for (const viewer of [null, bob]) {
      const who = viewer ? "Bob" : "signed out";
      // The public profile page: no Activity section, no tabs, a sentence instead.
      for (const tab of ["", ...KINDS.map((k) => `?tab=${k}`)]) {
        const res = await getAs(t, viewer, `/u/${ada.id}${tab}`);
        assert.equal(res.status, 200);
        const html = await res.text();
        const body = html.slice(html.indexOf("<body"));
        assert.doesNotMatch(
          body,
          /id="activity-h"|aria-label="Activity"|class="tabs"/,
          `${who} ${tab}`,
        );
        assert.doesNotMatch(
          body,
          /Ada asks about engines|Ada answers about bicycles/,
          `${who} ${tab}`,
        );
        assert.match(body, /Ada keeps their activity private\./, `${who} ${tab}`);
      }
      // The public profile API: no recent items, nothing visible.
      const api = await json<Record<string, unknown>>(
        getAs(t, viewer, `/api/profile/public/${ada.id}`),
      );
      assert.equal(api.status, 200);
      assert.deepEqual([api.body.recentQuestions, api.body.recentAnswers], [[], []], who);
      assert.ok(!Object.values(api.body.visibleActivity as object).some(Boolean), who);
      // The activity API: every kind refused.
      for (const type of KINDS) {
        const res = await getAs(t, viewer, `/api/profile/public/${ada.id}/activity?type=${type}`);
        assert.equal(res.status, 403, `${who} ${type}`);
        await res.body?.cancel();
      }
      // The Atom feed of her activity is gone.
      const feed = await getAs(t, viewer, `/feeds/users/${ada.id}`);
      assert.equal(feed.status, 404, who);
      await feed.body?.cancel();
    }
    await rollSitemaps(t);
    assert.ok(!(await sitemapLocs(t, "profiles")).includes(`${ORIGIN}/u/${ada.id}`), "sitemap");
    assert.ok((await sitemapLocs(t, "profiles")).includes(`${ORIGIN}/u/${bob.id}`));

    // The owner still sees everything.
    const own = await (await getAs(t, ada, `/u/${ada.id}`)).text();
    assert.match(own, /id="activity-h"[^>]*>Activity</);
    assert.match(own, /Ada asks about engines/);
    for (const type of KINDS) {
      const res = await getAs(t, ada, `/api/profile/public/${ada.id}/activity?type=${type}`);
      assert.equal(res.status, 200, type);
      await res.body?.cancel();
    }
    // The posts themselves stay public where they were posted, with her name.
    const q = await (await getAs(t, null, `/questions/${aq}`)).text();
    assert.match(q, /Ada asks about engines/);
    const thread = await json<{ messages: { content: string; author: { id: string } }[] }>(
      getAs(t, null, `/api/questions/${bq}`),
    );
    assert.ok(thread.body.messages.some((m) => m.author.id === ada.id));
  } finally {
    await t.close();
  }
});

Deno.test("vote history private: no votes tab and no name in the REST API's voter lists; public: both; MCP never lists voters", async () => {
  const { t, ada, bob, bq } = await world();
  const srv = serveAppOnLoopback(t);
  const client = new Client({ name: "parley-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${await agentKey(t, bob)}` } },
    }),
  );
  const likedBy = async () => {
    const rest = await json<{ likedBy: string[] }>(getAs(t, bob, `/api/questions/${bq}`));
    const mcp = await client.callTool({ name: "get_question", arguments: { id: bq } });
    return {
      rest: rest.body.likedBy,
      // MCP answers carry vote counts only, never voter lists (they are kept small).
      mcp: (mcp.structuredContent as { likedBy?: string[] }).likedBy ?? null,
    };
  };
  try {
    await settle(t, ada, { voteHistory: "private" });
    assert.deepEqual(await likedBy(), { rest: [], mcp: null });
    assert.equal(
      (await getAs(t, bob, `/api/profile/public/${ada.id}/activity?type=likes`)).status,
      403,
    );
    const page = await (await getAs(t, null, `/u/${ada.id}?tab=likes`)).text();
    assert.match(page, /Votes <span class="hint">\(private\)/);
    assert.doesNotMatch(page, /data-testid="activity-likes"/);

    await settle(t, ada, { voteHistory: "public" });
    assert.deepEqual(await likedBy(), { rest: [ada.id], mcp: null });
    assert.equal(
      (await getAs(t, bob, `/api/profile/public/${ada.id}/activity?type=likes`)).status,
      200,
    );
  } finally {
    await client.close();
    await srv.close();
    await t.close();
  }
});

Deno.test("debate archive private: no debates tab, the saved debate and its events closed to others, off /debates and the sitemap", async () => {
  const { t, ada, bob, debate } = await world();
  try {
    await settle(t, ada, { debateArchive: "private" });
    await rollSitemaps(t);
    for (const viewer of [null, bob]) {
      const page = await getAs(t, viewer, `/debates/${debate}`);
      assert.equal(page.status, 404);
      assert.doesNotMatch(await page.text(), /Ada debates engines/);
      const events = await getAs(t, viewer, `/api/debates/${debate}/events`);
      assert.ok(events.status === 404 || events.status === 403, String(events.status));
      await events.body?.cancel();
      const list = await (await getAs(t, viewer, "/debates")).text();
      assert.doesNotMatch(list, /Ada debates engines/);
      const res = await getAs(t, viewer, `/api/profile/public/${ada.id}/activity?type=debates`);
      assert.equal(res.status, 403);
      await res.body?.cancel();
      const profile = await (await getAs(t, viewer, `/u/${ada.id}?tab=debates`)).text();
      assert.match(profile, /Debates <span class="hint">\(private\)/);
      assert.doesNotMatch(profile, /Ada debates engines/);
    }
    assert.ok(!(await sitemapLocs(t, "debates")).some((l) => l.includes(debate)));
    assert.equal((await getAs(t, ada, `/debates/${debate}`)).status, 200, "the owner reads it");

    await settle(t, ada, { debateArchive: "public" });
    await rollSitemaps(t);
    assert.equal((await getAs(t, null, `/debates/${debate}`)).status, 200);
    assert.match(await (await getAs(t, null, "/debates")).text(), /Ada debates engines/);
    assert.ok((await sitemapLocs(t, "debates")).some((l) => l.includes(debate)));
  } finally {
    await t.close();
  }
});
