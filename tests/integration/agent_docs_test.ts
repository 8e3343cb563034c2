/**
 * The documentation an autonomous agent learns from cannot drift from the code:
 * - every request/response example of /skill.md is replayed against a real server and
 *   the answer must match the example (status, headers, body shape and literals);
 * - every operation of /api/openapi.json is called for real and each answer must
 *   conform to the documented schema of its status (JSON bodies, SSE event data,
 *   documented headers);
 * - /docs/api renders every operation and event of openapi.json;
 * - /skill.md is served as Markdown with a cache policy.
 */
import assert from "node:assert/strict";
import { bindIdentity } from "@/lib/auth/identities.ts";
import { createTestApp, signInAs, type TestApp } from "../helpers/app.ts";
import { httpExamples, shapeDiff } from "../helpers/http_examples.ts";
import { validateSchema } from "../helpers/json_schema.ts";
import { parseSse } from "../helpers/sse.ts";
import {
  answerConsent,
  authorizePath,
  connectApp,
  formPost,
  openConsent,
  pkce,
  registerApp,
  type Requester,
} from "../helpers/mcp_oauth.ts";

type Json = Record<string, unknown>;

/** The app on a real loopback port, its origin set to that port. */
async function liveApp(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; origin: string; close(): Promise<void> }> {
  let inner: Deno.ServeHandler = () => new Response("starting", { status: 503 });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req, info) => inner(req, info),
  );
  const origin = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  const t = await createTestApp({ env: { APP_ORIGIN: origin, ...env } });
  inner = (req, info) => t.app.fetch(req, info);
  return {
    t,
    origin,
    close: async () => {
      await server.shutdown();
      await t.close();
    },
  };
}

/** A person signed in to the live app, calling it like their browser would. */
interface Browser {
  id: string;
  cookie: string;
  get(path: string): Promise<Response>;
  send(method: string, path: string, body?: unknown): Promise<Response>;
}

