/**
 * The one visibility rule (lib/community/visibility.ts, docs/interface.md#moderation): a deleted
 * or hidden post exists only for its author and moderators — on every route and MCP tool that
 * reads posts, in notifications, in vote lists and counts, and in what Parley sends a model.
 * The route table below is checked against the manifest and the tool table against the MCP
 * server's tool list, so a new reader cannot be added without being classified here.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import manifest from "@/manifest.gen.ts";
import { createTestApp, serveAppOnLoopback, type TestApp } from "../helpers/app.ts";
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

const HIDDEN_Q = "Zanzibarhiddenquestion";
const HIDDEN_A = "Quokkahiddenanswer";
const DELETED_A = "Wombatdeletedanswer";
const SECRETS = [HIDDEN_Q, HIDDEN_A, DELETED_A];

interface World {
  t: TestApp;
  asker: Member;
  helper: Member;
  stranger: Member;
  mod: Member;
  qid: string;
  hiddenQid: string;
  hiddenAid: string;
  deletedAid: string;
}

async function moderate(
  t: TestApp,
  mod: Member,
  targetType: string,
  targetId: string,
  action: string,
) {
  const res = await postAs(t, mod, "/api/mod/actions", { targetType, targetId, action });
  assert.equal(res.status, 200, await res.text());
}

/** A live question with a hidden and a deleted answer, and a hidden question. */
async function world(): Promise<World> {
  const t = await createTestApp();
  const [asker, helper, stranger, mod] = await Promise.all(
    ["Asker", "Helper", "Stranger", "Mo"].map((n) => member(t, n)),
  );
  t.services.config.moderators = [mod.id];
  const qid = await ask(t, asker, { title: "How do I water ferns", tags: ["garden"] });
  const hiddenAid = await answer(t, helper, qid, `${HIDDEN_A} buy watches at spam.example`);
  const deletedAid = await answer(t, helper, qid, `${DELETED_A} said something regretted`);
  await answer(t, stranger, qid, "Water them weekly, from below.");
  const hiddenQid = await ask(t, asker, {
    title: `${HIDDEN_Q} offensive title`,
    description: `${HIDDEN_Q} body`,
    tags: ["garden"],
  });
  await moderate(t, mod, "message", hiddenAid, "hide");
  await moderate(t, mod, "question", hiddenQid, "hide");
  const del = await t.request(`/api/messages/${deletedAid}`, {
    method: "DELETE",
    headers: { cookie: helper.cookie, origin: t.services.config.appOrigin },
  });
  assert.equal(del.status, 200, await del.text());
  return { t, asker, helper, stranger, mod, qid, hiddenQid, hiddenAid, deletedAid };
}

/**
 * Every route file of the manifest: the GET paths that read posts (checked), or why it
 * reads none. `{q}` is the live question, `{hq}` the hidden one, `{u}` the helper's id,
 * `{a}` the asker's.
 */
const ROUTES: Record<string, string[] | string> = {
  "./routes/_404.tsx": "error page",
  "./routes/_500.tsx": "error page",
  "./routes/_app.tsx": "layout",
  "./routes/_middleware.ts": "middleware",
  "./routes/.well-known/oauth-authorization-server.ts": "OAuth discovery document",
  "./routes/.well-known/oauth-protected-resource/index.ts": "OAuth discovery document",
  "./routes/.well-known/oauth-protected-resource/mcp.ts": "OAuth discovery document",
  "./routes/api/agent/(key)/_middleware.ts": "middleware",
  "./routes/api/agent/(key)/me.ts": "the key owner's profile",
  "./routes/api/agent/(key)/messages/[id].ts": "writes (edit/delete own)",
  "./routes/api/agent/(key)/notifications.ts": "notifications: its own test below",
  "./routes/api/agent/(key)/questions/[id]/index.ts": "writes (edit/delete own)",
  "./routes/api/agent/(key)/questions/[id]/reply.ts": "writes; refuses a hidden question",
  "./routes/api/agent/(key)/questions/[id]/vote.ts": "writes; 404 on hidden targets",
  "./routes/api/agent/(key)/questions/index.ts": "agent: checked with a key below",
  "./routes/api/agent/(key)/questions/similar.ts": "agent: checked with a key below",
  "./routes/api/agent/participate.ts": "prompt: reads public posts only (listThreadTail)",
  "./routes/api/agent/participate/post.ts": "writes a reviewed draft",
  "./routes/api/agent/participate/preview.ts": "prompt: reads public posts only",
  "./routes/api/ai/draft.ts": "prompt: finding 1 test",
  "./routes/api/ai/question-ideas.ts": "prompt from a keyword, no posts",
  "./routes/api/auth/bind/start.ts": "auth",
  "./routes/api/auth/callback/[provider].ts": "auth",
  "./routes/api/auth/callback/index.ts": "auth",
  "./routes/api/auth/login/[provider].ts": "auth",
  "./routes/api/auth/login/index.ts": "auth",
  "./routes/api/auth/logout.ts": "auth",
  "./routes/api/auth/session.ts": "auth",
  "./routes/api/debate.ts": "debates are not posts",
  "./routes/api/debate/history.ts": "debates are not posts",
  "./routes/api/debates/[id].ts": "debates are not posts",
  "./routes/api/debates/[id]/events.ts": "debates are not posts",
  "./routes/api/roundtables/index.ts": "roundtables are not posts",
  "./routes/api/roundtables/[id]/index.ts": "roundtables are not posts",
  "./routes/api/roundtables/[id]/events.ts": "roundtables are not posts",
  "./routes/api/roundtables/[id]/interject.ts": "roundtables are not posts",
  "./routes/api/experts.ts": "expert list",
  "./routes/api/favorites.ts": ["/api/favorites"],
  "./routes/api/feed.ts": ["/api/feed", "/api/feed?type=trending"],
  "./routes/api/flags.ts": "writes: finding 1 test",
  "./routes/api/likes.ts": "writes; 404 on hidden targets",
  "./routes/api/local-llm/v1/chat/completions.ts": "the stand-in model",
  "./routes/api/local-llm/v1/embeddings.ts": "the stand-in model",
  "./routes/api/markdown/preview.ts": "renders the caller's text",
  "./routes/api/messages/[id]/index.ts": "writes (edit/delete own)",
  "./routes/api/messages/[id]/revisions.ts": ["/api/messages/{ha}/revisions"],
  "./routes/api/mod/actions.ts": "moderators only",
  "./routes/api/mod/log.ts": "moderators only",
  "./routes/api/mod/queue.ts": "moderators only",
  "./routes/api/mod/users/[id].ts": "moderators only (writes)",
  "./routes/api/mod/debates/[id].ts": "moderators only (writes)",
  "./routes/api/mod/roundtables/[id].ts": "moderators only (writes)",
  "./routes/api/notifications/index.ts": "notifications: finding 2 test",
  "./routes/api/notifications/read.ts": "writes",
  "./routes/api/notifications/stream.ts": "unread count only",
  "./routes/api/openapi.json.ts": "documentation",
  "./routes/api/profile/activity.ts": ["/api/profile/activity?type=answers"],
  "./routes/api/profile/agent-keys.ts": "keys",
  "./routes/api/profile/connected-apps/[id].ts": "revokes an OAuth grant",
  "./routes/api/profile/connected-apps/index.ts": "OAuth grants: app names and scopes",
  "./routes/api/profile/export.ts": "own data only: tests/integration/account_data_test.ts",
  "./routes/api/profile/identities.ts": "identities",
  "./routes/api/profile/me.ts": "own profile",
  "./routes/api/profile/public/[userId].ts": ["/api/profile/public/{u}", "/api/profile/public/{a}"],
  "./routes/api/profile/public/[userId]/activity.ts": [
    "/api/profile/public/{u}/activity?type=answers",
    "/api/profile/public/{a}/activity?type=questions",
  ],
  "./routes/api/profile/settings.ts": "settings",
  "./routes/api/profile/stats.ts": "counts",
  "./routes/api/questions/[id]/accept.ts": "writes",
  "./routes/api/questions/[id]/events.ts": "counts only (messageCount: finding 9 test)",
  "./routes/api/questions/[id]/follow.ts": "writes; 404 on a hidden question",
  "./routes/api/questions/[id]/index.ts": ["/api/questions/{q}", "/api/questions/{hq}"],
  "./routes/api/questions/[id]/invite.ts": "writes: finding 1 test",
  "./routes/api/questions/[id]/map.ts": ["/api/questions/{q}/map", "/api/questions/{hq}/map"],
  "./routes/api/questions/[id]/messages.ts": "writes; refuses a hidden question",
  "./routes/api/questions/[id]/panel/events.ts": "expert events of a question it checks",
  "./routes/api/questions/[id]/revisions.ts": ["/api/questions/{hq}/revisions"],
  "./routes/api/questions/[id]/summary.ts": [
    "/api/questions/{q}/summary",
    "/api/questions/{hq}/summary",
  ],
  "./routes/api/questions/similar.ts": [
    `/api/questions/similar?title=${HIDDEN_Q}%20offensive%20title`,
    "/api/questions/similar?title=garden%20ferns",
  ],
  "./routes/api/questions/index.ts": [
    "/api/questions",
    "/api/questions?q=zanzibarhidden",
    "/api/questions?tag=garden",
  ],
  "./routes/ask.tsx": "form",
  "./routes/auth/callback/oauth.ts": "auth",
  "./routes/auth/callback/provider_a.ts": "auth",
  "./routes/debate.tsx": "debates are not posts",
  "./routes/debates/[id].tsx": "debates are not posts",
  "./routes/debates/index.tsx": "debates are not posts",
  "./routes/roundtables/index.tsx": "roundtables are not posts",
  "./routes/roundtables/[id].tsx": "roundtables are not posts",
  "./routes/docs/api.tsx": "documentation",
  "./routes/favicon.ico.ts": "icon",
  "./routes/index.tsx": ["/", "/?q=zanzibarhidden", "/?tag=garden"],
  "./routes/local-oauth/[provider]/authorize.tsx": "local sign-in",
  "./routes/local-oauth/[provider]/emails.ts": "local sign-in",
  "./routes/local-oauth/[provider]/token.ts": "local sign-in",
  "./routes/local-oauth/[provider]/user.ts": "local sign-in",
  "./routes/local-oauth/[provider]/userinfo.ts": "local sign-in",
  "./routes/local-oauth/_middleware.ts": "middleware",
  "./routes/local-oauth/avatar/[id].ts": "local sign-in",
  "./routes/mcp.ts": "MCP: the tool table below",
  "./routes/feeds/questions.ts": ["/feeds/questions"],
  "./routes/feeds/questions/[id].ts": ["/feeds/questions/{q}", "/feeds/questions/{hq}"],
  "./routes/feeds/tags/[tag].ts": ["/feeds/tags/garden"],
  "./routes/feeds/users/[userId].ts": ["/feeds/users/{u}", "/feeds/users/{a}"],
  "./routes/mod.tsx": "moderators only",
  "./routes/oauth/authorize.tsx": "consent page: names the app, reads no posts",
  "./routes/oauth/register.ts": "OAuth client registration",
  "./routes/oauth/revoke.ts": "OAuth token revocation",
  "./routes/oauth/token.ts": "OAuth tokens",
  "./routes/notifications.tsx": "notifications: finding 2 test",
  "./routes/notifications/open/[id].ts": "a redirect to the notification's own post, which checks",
  "./routes/profile/agent-keys.tsx": "keys",
  "./routes/profile/index.tsx": "own profile",
  "./routes/questions/[id].tsx": ["/questions/{q}", "/questions/{hq}"],
  "./routes/questions/[id]/edit.tsx": "author only",
  "./routes/questions/[id]/revisions.tsx": ["/questions/{hq}/revisions"],
  "./routes/robots.txt.ts": "crawler rules",
  "./routes/signin.tsx": "sign-in",
  "./routes/sitemap.xml.ts": "sitemap index: page links only",
  "./routes/sitemaps/[kind]/[page].ts": "URLs only: tests/integration/seo_test.ts",
  "./routes/skill.md.ts": "documentation",
  "./routes/theme.ts": "theme",
  "./routes/u/[userId].tsx": ["/u/{u}", "/u/{a}"],
};