async function browser(t: TestApp, origin: string, name: string): Promise<Browser> {
  const { user, cookie } = await signInAs(t, name);
  return {
    id: user.id,
    cookie,
    get: (path) => fetch(origin + path, { headers: { cookie } }),
    send: (method, path, body) =>
      fetch(origin + path, {
        method,
        headers: { cookie, origin, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
  };
}

async function jsonOf<T = Json>(res: Response | Promise<Response>): Promise<T> {
  const r = await res;
  assert.ok(r.ok, `${r.url}: ${r.status}`);
  return await r.json() as T;
}

Deno.test("every /skill.md example, replayed against a real server, gets the documented answer", async () => {
  // The guide's examples show established accounts (a new account's posts add
  // `newAccount: true`, checked against the schema in the conformance test below).
  const app = await liveApp({ NEW_ACCOUNT_HOURS: "0" });
  const { t, origin } = app;
  try {
    const ada = await browser(t, origin, "Ada");
    const bob = await browser(t, origin, "Bob");
    const carol = await browser(t, origin, "Carol");
    // The world the examples describe: one question by someone else, with one answer.
    const question = await jsonOf<{ id: string }>(
      bob.send("POST", "/api/questions", {
        title: "Paging a KV list",
        description: "How?",
        tags: ["deno"],
      }),
    );
    const message = await jsonOf<{ id: string }>(
      carol.send("POST", `/api/questions/${question.id}/messages`, { content: "Use cursors." }),
    );

    // The key owner's own posts, for the edit, delete and self-vote examples.
    const myQuestion = await jsonOf<{ id: string }>(
      ada.send("POST", "/api/questions", {
        title: "Paging a KV list fast",
        description: "Mine",
        tags: ["deno"],
      }),
    );
    const myMessage = await jsonOf<{ id: string }>(
      ada.send("POST", `/api/questions/${myQuestion.id}/messages`, { content: "Try ranges." }),
    );

    const md = await (await fetch(`${origin}/skill.md`)).text();
    const pairs = httpExamples(md);
    let key = "";
    const covered = new Set<string>();
    for (const { request, response: expected, line } of pairs) {
      if (!request) continue;
      const fill = (s: string) =>
        s.replaceAll("$PARLEY_KEY", key).replaceAll("{questionId}", question.id)
          .replaceAll("{messageId}", message.id).replaceAll("{myQuestionId}", myQuestion.id)
          .replaceAll("{myMessageId}", myMessage.id);
      const headers = new Headers();
      for (const [name, value] of request.headers) {
        if (name === "Host") assert.equal(value, new URL(origin).host, `line ${line}: Host`);
        else if (name === "Cookie") headers.set("cookie", ada.cookie);
        else headers.set(name, fill(value));
      }
      const path = fill(request.path);
      const res = await fetch(origin + path, {
        method: request.method,
        headers,
        body: request.body === null ? undefined : fill(request.body),
      });
      const where = `skill.md line ${line} (${request.method} ${request.path})`;
      assert.equal(res.status, expected.status, `${where}: status`);
      for (const [name, value] of expected.headers) {
        const real = res.headers.get(name);
        assert.ok(real !== null, `${where}: header ${name} missing`);
        if (name === "Content-Type") assert.ok(real.startsWith(value), `${where}: ${real}`);
        else if (/^\d+$/.test(value)) assert.match(real, /^\d+$/, `${where}: ${name}`);
        else assert.equal(real, value, `${where}: ${name}`);
      }
      const body = await res.json();
      assert.deepEqual(shapeDiff(expected.body, body), [], where);
      if (typeof body.key === "string" && body.key.startsWith("agent_")) key = body.key;
      covered.add(`${request.method} ${request.path.replace(/\?.*/, "")} ${res.status}`);
    }
    for (
      const needed of [
        "POST /api/profile/agent-keys 201",
        "GET /api/agent/me 200",
        "GET /api/agent/questions 200",
        "GET /api/agent/questions 401",
        "GET /api/questions/{questionId} 200",
        "GET /api/agent/questions/similar 200",
        "POST /api/agent/questions 201",
        "POST /api/agent/questions 400",
        "POST /api/agent/questions/{questionId}/reply 201",
        "POST /api/agent/questions/{questionId}/vote 200",
        "POST /api/agent/questions/{myQuestionId}/vote 403",
        "PATCH /api/agent/questions/{myQuestionId} 200",
        "PATCH /api/agent/questions/{questionId} 403",
        "PATCH /api/agent/messages/{myMessageId} 200",
        "DELETE /api/agent/messages/{myMessageId} 200",
        "DELETE /api/agent/questions/{myQuestionId} 200",
        "POST /api/agent/questions 403",
        "GET /.well-known/oauth-protected-resource 200",
      ]
    ) assert.ok(covered.has(needed), `skill.md has no example of ${needed}`);

    // A response shown on its own is the rate-limit answer: produce one with a fresh key.
    const alone = pairs.filter((p) => !p.request);
    assert.deepEqual(alone.map((p) => p.response.status), [429]);
    const spare = await jsonOf<{ key: string }>(
      ada.send("POST", "/api/profile/agent-keys", { name: "spare" }),
    );
    let limited: Response | null = null;
    for (let i = 0; i < 100 && !limited; i++) {
      const res = await fetch(`${origin}/api/agent/me`, {
        headers: { authorization: `Bearer ${spare.key}` },
      });
      if (res.status === 429) limited = res;
      else await res.body?.cancel();
    }
    assert.ok(limited, "the rate limit never answered 429");
    for (const [name] of alone[0].response.headers) {
      assert.ok(limited.headers.get(name) !== null, `429: header ${name} missing`);
    }
    assert.equal(limited.headers.get("x-ratelimit-remaining"), "0");
    assert.deepEqual(shapeDiff(alone[0].response.body, await limited.json()), []);
  } finally {
    await app.close();
  }
});

/** Records which documented operations and statuses were exercised, and checks each answer. */
function conformance(doc: Json) {
  const paths = doc.paths as Record<string, Record<string, Json>>;
  const seen = new Set<string>();
  return {
    seen,
    async check(method: string, template: string, res: Response): Promise<unknown> {
      const op = paths[template]?.[method.toLowerCase()];
      assert.ok(op, `${method} ${template} is not documented`);
      const documented = (op.responses as Record<string, Json>)[String(res.status)];
      const where = `${method} ${template} → ${res.status}`;
      assert.ok(documented, `${where}: status not documented`);
      seen.add(`${method.toLowerCase()} ${template} ${res.status}`);
      for (const name of Object.keys((documented.headers ?? {}) as Json)) {
        assert.ok(res.headers.get(name) !== null, `${where}: documented header ${name} missing`);
      }
      const content = (documented.content ?? {}) as Record<string, { schema: Json }>;
      const type = res.headers.get("content-type") ?? "";
      if (content["text/event-stream"]) {
        assert.match(type, /^text\/event-stream/, where);
        const events = documented["x-events"] as Record<string, { data: Json }>;
        const stream = parseSse(await res.text(), {
          // A roundtable's stream is its stored log from the start: resumable framing too.
          resumable: template.endsWith("/events") || template.endsWith("/stream") ||
            template === "/api/roundtables",
        });
        assert.ok(stream.length > 0, `${where}: empty stream`);
        for (const e of stream) {
          assert.ok(events[e.type], `${where}: undocumented event ${e.type}`);
          assert.deepEqual(
            validateSchema(events[e.type].data, e.data, doc),
            [],
            `${where} ${e.type}`,
          );
        }
        return stream;
      }
      assert.ok(content["application/json"], `${where}: no documented body`);
      assert.match(type, /^application\/json/, where);
      const body = await res.json();
      assert.deepEqual(validateSchema(content["application/json"].schema, body, doc), [], where);
      return body;
    },
  };
}

Deno.test("real answers of every operation in /api/openapi.json conform to its schemas", async () => {
  const app = await liveApp();
  const { t, origin } = app;
  try {
    const doc = await jsonOf(await fetch(`${origin}/api/openapi.json`));
    const c = conformance(doc);
    const ada = await browser(t, origin, "Ada");
    const bob = await browser(t, origin, "Bob");
    const anon = (path: string, init?: RequestInit) => fetch(origin + path, init);

    // Agent keys (the person's side).
    const created = await c.check(
      "POST",
      "/api/profile/agent-keys",
      await ada.send("POST", "/api/profile/agent-keys", { name: "docs" }),
    ) as { key: string; info: { id: string } };
    await c.check(
      "POST",
      "/api/profile/agent-keys",
      await ada.send("POST", "/api/profile/agent-keys", { name: "x".repeat(41) }),
    );
    await c.check(
      "POST",
      "/api/profile/agent-keys",
      await anon("/api/profile/agent-keys", {
        method: "POST",
        headers: { cookie: ada.cookie, origin: "https://elsewhere.example" },
      }),
    );
    await c.check("GET", "/api/profile/agent-keys", await ada.get("/api/profile/agent-keys"));
    await c.check("GET", "/api/profile/agent-keys", await anon("/api/profile/agent-keys"));
    const agent = (method: string, path: string, body?: unknown, key = created.key) =>
      fetch(origin + path, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: body === undefined
          ? undefined
          : typeof body === "string"
          ? body
          : JSON.stringify(body),
      });

    // The agent API.
    await c.check("GET", "/api/agent/me", await agent("GET", "/api/agent/me"));
    await c.check("GET", "/api/agent/me", await agent("GET", "/api/agent/me", undefined, "nope"));
    const asked = await c.check(
      "POST",
      "/api/agent/questions",
      await agent("POST", "/api/agent/questions", { title: "Docs drift?", tags: ["docs"] }),
    ) as { id: string };
    await c.check("POST", "/api/agent/questions", await agent("POST", "/api/agent/questions", "{"));
    await c.check(
      "POST",
      "/api/agent/questions",
      await agent("POST", "/api/agent/questions", JSON.stringify({ title: "a".repeat(70_000) })),
    );
    await c.check(
      "GET",
      "/api/agent/questions",
      await agent("GET", "/api/agent/questions?limit=5"),
    );
    await c.check("GET", "/api/agent/questions", await agent("GET", "/api/agent/questions?page=0"));
    await c.check(
      "GET",
      "/api/agent/questions",
      await agent("GET", "/api/agent/questions", undefined, ""),
    );
    const qid = asked.id;
    const answer = await c.check(
      "POST",
      "/api/questions/{id}/messages",
      await bob.send("POST", `/api/questions/${qid}/messages`, { content: "An answer" }),
    ) as { id: string };
    await c.check(
      "POST",
      "/api/agent/questions/{id}/reply",
      await agent("POST", `/api/agent/questions/${qid}/reply`, {
        content: "A reply",
        replyTo: answer.id,
      }),
    );
    await c.check(
      "POST",
      "/api/agent/questions/{id}/reply",
      await agent("POST", `/api/agent/questions/${qid}/reply`, { content: "x", replyTo: "m-no" }),
    );
    await c.check(
      "POST",
      "/api/agent/questions/{id}/reply",
      await agent("POST", "/api/agent/questions/q-missing/reply", { content: "x" }),
    );
    await c.check(
      "POST",
      "/api/agent/questions/{id}/vote",
      await agent("POST", `/api/agent/questions/${qid}/vote`, { messageId: answer.id }),
    );
    await c.check(
      "POST",
      "/api/agent/questions/{id}/vote",
      await agent("POST", `/api/agent/questions/${qid}/vote`, { voteType: "sideways" }),
    );
    await c.check(
      "POST",
      "/api/agent/questions/{id}/vote",
      await agent("POST", `/api/agent/questions/${qid}/vote`, { messageId: "m-no" }),
    );
    const spare = await jsonOf<{ key: string }>(
      ada.send("POST", "/api/profile/agent-keys", { name: "spare" }),
    );
    for (let i = 0;; i++) {
      const res = await agent("GET", "/api/agent/me", undefined, spare.key);
      if (res.status === 429) {
        await c.check("GET", "/api/agent/me", res);
        break;
      }
      await res.body?.cancel();
      assert.ok(i < 100, "never rate limited");
    }
    await c.check(
      "POST",
      "/api/agent/participate",
      await ada.send("POST", "/api/agent/participate", { forceAction: "reply_existing" }),
    );
    await c.check(
      "POST",
      "/api/agent/participate",
      await agent("POST", "/api/agent/participate", {}),
    );
    // The preview step: draft, post it, discard another, and the failures.
    const previewed = await ada.send("POST", "/api/agent/participate/preview", {
      forceAction: "reply_existing",
    });
    const draft = await previewed.clone().json() as { draftId: string };
    await c.check("POST", "/api/agent/participate/preview", previewed);
    await c.check(
      "POST",
      "/api/agent/participate/preview",
      await ada.send("POST", "/api/agent/participate/preview", { trigger: "sometimes" }),
    );
    await c.check(
      "POST",
      "/api/agent/participate/post",
      await ada.send("POST", "/api/agent/participate/post", { draftId: draft.draftId }),
    );
    await c.check(
      "POST",
      "/api/agent/participate/post",
      await ada.send("POST", "/api/agent/participate/post", { draftId: draft.draftId }),
    );
    await c.check(
      "POST",
      "/api/agent/participate/post",
      await ada.send("POST", "/api/agent/participate/post", { draftId: "nope" }),
    );
    const other = await jsonOf<{ draftId: string }>(
      ada.send("POST", "/api/agent/participate/preview", {}),
    );
    await c.check(
      "DELETE",
      "/api/agent/participate/preview",
      await ada.send("DELETE", `/api/agent/participate/preview?draftId=${other.draftId}`),
    );
    await c.check(
      "DELETE",
      "/api/agent/participate/preview",
      await ada.send("DELETE", "/api/agent/participate/preview"),
    );

    await c.check(
      "GET",
      "/api/agent/questions/similar",
      await agent("GET", "/api/agent/questions/similar?title=Docs%20drift"),
    );
    await c.check(
      "GET",
      "/api/agent/questions/similar",
      await agent("GET", "/api/agent/questions/similar?title=%20"),
    );

    // People: questions, votes, favorites.
    await c.check("GET", "/api/questions", await anon("/api/questions?sort=hot&limit=5"));
    await c.check(
      "GET",
      "/api/questions/similar",
      await anon("/api/questions/similar?title=Docs%20drift%20again"),
    );
    await c.check("GET", "/api/questions/similar", await anon("/api/questions/similar"));
    await c.check("GET", "/api/questions", await anon("/api/questions?sort=sideways"));
    await c.check(
      "POST",
      "/api/questions",
      await ada.send("POST", "/api/questions", { title: "People ask" }),
    );
    await c.check(
      "POST",
      "/api/questions",
      await ada.send("POST", "/api/questions", { title: "" }),
    );
    await c.check("GET", "/api/questions/{id}", await anon(`/api/questions/${qid}`));
    await c.check("GET", "/api/questions/{id}", await anon("/api/questions/q-missing"));
    await c.check(
      "POST",
      "/api/questions/{id}/messages",
      await ada.send("POST", "/api/questions/q-missing/messages", { content: "x" }),
    );
    await c.check("GET", "/api/feed", await anon("/api/feed"));
    await c.check(
      "POST",
      "/api/likes",
      await bob.send("POST", "/api/likes", { targetId: qid, targetType: "question" }),
    );
    await c.check(
      "POST",
      "/api/likes",
      await ada.send("POST", "/api/likes", { targetId: qid, targetType: "question" }),
    );
    await c.check(
      "POST",
      "/api/likes",
      await ada.send("POST", "/api/likes", { targetId: qid, targetType: "thing" }),
    );
    await c.check(
      "POST",
      "/api/favorites",
      await ada.send("POST", "/api/favorites", { targetId: answer.id, targetType: "message" }),
    );
    await c.check(
      "GET",
      "/api/favorites",
      await ada.get(`/api/favorites?targetType=message&targetIds=${answer.id}`),
    );

    // The forms' Markdown preview.
    const preview = (body: unknown) => ada.send("POST", "/api/markdown/preview", body);
    await c.check("POST", "/api/markdown/preview", await preview({ text: "**bold**" }));
    await c.check("POST", "/api/markdown/preview", await preview({ text: 5 }));

    // Content lifecycle: edits, revisions, accept, deletes (people and agents).
    const mine = await c.check(
      "POST",
      "/api/questions/{id}/messages",
      await ada.send("POST", `/api/questions/${qid}/messages`, { content: "Mine" }),
    ) as { id: string };
    const edit = (who: Browser, path: string, body: unknown) => who.send("PATCH", path, body);
    const q = `/api/questions/${qid}`;
    await c.check("PATCH", "/api/questions/{id}", await edit(ada, q, { description: "Edited" }));
    await c.check("PATCH", "/api/questions/{id}", await edit(bob, q, { title: "Not mine" }));
    await c.check("PATCH", "/api/questions/{id}", await edit(ada, q, {}));
    await c.check(
      "PATCH",
      "/api/questions/{id}",
      await edit(ada, "/api/questions/q-no", { title: "No such" }),
    );
    await c.check("GET", "/api/questions/{id}/revisions", await anon(`${q}/revisions`));
    await c.check(
      "GET",
      "/api/questions/{id}/revisions",
      await anon("/api/questions/q-no/revisions"),
    );
    // The AI-written opinion map and summary (null on a short thread, with their state).
    for (const kind of ["map", "summary"]) {
      await c.check("GET", `/api/questions/{id}/${kind}`, await anon(`${q}/${kind}`));
      await c.check(
        "GET",
        `/api/questions/{id}/${kind}`,
        await anon(`/api/questions/q-no/${kind}`),
      );
    }
    const m = `/api/messages/${mine.id}`;
    await c.check("PATCH", "/api/messages/{id}", await edit(ada, m, { content: "Mine, edited" }));
    await c.check("PATCH", "/api/messages/{id}", await edit(bob, m, { content: "x" }));
    await c.check("PATCH", "/api/messages/{id}", await edit(ada, m, { content: "" }));
    await c.check("GET", "/api/messages/{id}/revisions", await anon(`${m}/revisions`));
    await c.check(
      "GET",
      "/api/messages/{id}/revisions",
      await anon("/api/messages/m-no/revisions"),
    );
    const accept = (who: Browser, messageId: unknown) =>
      who.send("POST", `${q}/accept`, { messageId });
    await c.check("POST", "/api/questions/{id}/accept", await accept(ada, answer.id));
    await c.check("POST", "/api/questions/{id}/accept", await accept(bob, null));
    await c.check("POST", "/api/questions/{id}/accept", await accept(ada, "m-no"));
    await c.check("POST", "/api/questions/{id}/accept", await accept(ada, 5));
    // The AI expert panel and writing helpers.
    await c.check("GET", "/api/experts", await anon("/api/experts"));
    await c.check("GET", "/api/questions/{id}/panel/events", await anon(`${q}/panel/events`));
    await c.check(
      "GET",
      "/api/questions/{id}/panel/events",
      await anon("/api/questions/q-none/panel/events"),
    );
    await c.check(
      "POST",
      "/api/questions/{id}/invite",
      await ada.send("POST", `${q}/invite`, { expertId: "ada" }),
    );
    await c.check(
      "POST",
      "/api/questions/{id}/invite",
      await ada.send("POST", `${q}/invite`, { expertId: "ada" }),
    );
    await c.check(
      "POST",
      "/api/questions/{id}/invite",
      await ada.send("POST", `${q}/invite`, { expertId: "zz" }),
    );
    await c.check(
      "POST",
      "/api/ai/draft",
      await ada.send("POST", "/api/ai/draft", { questionId: qid }),
    );
    await c.check(
      "POST",
      "/api/ai/draft",
      await ada.send("POST", "/api/ai/draft", { questionId: "q-none" }),
    );
    await c.check(
      "POST",
      "/api/ai/question-ideas",
      await ada.send("POST", "/api/ai/question-ideas", { keyword: "bread" }),
    );
    await c.check(
      "POST",
      "/api/ai/question-ideas",
      await ada.send("POST", "/api/ai/question-ideas", { keyword: "" }),
    );
    await c.check(
      "PATCH",
      "/api/agent/questions/{id}",
      await agent("PATCH", `/api/agent/questions/${qid}`, { tags: ["Docs Drift"] }),
    );
    await c.check(
      "PATCH",
      "/api/agent/questions/{id}",
      await agent("PATCH", "/api/agent/questions/q-no", { title: "Gone?" }),
    );
    await c.check(
      "PATCH",
      "/api/agent/messages/{id}",
      await agent("PATCH", `/api/agent/messages/${mine.id}`, { content: "Agent edit" }),
    );
    await c.check(
      "PATCH",
      "/api/agent/messages/{id}",
      await agent("PATCH", `/api/agent/messages/${answer.id}`, { content: "Not mine" }),
    );
    await c.check(
      "DELETE",
      "/api/agent/messages/{id}",
      await agent("DELETE", `/api/agent/messages/${answer.id}`),
    );
    await c.check(
      "DELETE",
      "/api/agent/messages/{id}",
      await agent("DELETE", `/api/agent/messages/${mine.id}`),
    );
    await c.check(
      "DELETE",
      "/api/messages/{id}",
      await bob.send("DELETE", `/api/messages/${answer.id}`),
    );
    await c.check("DELETE", "/api/messages/{id}", await bob.send("DELETE", "/api/messages/m-no"));
    await c.check(
      "DELETE",
      "/api/messages/{id}",
      await anon("/api/messages/m-no", { method: "DELETE" }),
    );
    const spareQ = await jsonOf<{ id: string }>(
      ada.send("POST", "/api/questions", { title: "Spare" }),
    );
    await c.check(
      "DELETE",
      "/api/questions/{id}",
      await bob.send("DELETE", `/api/questions/${spareQ.id}`),
    );
    await c.check(
      "DELETE",
      "/api/questions/{id}",
      await ada.send("DELETE", `/api/questions/${spareQ.id}`),
    );
    await c.check(
      "DELETE",
      "/api/questions/{id}",
      await ada.send("DELETE", `/api/questions/${spareQ.id}`),
    );
    const agentQ = await jsonOf<{ id: string }>(
      agent("POST", "/api/agent/questions", { title: "Short-lived" }),
    );
    await c.check(
      "DELETE",
      "/api/agent/questions/{id}",
      await agent("DELETE", `/api/agent/questions/${agentQ.id}`),
    );
    await c.check(
      "DELETE",
      "/api/agent/questions/{id}",
      await agent("DELETE", `/api/agent/questions/${agentQ.id}`),
    );
    await c.check(
      "POST",
      "/api/agent/questions/{id}/vote",
      await agent("POST", `/api/agent/questions/${qid}/vote`, {}),
    );

    // Debates (the stand-in model of local mode answers).
    const stream = await c.check(
      "POST",
      "/api/debate",
      await ada.send("POST", "/api/debate", {
        topic: "Tabs or spaces?",
        userProfile: { name: "Ada's agent", bio: "Likes tabs" },
      }),
    ) as { type: string; data: { id: string } }[];
    assert.deepEqual(
      [stream[0].type, stream.at(-1)!.type],
      ["init", "done"],
      "the debate ran to the end",
    );
    await c.check("POST", "/api/debate", await ada.send("POST", "/api/debate", { topic: "x" }));
    await c.check("GET", "/api/debate/history", await ada.get("/api/debate/history"));
    await c.check("GET", "/api/debate/history", await anon("/api/debate/history"));
    await c.check("GET", "/api/debates/{id}", await anon(`/api/debates/${stream[0].data.id}`));
    await c.check("GET", "/api/debates/{id}", await anon("/api/debates/debate_1_missing"));
    const replay = await c.check(
      "GET",
      "/api/debates/{id}/events",
      await ada.get(`/api/debates/${stream[0].data.id}/events`),
    ) as { type: string }[];
    assert.deepEqual([replay[0].type, replay.at(-1)!.type], ["init", "done"], "the whole replay");
    await c.check(
      "GET",
      "/api/debates/{id}/events",
      await anon("/api/debates/debate_1_missing/events"),
    );

    // Roundtables (the stand-in model of local mode answers).
    const opening = await ada.send("POST", "/api/roundtables", {
      topic: "Tabs or spaces?",
      expertIds: ["ada", "rafael", "jonas"],
      rounds: 2,
    });
    const rtId = (await (await anon("/api/roundtables?public=1")).json()).roundtables[0].id;
    // While it runs (the stand-in paces its words), the host interjects.
    await c.check(
      "POST",
      "/api/roundtables/{id}/interject",
      await ada.send("POST", `/api/roundtables/${rtId}/interject`, {
        text: "Which is easier to read?",
        directTo: "rafael",
      }),
    );
    await c.check(
      "POST",
      "/api/roundtables/{id}/interject",
      await bob.send("POST", `/api/roundtables/${rtId}/interject`, { text: "Me too" }),
    );
    await c.check(
      "POST",
      "/api/roundtables/{id}/interject",
      await ada.send("POST", `/api/roundtables/${rtId}/interject`, { text: "" }),
    );
    const rtStream = await c.check("POST", "/api/roundtables", opening) as { type: string }[];
    assert.deepEqual(
      [rtStream[0].type, rtStream.at(-1)!.type],
      ["init", "done"],
      "the roundtable ran to the end",
    );
    await c.check(
      "POST",
      "/api/roundtables/{id}/interject",
      await ada.send("POST", `/api/roundtables/${rtId}/interject`, { text: "Too late?" }),
    );
    await c.check("POST", "/api/roundtables", await ada.send("POST", "/api/roundtables", {}));
    await c.check("GET", "/api/roundtables", await ada.get("/api/roundtables?mine=1"));
    await c.check("GET", "/api/roundtables", await anon("/api/roundtables?public=1"));
    await c.check("GET", "/api/roundtables", await anon("/api/roundtables"));
    await c.check("GET", "/api/roundtables", await anon("/api/roundtables?mine=1"));
    await c.check("GET", "/api/roundtables/{id}", await anon(`/api/roundtables/${rtId}`));
    await c.check("GET", "/api/roundtables/{id}", await anon("/api/roundtables/rt_1_missing"));
    await c.check(
      "GET",
      "/api/roundtables/{id}/events",
      await ada.get(`/api/roundtables/${rtId}/events`),
    );
    await c.check(
      "GET",
      "/api/roundtables/{id}/events",
      await anon("/api/roundtables/rt_1_missing/events"),
    );

    // Profiles.
    await c.check("GET", "/api/profile/me", await ada.get("/api/profile/me"));
    await c.check(
      "PATCH",
      "/api/profile/me",
      await ada.send("PATCH", "/api/profile/me", { bio: "Writes docs" }),
    );
    await c.check(
      "PATCH",
      "/api/profile/me",
      await ada.send("PATCH", "/api/profile/me", { displayName: "" }),
    );
    await c.check("GET", "/api/profile/stats", await ada.get("/api/profile/stats"));
    await c.check("GET", "/api/profile/settings", await ada.get("/api/profile/settings"));
    await c.check(
      "PUT",
      "/api/profile/settings",
      await ada.send("PUT", "/api/profile/settings", { voteHistory: "public" }),
    );
    await c.check(
      "PUT",
      "/api/profile/settings",
      await ada.send("PUT", "/api/profile/settings", { voteHistory: "loud" }),
    );
    for (const type of ["questions", "answers", "debates", "likes", "favorites"]) {
      await c.check(
        "GET",
        "/api/profile/activity",
        await ada.get(`/api/profile/activity?type=${type}`),
      );
      await c.check(
        "GET",
        "/api/profile/public/{userId}/activity",
        await anon(`/api/profile/public/${ada.id}/activity?type=${type}`),
      );
    }
    await c.check("GET", "/api/profile/activity", await ada.get("/api/profile/activity?type=x"));
    await c.check(
      "PUT",
      "/api/profile/settings",
      await ada.send("PUT", "/api/profile/settings", { activityVisibility: "private" }),
    );
    await c.check(
      "GET",
      "/api/profile/public/{userId}/activity",
      await anon(`/api/profile/public/${bob.id}/activity?type=favorites`),
    );
    await c.check(
      "GET",
      "/api/profile/public/{userId}",
      await anon(`/api/profile/public/${ada.id}`),
    );
    await c.check("GET", "/api/profile/public/{userId}", await anon("/api/profile/public/u_none"));

    // Sign-in accounts: two bound, so one can be unbound.
    for (const provider of ["provider_a", "provider_b"] as const) {
      await bindIdentity(t.kv, t.services.secret, {
        userId: ada.id,
        provider,
        profile: {
          providerAccountId: `${provider}-1`,
          name: "Ada",
          email: null,
          avatar: null,
          bio: "",
        },
        tokens: { accessToken: "at", refreshToken: null, expiresAt: null },
        now: Date.now(),
      });
    }
    await c.check("GET", "/api/profile/identities", await ada.get("/api/profile/identities"));
    await c.check(
      "DELETE",
      "/api/profile/identities",
      await ada.send("DELETE", "/api/profile/identities?provider=provider_b"),
    );
    await c.check(
      "DELETE",
      "/api/profile/identities",
      await ada.send("DELETE", "/api/profile/identities?provider=provider_a"),
    );

    // Follows, notifications, live streams, moderation.
    const firstEvent = async (res: Response) => {
      if (!res.body || !res.ok) return res;
      const reader = res.body.getReader();
      let text = "";
      while (!/event: [a-z]+\ndata: .*\n\n/.test(text)) {
        const { done, value } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      await reader.cancel();
      return new Response(text, { status: res.status, headers: res.headers });
    };
    const nq = await jsonOf<{ id: string }>(
      bob.send("POST", "/api/questions", { title: "Notify me please" }),
    );
    const nm = await jsonOf<{ id: string }>(
      ada.send("POST", `/api/questions/${nq.id}/messages`, { content: "An answer for Bob" }),
    );
    await c.check(
      "POST",
      "/api/questions/{id}/follow",
      await ada.send("POST", `/api/questions/${nq.id}/follow`),
    );
    await c.check(
      "POST",
      "/api/questions/{id}/follow",
      await ada.send("POST", "/api/questions/q-no/follow"),
    );
    await c.check(
      "POST",
      "/api/questions/{id}/follow",
      await anon(`/api/questions/${nq.id}/follow`, { method: "POST" }),
    );
    const inbox = await c.check(
      "GET",
      "/api/notifications",
      await bob.get("/api/notifications"),
    ) as {
      notifications: { id: string }[];
    };
    await c.check("GET", "/api/notifications", await anon("/api/notifications"));
    await c.check(
      "POST",
      "/api/notifications/read",
      await bob.send("POST", "/api/notifications/read", { ids: [inbox.notifications[0].id] }),
    );
    await c.check(
      "POST",
      "/api/notifications/read",
      await bob.send("POST", "/api/notifications/read", {}),
    );
    await c.check(
      "POST",
      "/api/notifications/read",
      await bob.send("POST", "/api/notifications/read", { ids: "x" }),
    );
    await c.check(
      "GET",
      "/api/notifications/stream",
      await firstEvent(await bob.get("/api/notifications/stream")),
    );
    await c.check("GET", "/api/notifications/stream", await anon("/api/notifications/stream"));
    await c.check(
      "GET",
      "/api/questions/{id}/events",
      await firstEvent(await anon(`/api/questions/${nq.id}/events`)),
    );
    await c.check("GET", "/api/questions/{id}/events", await anon("/api/questions/q-no/events"));
    await c.check(
      "GET",
      "/api/agent/notifications",
      await agent("GET", "/api/agent/notifications"),
    );
    await c.check(
      "GET",
      "/api/agent/notifications",
      await agent("GET", "/api/agent/notifications", undefined, "agent_nope"),
    );
    const flag = (who: Browser, body: unknown) => who.send("POST", "/api/flags", body);
    const flagBody = { targetType: "message", targetId: nm.id, reason: "spam", note: "ads" };
    await c.check("POST", "/api/flags", await flag(bob, flagBody));
    await c.check("POST", "/api/flags", await flag(bob, flagBody));
    await c.check("POST", "/api/flags", await flag(ada, flagBody));
    await c.check("POST", "/api/flags", await flag(bob, { ...flagBody, targetId: "m-no" }));
    await c.check("POST", "/api/flags", await anon("/api/flags", { method: "POST" }));
    await c.check("GET", "/api/mod/queue", await ada.get("/api/mod/queue"));
    await c.check("GET", "/api/mod/log", await ada.get("/api/mod/log"));
    await c.check("POST", "/api/mod/actions", await ada.send("POST", "/api/mod/actions", {}));
    t.services.config.moderators = [bob.id];
    await c.check("GET", "/api/mod/queue", await bob.get("/api/mod/queue"));
    const act = (action: string, targetId = nm.id) =>
      bob.send("POST", "/api/mod/actions", { targetType: "message", targetId, action });
    await c.check("POST", "/api/mod/actions", await act("hide"));
    await c.check("POST", "/api/mod/actions", await act("restore"));
    await c.check("POST", "/api/mod/actions", await act("hide", "m-no"));
    await c.check("POST", "/api/mod/actions", await act("nope"));
    await c.check("GET", "/api/mod/log", await bob.get("/api/mod/log"));
    await c.check("GET", "/api/mod/queue", await anon("/api/mod/queue"));
    await c.check("GET", "/api/mod/log", await anon("/api/mod/log"));
    await c.check("POST", "/api/mod/actions", await anon("/api/mod/actions", { method: "POST" }));
    // Sanctions: Ada silenced (her write refused with the sanction's 403), then lifted.
    const sanctionAda = (body: unknown, who = bob, id = ada.id) =>
      who.send("POST", `/api/mod/users/${id}`, body);
    await c.check(
      "POST",
      "/api/mod/users/{id}",
      await sanctionAda({ action: "silence", until: "2099-01-01", reason: "Docs check" }),
    );
    await c.check(
      "POST",
      "/api/questions",
      await ada.send("POST", "/api/questions", { title: "While silenced" }),
    );
    await c.check(
      "POST",
      "/api/mod/users/{id}",
      await sanctionAda({ action: "lift", reason: "ok" }),
    );
    await c.check("POST", "/api/mod/users/{id}", await sanctionAda({ action: "mute" }));
    await c.check(
      "POST",
      "/api/mod/users/{id}",
      await sanctionAda({ action: "silence", reason: "x" }, bob, "u_nobody"),
    );
    await c.check(
      "POST",
      "/api/mod/users/{id}",
      await sanctionAda({ action: "silence", reason: "x" }, ada, bob.id),
    );
    // Withdrawals: Ada's debate and roundtable withdrawn and restored; refusals.
    for (const [kind, id] of [["debates", stream[0].data.id], ["roundtables", rtId]]) {
      const template = `/api/mod/${kind}/{id}`;
      const withdraw = (body: unknown, who = bob, target = id) =>
        who.send("POST", `/api/mod/${kind}/${target}`, body);
      await c.check("POST", template, await withdraw({ action: "withdraw", reason: "Docs" }));
      await c.check("POST", template, await withdraw({ action: "restore", reason: "ok" }));
      await c.check("POST", template, await withdraw({ action: "hide", reason: "x" }));
      await c.check("POST", template, await withdraw({ action: "withdraw", reason: "x" }, ada));
      await c.check(
        "POST",
        template,
        await withdraw({ action: "withdraw", reason: "x" }, bob, "x_1_missing"),
      );
      await c.check(
        "POST",
        template,
        await anon(`/api/mod/${kind}/${id}`, { method: "POST" }),
      );
    }
    t.services.config.moderators = [];

    // Agents' sign-in (OAuth): discovery, registration, tokens, revocation, connected apps.
    const req: Requester = (u, init) => fetch(new URL(u, origin), init);
    await c.check(
      "GET",
      "/.well-known/oauth-protected-resource",
      await anon("/.well-known/oauth-protected-resource"),
    );
    await c.check(
      "GET",
      "/.well-known/oauth-authorization-server",
      await anon("/.well-known/oauth-authorization-server"),
    );
    const register = (body: unknown) =>
      anon("/oauth/register", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    await c.check(
      "POST",
      "/oauth/register",
      await register({ client_name: "Docs", redirect_uris: ["https://docs.example/cb"] }),
    );
    await c.check(
      "POST",
      "/oauth/register",
      await register({ redirect_uris: ["http://docs.example/cb"] }),
    );
    const oauthApp = await registerApp(req);
    const { verifier, challenge } = pkce();
    const consentForm = await openConsent(req, ada.cookie, authorizePath(oauthApp, challenge));
    const back = await answerConsent(req, origin, ada.cookie, consentForm);
    const exchangeParams = {
      grant_type: "authorization_code",
      code: back.searchParams.get("code")!,
      redirect_uri: oauthApp.redirectUri,
      client_id: oauthApp.clientId,
      code_verifier: verifier,
    };
    await c.check("POST", "/oauth/token", await formPost(req, "/oauth/token", exchangeParams));
    // The same code again: refused, and what it granted is revoked.
    await c.check("POST", "/oauth/token", await formPost(req, "/oauth/token", exchangeParams));
    await c.check(
      "POST",
      "/oauth/token",
      await formPost(req, "/oauth/token", { ...exchangeParams, client_id: "client_nope" }),
    );
    const second = await connectApp(req, origin, ada.cookie, { scopes: ["read"] });
    await c.check(
      "GET",
      "/api/agent/me",
      await agent("GET", "/api/agent/me", undefined, second.tokens.access_token),
    );
    await c.check(
      "POST",
      "/api/agent/questions",
      await agent(
        "POST",
        "/api/agent/questions",
        { title: "Read only" },
        second.tokens.access_token,
      ),
    );
    await c.check(
      "POST",
      "/oauth/revoke",
      await formPost(req, "/oauth/revoke", {
        token: second.tokens.access_token,
        client_id: second.app.clientId,
      }),
    );
    await c.check(
      "POST",
      "/oauth/revoke",
      await formPost(req, "/oauth/revoke", { token: "x", client_id: "client_nope" }),
    );
    await c.check("POST", "/oauth/revoke", await formPost(req, "/oauth/revoke", {}));
    const apps = await c.check(
      "GET",
      "/api/profile/connected-apps",
      await ada.get("/api/profile/connected-apps"),
    ) as { apps: { id: string }[] };
    await c.check(
      "GET",
      "/api/profile/connected-apps",
      await anon("/api/profile/connected-apps"),
    );
    assert.equal(apps.apps.length, 1, "the first was revoked when its code was reused");
    await c.check(
      "DELETE",
      "/api/profile/connected-apps/{id}",
      await ada.send("DELETE", `/api/profile/connected-apps/${apps.apps[0].id}`),
    );
    await c.check(
      "DELETE",
      "/api/profile/connected-apps/{id}",
      await ada.send("DELETE", `/api/profile/connected-apps/${apps.apps[0].id}`),
    );

    // Keys revoked, then the session ended.
    await c.check(
      "DELETE",
      "/api/profile/agent-keys",
      await ada.send("DELETE", `/api/profile/agent-keys?id=${created.info.id}`),
    );
    await c.check(
      "DELETE",
      "/api/profile/agent-keys",
      await ada.send("DELETE", `/api/profile/agent-keys?id=${created.info.id}`),
    );
    // Ada's data, then her account deleted (a wrong confirmation first).
    await c.check("GET", "/api/profile/export", await ada.get("/api/profile/export"));
    await c.check("GET", "/api/profile/export", await anon("/api/profile/export"));
    await c.check(
      "DELETE",
      "/api/profile/me",
      await ada.send("DELETE", "/api/profile/me", { confirm: "Not Ada", content: "keep" }),
    );
    await c.check(
      "DELETE",
      "/api/profile/me",
      await ada.send("DELETE", "/api/profile/me", { confirm: "Ada", content: "keep" }),
    );
    await c.check("GET", "/api/auth/session", await bob.get("/api/auth/session"));
    await c.check("POST", "/api/auth/logout", await bob.send("POST", "/api/auth/logout"));
    await c.check("GET", "/api/auth/session", await bob.get("/api/auth/session"));

    // Every documented operation was exercised with a success status.
    const paths = doc.paths as Record<string, Record<string, Json>>;
    for (const [path, ops] of Object.entries(paths)) {
      for (const method of Object.keys(ops)) {
        const ok = [...c.seen].some((s) => s.startsWith(`${method} ${path} 2`));
        assert.ok(ok, `${method.toUpperCase()} ${path} never answered with a 2xx in this test`);
      }
    }
  } finally {
    await app.close();
  }
});

Deno.test("the examples inside /api/openapi.json conform to their own schemas", async () => {
  const app = await liveApp();
  try {
    const doc = await jsonOf(await fetch(`${app.origin}/api/openapi.json`));
    let examples = 0;
    for (const ops of Object.values(doc.paths as Record<string, Record<string, Json>>)) {
      for (const op of Object.values(ops)) {
        for (const [status, r] of Object.entries(op.responses as Record<string, Json>)) {
          const json = (r.content as Record<string, Json> | undefined)?.["application/json"];
          if (json?.example === undefined) continue;
          examples++;
          assert.deepEqual(validateSchema(json.schema, json.example, doc), [], status);
        }
      }
    }
    assert.ok(examples >= 20, `only ${examples} examples`);
  } finally {
    await app.close();
  }
});

Deno.test("/docs/api renders every operation and stream event of /api/openapi.json", async () => {
  const app = await liveApp();
  try {
    const doc = await jsonOf(await fetch(`${app.origin}/api/openapi.json`));
    const res = await fetch(`${app.origin}/docs/api`);
    assert.equal(res.status, 200);
    const html = await res.text();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
      for (const [method, op] of Object.entries(ops)) {
        const anchor = `${method}-${path.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "")}`;
        assert.ok(html.includes(`id="${anchor}"`), `${method} ${path} has no section`);
        for (const r of Object.values(op.responses as Record<string, Json>)) {
          for (const event of Object.keys((r["x-events"] ?? {}) as Json)) {
            assert.ok(html.includes(`<code>${event}</code>`), `event ${event} not shown`);
          }
        }
      }
    }
  } finally {
    await app.close();
  }
});

Deno.test("/skill.md is served as UTF-8 Markdown with a public cache lifetime", async () => {
  const app = await liveApp();
  try {
    const res = await fetch(`${app.origin}/skill.md`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/(markdown|plain); charset=utf-8$/);
    const cache = res.headers.get("cache-control") ?? "";
    assert.match(cache, /\bpublic\b/);
    const maxAge = Number(/max-age=(\d+)/.exec(cache)?.[1]);
    assert.ok(maxAge > 0 && maxAge <= 3600, cache);
    const md = await res.text();
    assert.ok(md.startsWith("# "), "starts with a heading");
    assert.ok(md.includes(`${app.origin}/profile/agent-keys`), "says where a key is made");
  } finally {
    await app.close();
  }
});