function fill(path: string, w: World): string {
  return path.replaceAll("{q}", w.qid).replaceAll("{hq}", w.hiddenQid)
    .replaceAll("{ha}", w.hiddenAid).replaceAll("{u}", w.helper.id).replaceAll("{a}", w.asker.id);
}

function leaked(body: string): string[] {
  return SECRETS.filter((s) => body.includes(s));
}

Deno.test("visibility: every manifest route is classified, and no post-reading route shows a hidden question, a hidden answer or a deleted answer to a stranger or anonymously", async () => {
  const unclassified = Object.keys(manifest.routes).filter((r) => !(r in ROUTES));
  assert.deepEqual(unclassified, [], "classify each new route in ROUTES");
  const gone = Object.keys(ROUTES).filter((r) => !(r in manifest.routes));
  assert.deepEqual(gone, [], "ROUTES names a route that no longer exists");
  const w = await world();
  try {
    const problems: string[] = [];
    for (const paths of Object.values(ROUTES)) {
      if (typeof paths === "string") continue;
      for (const p of paths) {
        for (const who of [null, w.stranger]) {
          const res = await getAs(w.t, who, fill(p, w));
          const body = await res.text();
          assert.ok(res.status < 500, `${p}: ${res.status}`);
          const found = leaked(body);
          if (found.length) problems.push(`${p} (${who ? "stranger" : "anonymous"}): ${found}`);
        }
      }
    }
    assert.deepEqual(problems, []);
    // The author and moderators still see the hidden question.
    for (const who of [w.asker, w.mod]) {
      const body = await (await getAs(w.t, who, `/api/questions/${w.hiddenQid}`)).text();
      assert.ok(body.includes(HIDDEN_Q), who.name);
    }
    const helperView = await (await getAs(w.t, w.helper, `/api/questions/${w.qid}`)).text();
    assert.ok(helperView.includes(HIDDEN_A), "the hidden answer's author still sees it");
    // The agent list, with a key.
    const key = await agentKey(w.t, w.stranger);
    const listed = await (await agentCall(w.t, key, "/api/agent/questions?limit=50")).text();
    assert.deepEqual(leaked(listed), []);
    const similar = await agentCall(
      w.t,
      key,
      `/api/agent/questions/similar?title=${HIDDEN_Q}%20offensive%20title`,
    );
    assert.equal(similar.status, 200);
    assert.deepEqual(leaked(await similar.text()), []);
  } finally {
    await w.t.close();
  }
});

/** MCP tools and how each is read (or why it reads no posts). */
const TOOLS: Record<string, ((w: World) => Record<string, unknown>)[] | string> = {
  search_questions: [() => ({ q: "zanzibarhidden" }), () => ({ tag: "garden" }), () => ({})],
  similar_questions: [
    () => ({ title: `${HIDDEN_Q} offensive title` }),
    () => ({ title: "Watering ferns in the garden" }),
  ],
  get_question: [
    (w) => ({ id: w.qid }),
    (w) => ({ id: w.hiddenQid }),
    (w) => ({ id: w.qid, answer: w.hiddenAid }),
    (w) => ({ id: w.qid, answer: w.deletedAid }),
  ],
  read_post: [
    (w) => ({ targetType: "question", id: w.qid }),
    (w) => ({ targetType: "question", id: w.hiddenQid }),
    (w) => ({ targetType: "message", id: w.hiddenAid }),
    (w) => ({ targetType: "message", id: w.deletedAid }),
  ],
  get_thread_summary: [(w) => ({ id: w.qid }), (w) => ({ id: w.hiddenQid })],
  ask_question: "writes",
  reply: "writes; refuses a hidden question",
  vote: "writes; 404 on hidden targets",
  edit_post: "writes own posts",
  delete_post: "writes own posts",
  list_notifications: "notifications: finding 2 test",
};

async function mcpClient(url: string, key: string): Promise<Client> {
  const client = new Client({ name: "visibility-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

Deno.test("visibility: every MCP tool is classified, and none that reads posts shows hidden or deleted content to a stranger", async () => {
  const w = await world();
  const srv = serveAppOnLoopback(w.t);
  const client = await mcpClient(srv.url, await agentKey(w.t, w.stranger));
  try {
    const { tools } = await client.listTools();
    const names: string[] = tools.map((t: Tool) => t.name);
    assert.deepEqual(names.filter((n) => !(n in TOOLS)), [], "classify each new tool in TOOLS");
    assert.deepEqual(Object.keys(TOOLS).filter((n) => !names.includes(n)), []);
    for (const [name, calls] of Object.entries(TOOLS)) {
      if (typeof calls === "string") continue;
      for (const args of calls) {
        const r = await client.callTool({ name, arguments: args(w) });
        assert.deepEqual(leaked(JSON.stringify(r)), [], `${name} ${JSON.stringify(args(w))}`);
      }
    }
    const hidden = await client.callTool({ name: "get_question", arguments: { id: w.hiddenQid } });
    assert.equal(hidden.isError, true);
    const hiddenInsights = await client.callTool({
      name: "get_thread_summary",
      arguments: { id: w.hiddenQid },
    });
    assert.equal(hiddenInsights.isError, true);
    for (const id of [w.hiddenAid, w.deletedAid]) {
      const post = await client.callTool({
        name: "read_post",
        arguments: { targetType: "message", id },
      });
      assert.equal(post.isError, true, id);
    }
    // Resources, prompts and completions read posts too.
    const listed = await client.listResources();
    assert.ok(
      listed.resources.some((r: { uri: string }) => r.uri === `parley://questions/${w.qid}`),
    );
    assert.deepEqual(leaked(JSON.stringify(listed)), [], "resources/list");
    const read = await client.readResource({ uri: `parley://questions/${w.qid}` });
    assert.deepEqual(leaked(JSON.stringify(read)), [], "resources/read");
    await assert.rejects(client.readResource({ uri: `parley://questions/${w.hiddenQid}` }));
    for (const name of ["answer_question", "summarize_thread"]) {
      const got = await client.getPrompt({ name, arguments: { id: w.qid } });
      assert.deepEqual(leaked(JSON.stringify(got)), [], name);
      await assert.rejects(client.getPrompt({ name, arguments: { id: w.hiddenQid } }), /not found/);
    }
    const drafted = await client.getPrompt({
      name: "draft_question",
      arguments: { topic: "zanzibarhidden" },
    });
    assert.deepEqual(leaked(JSON.stringify(drafted)), [], "draft_question");
    const ids = await client.complete({
      ref: { type: "ref/resource", uri: "parley://questions/{id}" },
      argument: { name: "id", value: "" },
    });
    assert.ok(ids.completion.values.includes(w.qid));
    assert.ok(!ids.completion.values.includes(w.hiddenQid), "a hidden question is not offered");
  } finally {
    await client.close();
    await srv.close();
    await w.t.close();
  }
});

Deno.test("finding 1: a hidden question reaches no prompt — AI draft 404, invite 404 (the expert never writes), flag 404", async () => {
  const w = await world();
  try {
    const { t, stranger, asker, hiddenQid } = w;
    const draft = await postAs(t, stranger, "/api/ai/draft", { questionId: hiddenQid });
    assert.equal(draft.status, 404);
    await draft.body?.cancel();
    const own = await json<{ content: string }>(
      postAs(t, asker, "/api/ai/draft", { questionId: hiddenQid }),
    );
    assert.equal(own.status, 200, "its author may still draft on it");
    const invite = await postAs(t, stranger, `/api/questions/${hiddenQid}/invite`, {
      expertId: (await json<{ experts: { id: string }[] }>(getAs(t, null, "/api/experts"))).body
        .experts[0].id,
    });
    assert.equal(invite.status, 404);
    await invite.body?.cancel();
    const flag = await postAs(t, stranger, "/api/flags", {
      targetType: "question",
      targetId: hiddenQid,
      reason: "spam",
    });
    assert.equal(flag.status, 404);
    await flag.body?.cancel();
    const flagAnswer = await postAs(t, stranger, "/api/flags", {
      targetType: "message",
      targetId: w.hiddenAid,
      reason: "spam",
    });
    assert.equal(flagAnswer.status, 404);
    await flagAnswer.body?.cancel();
  } finally {
    await w.t.close();
  }
});

interface NotificationOut {
  type: string;
  messageId: string | null;
  title: string;
  excerpt: string;
  removed?: boolean;
}

Deno.test("finding 2: notifications of a hidden or deleted answer say removed, without the excerpt — REST, page, agent API and MCP", async () => {
  const w = await world();
  const srv = serveAppOnLoopback(w.t);
  const key = await agentKey(w.t, w.asker);
  const client = await mcpClient(srv.url, key);
  try {
    const rest = await json<{ notifications: NotificationOut[] }>(
      getAs(w.t, w.asker, "/api/notifications"),
    );
    const agent = await json<{ notifications: NotificationOut[] }>(
      agentCall(w.t, key, "/api/agent/notifications"),
    );
    const mcp = await client.callTool({ name: "list_notifications", arguments: {} });
    const page = await (await getAs(w.t, w.asker, "/notifications")).text();
    for (const body of [rest.body, agent.body, mcp.structuredContent as typeof rest.body]) {
      const about = (id: string) => body.notifications.find((n) => n.messageId === id);
      for (const id of [w.hiddenAid, w.deletedAid]) {
        const n = about(id);
        assert.ok(n, `a notification about ${id}`);
        assert.equal(n.removed, true);
        assert.equal(n.excerpt, "");
        assert.equal(n.title, "[removed]");
      }
      assert.deepEqual(leaked(JSON.stringify(body)), []);
      assert.ok(body.notifications.some((n) => !n.removed), "the live answer's stays");
    }
    assert.deepEqual(leaked(page), []);
  } finally {
    await client.close();
    await srv.close();
    await w.t.close();
  }
});

Deno.test("finding 3: likedBy lists only voters with a public vote history, plus the viewer; counts stay true (REST and MCP)", async () => {
  const t = await createTestApp();
  const srv = serveAppOnLoopback(t);
  try {
    const [asker, priv, pub, reader] = await Promise.all(
      ["Asker", "Private", "Public", "Reader"].map((n) => member(t, n)),
    );
    const res = await t.request("/api/profile/settings", {
      method: "PUT",
      headers: {
        cookie: pub.cookie,
        origin: t.services.config.appOrigin,
        "content-type": "application/json",
      },
      body: JSON.stringify({ voteHistory: "public" }),
    });
    assert.equal(res.status, 200, await res.text());
    const qid = await ask(t, asker, { title: "Who liked this question" });
    for (const who of [priv, pub]) {
      assert.equal(
        (await postAs(t, who, "/api/likes", { targetType: "question", targetId: qid })).status,
        200,
      );
    }
    const as = async (who: Member | null) =>
      (await json<{ likedBy: string[]; upvotes: number }>(getAs(t, who, `/api/questions/${qid}`)))
        .body;
    assert.deepEqual(await as(null), { ...(await as(null)), likedBy: [pub.id], upvotes: 2 });
    assert.deepEqual((await as(reader)).likedBy, [pub.id]);
    assert.deepEqual((await as(priv)).likedBy.sort(), [priv.id, pub.id].sort());
    const client = await mcpClient(srv.url, await agentKey(t, reader));
    try {
      // MCP answers carry no voter lists at all (kept small for a model), only the counts.
      const r = await client.callTool({ name: "get_question", arguments: { id: qid } });
      const q = r.structuredContent as { likedBy?: string[]; upvotes: number };
      assert.equal("likedBy" in q, false);
      assert.equal(q.upvotes, 2);
    } finally {
      await client.close();
    }
  } finally {
    await srv.close();
    await t.close();
  }
});

Deno.test("finding 9: messageCount leaves hidden messages out (question, feed) and counts them again when restored", async () => {
  const w = await world();
  try {
    const count = async (who: Member | null) =>
      (await json<{ messageCount: number }>(getAs(w.t, who, `/api/questions/${w.qid}`))).body
        .messageCount;
    // Three answers written: one deleted (gone), one hidden: one left for others.
    assert.equal(await count(null), 1);
    assert.equal(await count(w.stranger), 1);
    const feed = await json<{ questions: { id: string; messageCount: number }[] }>(
      getAs(w.t, null, "/api/questions"),
    );
    assert.equal(feed.body.questions.find((q) => q.id === w.qid)?.messageCount, 1);
    await moderate(w.t, w.mod, "message", w.hiddenAid, "restore");
    assert.equal(await count(null), 2);
  } finally {
    await w.t.close();
  }
});
