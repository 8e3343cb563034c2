/**
 * The agent API: keys (shown once, hashed, at most 5, revocable), docs/interface.md#agent-api's 401 body,
 * rate limits with their headers, the question list and creation with their exact
 * errors, replies, votes and /api/agent/me.
 */
import assert from "node:assert/strict";
import type { AgentKeyRecord } from "@/lib/agent/keys.ts";
import { sha256Hex } from "@/lib/ids.ts";
import { keys } from "@/lib/kv/keys.ts";
import { createQuestion } from "@/lib/community/questions/write.ts";
import { createTestApp, jsonWrite } from "../helpers/app.ts";
import {
  agentCall,
  agentKey,
  answer,
  ask,
  getAs,
  json,
  postAs,
  publicVoter,
} from "../helpers/community.ts";

const INVALID = { error: "Invalid or missing API key" };

Deno.test("agent keys: shown once, stored only as a hash, at most 5, listed and revoked", async () => {
  const t = await createTestApp();
  try {
    const ada = await publicVoter(t, "Ada");
    const created = await json<{ key: string; info: { id: string; prefix: string; name: string } }>(
      postAs(t, ada, "/api/profile/agent-keys", { name: "laptop" }),
    );
    assert.equal(created.status, 201);
    assert.match(created.body.key, /^agent_[A-Za-z0-9_-]{43}$/);
    assert.equal(created.body.info.name, "laptop");
    assert.ok(created.body.key.startsWith(created.body.info.prefix.replace("…", "")));
    // Only the hash is kept: the key text appears nowhere in KV.
    const all = await Array.fromAsync(t.kv.list({ prefix: [] }));
    assert.ok(!JSON.stringify(all.map((e) => e.value)).includes(created.body.key));
    const rec = await t.kv.get<AgentKeyRecord>(keys.agentKey(await sha256Hex(created.body.key)));
    assert.equal(rec.value?.userId, ada.id);

    // The list never shows the key again.
    const list = await json<{ keys: { id: string }[]; max: number }>(
      getAs(t, ada, "/api/profile/agent-keys"),
    );
    assert.equal(list.body.max, 5);
    assert.equal(list.body.keys.length, 1);
    assert.ok(!JSON.stringify(list.body).includes(created.body.key));

    for (let i = 0; i < 4; i++) await agentKey(t, ada, `k${i}`);
    const sixth = await json(postAs(t, ada, "/api/profile/agent-keys", {}));
    assert.deepEqual([sixth.status, sixth.body], [409, {
      error: "You already have 5 API keys; revoke one first",
    }]);

    // The key works until revoked, then gives docs/interface.md#agent-api's 401.
    assert.equal((await agentCall(t, created.body.key, "/api/agent/me")).status, 200);
    const del = await t.request(`/api/profile/agent-keys?id=${created.body.info.id}`, {
      method: "DELETE",
      headers: jsonWrite(t, ada.cookie),
    });
    assert.deepEqual([del.status, await del.json()], [200, { ok: true }]);
    const after = await json(agentCall(t, created.body.key, "/api/agent/me"));
    assert.deepEqual([after.status, after.body], [401, INVALID]);
    // A slot is free again; revoking twice is a 404; someone else's key is not mine.
    assert.equal((await postAs(t, ada, "/api/profile/agent-keys", {})).status, 201);
    const again = await t.request(`/api/profile/agent-keys?id=${created.body.info.id}`, {
      method: "DELETE",
      headers: jsonWrite(t, ada.cookie),
    });
    assert.equal(again.status, 404);
    const bob = await publicVoter(t, "Bob");
    const ids = (await json<{ keys: { id: string }[] }>(getAs(t, ada, "/api/profile/agent-keys")))
      .body.keys.map((k) => k.id);
    const stolen = await t.request(`/api/profile/agent-keys?id=${ids[0]}`, {
      method: "DELETE",
      headers: jsonWrite(t, bob.cookie),
    });
    assert.equal(stolen.status, 404);
    // Signed out: 401; a name too long: 400.
    assert.equal((await getAs(t, null, "/api/profile/agent-keys")).status, 401);
    const long = await json(postAs(t, bob, "/api/profile/agent-keys", { name: "x".repeat(41) }));
    assert.deepEqual([long.status, long.body.error], [400, "name must be at most 40 characters"]);
  } finally {
    await t.close();
  }
});

Deno.test("concurrent key creation never exceeds 5 keys", async () => {
  const t = await createTestApp();
  try {
    const ada = await publicVoter(t, "Ada");
    const results = await Promise.all(
      Array.from({ length: 12 }, () => postAs(t, ada, "/api/profile/agent-keys", {})),
    );
    const statuses = results.map((r) => r.status).sort();
    await Promise.all(results.map((r) => r.body?.cancel()));
    assert.equal(statuses.filter((s) => s === 201).length, 5);
    assert.equal(statuses.filter((s) => s === 409).length, 7);
    const list = await json<{ keys: unknown[] }>(getAs(t, ada, "/api/profile/agent-keys"));
    assert.equal(list.body.keys.length, 5);
  } finally {
    await t.close();
  }
});

Deno.test("agent endpoints: missing, malformed or unknown keys get docs/interface.md#agent-api's exact 401", async () => {
  const t = await createTestApp();
  try {
    const fake = "agent_" + "A".repeat(43);
    for (
      const auth of [null, "", "Bearer", "Bearer nope", `Basic ${fake}`, `Bearer ${fake}`]
    ) {
      for (
        const [method, path] of [
          ["GET", "/api/agent/questions"],
          ["POST", "/api/agent/questions"],
          ["GET", "/api/agent/me"],
          ["POST", "/api/agent/questions/q-x/reply"],
          ["POST", "/api/agent/questions/q-x/vote"],
        ]
      ) {
        const res = await t.request(path, {
          method,
          headers: auth === null ? {} : { authorization: auth },
          body: method === "POST" ? "{}" : undefined,
        });
        assert.equal(res.status, 401, `${method} ${path} with ${auth}`);
        assert.equal(await res.text(), '{"error":"Invalid or missing API key"}');
      }
    }
  } finally {
    await t.close();
  }
});

Deno.test("agent rate limit: 60 a minute per key, then 429 with Retry-After and X-RateLimit-*", async () => {
  let clock = 1_700_000_000_000;
  const t = await createTestApp({ now: () => clock });
  try {
    const ada = await publicVoter(t, "Ada");
    const key = await agentKey(t, ada);
    const other = await agentKey(t, ada, "second");
    for (let i = 1; i <= 60; i++) {
      const res = await agentCall(t, key, "/api/agent/questions?limit=1");
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("x-ratelimit-limit"), "60");
      assert.equal(res.headers.get("x-ratelimit-remaining"), String(60 - i));
      assert.ok(Number(res.headers.get("x-ratelimit-reset")) > clock / 1000);
      await res.body?.cancel();
    }
    const over = await agentCall(t, key, "/api/agent/questions");
    assert.equal(over.status, 429);
    const retry = Number(over.headers.get("retry-after"));
    // At most one sub-bucket (60 s / 9) past the minute: lib/limits/slices.ts.
    assert.ok(retry >= 1 && retry <= 67, `retry-after ${retry}`);
    assert.equal(over.headers.get("x-ratelimit-remaining"), "0");
    assert.deepEqual(await over.json(), { error: "Rate limit exceeded", retryAfter: retry });
    // Another key has its own budget; the next window resets this one (the sliced limit
    // may hold a key up to one sub-bucket, 60 s / 9, longer: lib/limits/slices.ts).
    assert.equal((await agentCall(t, other, "/api/agent/me")).status, 200);
    clock += 60_000 + 6_667;
    assert.equal((await agentCall(t, key, "/api/agent/me")).status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("failed agent authentication is limited per client address", async () => {
  const t = await createTestApp({ now: () => 1_700_000_000_000 });
  try {
    for (let i = 0; i < 60; i++) {
      const res = await agentCall(t, "agent_wrong", "/api/agent/questions");
      assert.equal(res.status, 401);
      await res.body?.cancel();
    }
    const res = await agentCall(t, "agent_wrong", "/api/agent/questions");
    assert.equal(res.status, 429);
    assert.ok(res.headers.get("retry-after"));
    await res.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/agent/questions: newest first, limit default/clamp, page rules, past the end", async () => {
  const t = await createTestApp();
  try {
    const ada = await publicVoter(t, "Ada");
    const key = await agentKey(t, ada);
    const author = { id: ada.id, name: "Ada", avatar: "" };
    for (let i = 0; i < 60; i++) {
      await createQuestion(t.kv, {
        title: `Question ${i}`,
        description: `d${i}`,
        tags: ["t"],
        author,
        createdBy: "user",
      }, { now: 1_700_000_000_000 + i });
    }
    const list = (q: string) =>
      json<
        {
          questions: Record<string, unknown>[];
          total: number;
          page: number;
          limit: number;
          error?: string;
        }
      >(
        agentCall(t, key, `/api/agent/questions${q}`),
      );
    let r = await list("");
    assert.equal(r.status, 200);
    assert.deepEqual([r.body.total, r.body.page, r.body.limit], [60, 1, 20]);
    assert.equal(r.body.questions.length, 20);
    assert.equal(r.body.questions[0].title, "Question 59");
    assert.deepEqual(Object.keys(r.body.questions[0]).sort(), [
      "createdAt",
      "description",
      "id",
      "messageCount",
      "tags",
      "title",
      "upvotes",
    ]);
    r = await list("?limit=500");
    assert.deepEqual([r.body.limit, r.body.questions.length], [50, 50]);
    r = await list("?limit=50&page=2");
    assert.deepEqual(r.body.questions.map((q) => q.title), [
      "Question 9",
      "Question 8",
      "Question 7",
      "Question 6",
      "Question 5",
      "Question 4",
      "Question 3",
      "Question 2",
      "Question 1",
      "Question 0",
    ]);
    r = await list("?page=4");
    assert.deepEqual([r.status, r.body.questions, r.body.total, r.body.page], [200, [], 60, 4]);
    r = await list("?page=999999");
    assert.deepEqual([r.status, r.body.questions, r.body.total], [200, [], 60]);
    for (const bad of ["0", "-1", "1.5", "abc", ""]) {
      const e = await list(`?page=${bad}`);
      assert.deepEqual(
        [e.status, e.body.error],
        [400, "page must be an integer of at least 1"],
        bad,
      );
    }
    for (const bad of ["0", "-3", "2.5", "x"]) {
      const e = await list(`?limit=${bad}`);
      assert.deepEqual(
        [e.status, e.body.error],
        [400, "limit must be an integer of at least 1"],
        bad,
      );
    }
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/agent/questions: q-agent id, author from the key's profile, docs/interface.md#agent-api errors", async () => {
  const t = await createTestApp({ now: () => 1_700_000_123_456 });
  try {
    const ada = await publicVoter(t, "Ada");
    const key = await agentKey(t, ada);
    const post = (body: unknown) => json(agentCall(t, key, "/api/agent/questions", { body }));
    const ok = await post({
      title: "  How do agents pick questions?  ",
      description: "Curious.",
      tags: ["  ai ", "", "agents", "kv", "deno", "ranking", "extra"],
    });
    assert.equal(ok.status, 201);
    assert.match(ok.body.id as string, /^q-agent-[a-z0-9]+$/);
    assert.deepEqual(ok.body, {
      id: ok.body.id,
      title: "How do agents pick questions?",
      createdAt: 1_700_000_123_456,
    });
    const full = await json(getAs(t, null, `/api/questions/${ok.body.id}`));
    assert.deepEqual(full.body.tags, ["ai", "agents", "kv", "deno", "ranking"]);
    assert.deepEqual(full.body.author, { id: ada.id, name: "Ada", avatar: "" });
    assert.equal(full.body.createdBy, "agent");

    const TITLE = { error: "title is required (min 2 chars)" };
    for (
      const body of [
        {},
        { title: "" },
        { title: "x" },
        { title: "  y  " },
        { title: 42 },
        {
          title: "x".repeat(121),
        },
        [],
        '"just a string"',
        "null",
      ]
    ) {
      const r = await post(body);
      assert.deepEqual([r.status, r.body], [400, TITLE], JSON.stringify(body));
    }
    assert.equal((await post({ title: "x".repeat(120) })).status, 201);
    assert.equal((await post({ title: "ok" })).status, 201);
    const bad = await post("{oops");
    assert.deepEqual([bad.status, bad.body], [400, { error: "Invalid JSON body" }]);
    const tags = await post({ title: "Fine title", tags: "not-an-array" });
    assert.deepEqual([tags.status, tags.body.error], [400, "Send tags as a list of words."]);
    const tagLen = await post({ title: "Fine title", tags: ["x".repeat(41)] });
    assert.deepEqual([tagLen.status, tagLen.body.error], [
      400,
      "Tags can have at most 40 characters each; “xxxxxxxxxxxxxxxxxxxx…” has 41.",
    ]);
    const desc = await post({ title: "Fine title", description: 7 });
    assert.deepEqual([desc.status, desc.body.error], [400, "Details must be text."]);
  } finally {
    await t.close();
  }
});

Deno.test("agent reply and vote act as the key's owner with docs/interface.md#agent-api's shapes", async () => {
  const t = await createTestApp();
  try {
    const ada = await publicVoter(t, "Ada");
    const bob = await publicVoter(t, "Bob");
    const key = await agentKey(t, ada);
    const qid = await ask(t, bob, { title: "Will an agent answer?" });
    const mid = await answer(t, bob, qid, "First answer");

    const reply = await json(
      agentCall(t, key, `/api/agent/questions/${qid}/reply`, {
        body: { content: "Yes, **I** will.", replyTo: mid },
      }),
    );
    assert.equal(reply.status, 201);
    assert.match(reply.body.id as string, /^msg-agent-reply-/);
    assert.deepEqual(
      [reply.body.authorType, reply.body.createdBy, reply.body.replyTo, reply.body.questionId],
      ["user", "agent", mid, qid],
    );
    assert.deepEqual(reply.body.author, { id: ada.id, name: "Ada", avatar: "" });
    assert.deepEqual(
      [reply.body.upvotes, reply.body.downvotes, reply.body.likedBy, reply.body.dislikedBy],
      [0, 0, [], []],
    );

    let r = await json(agentCall(t, key, `/api/agent/questions/${qid}/reply`, { body: {} }));
    assert.deepEqual([r.status, r.body.error], [
      400,
      "Write something first: an empty answer can't be posted.",
    ]);
    r = await json(
      agentCall(t, key, `/api/agent/questions/q-none/reply`, { body: { content: "hi" } }),
    );
    assert.deepEqual([r.status, r.body.error], [404, "Question not found"]);
    r = await json(
      agentCall(t, key, `/api/agent/questions/${qid}/reply`, {
        body: { content: "hi", replyTo: "msg-none" },
      }),
    );
    assert.deepEqual([r.status, r.body.error], [400, "replyTo must be a message of this question"]);

    const vote = (body: unknown, id = qid) =>
      json(agentCall(t, key, `/api/agent/questions/${id}/vote`, { body }));
    r = await vote({ voteType: "up" });
    assert.deepEqual(r.body, {
      action: "liked",
      upvotes: 1,
      downvotes: 0,
      liked: true,
      downvoted: false,
    });
    r = await vote({ voteType: "down" });
    assert.deepEqual(r.body, {
      action: "downvoted",
      upvotes: 0,
      downvotes: 1,
      liked: false,
      downvoted: true,
    });
    r = await vote({ voteType: "up", messageId: mid });
    assert.deepEqual(r.body, {
      action: "liked",
      upvotes: 1,
      downvotes: 0,
      liked: true,
      downvoted: false,
    });
    r = await vote({});
    assert.equal(r.body.action, "liked", "voteType defaults to up (down → up switch)");
    r = await vote({ voteType: "meh" });
    assert.deepEqual([r.status, r.body.error], [400, 'voteType must be "up" or "down"']);
    r = await vote({ voteType: "up" }, "q-none");
    assert.deepEqual([r.status, r.body.error], [404, "Question not found"]);
    const other = await ask(t, bob, { title: "Another question" });
    r = await vote({ voteType: "up", messageId: mid }, other);
    assert.deepEqual([r.status, r.body.error], [404, "Message not found in this question"]);
    const q = await json(getAs(t, null, `/api/questions/${qid}`));
    assert.deepEqual([q.body.likedBy, q.body.dislikedBy], [[ada.id], []]);

    const me = await json(agentCall(t, key, "/api/agent/me"));
    assert.equal(me.status, 200);
    assert.deepEqual([me.body.userId, me.body.name], [ada.id, "Ada"]);
    assert.equal((me.body.rateLimit as { limit: number }).limit, 60);
  } finally {
    await t.close();
  }
});

Deno.test("API-key requests skip the same-origin check; cookie writes from elsewhere do not", async () => {
  const t = await createTestApp();
  try {
    const ada = await publicVoter(t, "Ada");
    const key = await agentKey(t, ada);
    const res = await agentCall(t, key, "/api/agent/questions", {
      body: { title: "From a script" },
      headers: { origin: "https://elsewhere.example", cookie: ada.cookie },
    });
    assert.equal(res.status, 201);
    await res.body?.cancel();
    const qid = await ask(t, ada, { title: "Cross-site target" });
    const csrf = await t.request("/api/likes", {
      method: "POST",
      headers: {
        cookie: ada.cookie,
        origin: "https://elsewhere.example",
        "content-type": "application/json",
      },
      body: JSON.stringify({ targetId: qid, targetType: "question" }),
    });
    assert.equal(csrf.status, 403);
    await csrf.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("agent answers carry X-RateLimit-*: 401 (with WWW-Authenticate) and thrown errors too", async () => {
  const t = await createTestApp();
  try {
    const ada = await publicVoter(t, "Ada");
    const key = await agentKey(t, ada);
    const denied = await agentCall(t, "agent_wrong", "/api/agent/me");
    assert.equal(denied.status, 401);
    assert.equal(
      denied.headers.get("www-authenticate"),
      `Bearer realm="parley-agent", resource_metadata="${t.services.config.appOrigin}/.well-known/oauth-protected-resource", error="invalid_token"`,
    );
    assert.equal(denied.headers.get("x-ratelimit-limit"), "60");
    assert.equal(denied.headers.get("x-ratelimit-remaining"), "59");
    assert.deepEqual(await denied.json(), INVALID);
    const errors: [string, unknown, number][] = [
      ["/api/agent/questions?page=0", undefined, 400],
      ["/api/agent/questions", { title: "" }, 400],
      ["/api/agent/questions/q-missing/reply", { content: "Hi" }, 404],
      ["/api/agent/questions/q-missing/vote", {}, 404],
    ];
    let remaining = 60;
    for (const [path, body, status] of errors) {
      const res = await agentCall(t, key, path, { body });
      assert.equal(res.status, status, path);
      assert.equal(res.headers.get("x-ratelimit-limit"), "60", path);
      assert.equal(res.headers.get("x-ratelimit-remaining"), String(--remaining), path);
      assert.match(res.headers.get("x-ratelimit-reset") ?? "", /^\d+$/, path);
      assert.equal(typeof ((await res.json()) as { error: unknown }).error, "string", path);
    }
  } finally {
    await t.close();
  }
});

Deno.test("agent writes refuse a field that looks like one they take (400 naming it), and change nothing", async () => {
  const t = await createTestApp();
  try {
    const ada = await publicVoter(t, "Ada");
    const bob = await publicVoter(t, "Bob");
    const key = await agentKey(t, ada);
    const qid = await ask(t, bob, { title: "Misspelt fields?" });
    const mid = await answer(t, bob, qid, "An answer to vote on");
    const refused: [string, string, unknown, string][] = [
      [
        "POST",
        `/api/agent/questions/${qid}/vote`,
        { voteType: "up", messageID: mid },
        'Unknown field "messageID" (did you mean "messageId"?): this request takes voteType and messageId.',
      ],
      [
        "POST",
        "/api/agent/questions",
        { title: "Posted without its text?", body: "The text" },
        'Unknown field "body" (did you mean "description"?): this request takes title, description and tags.',
      ],
      [
        "POST",
        `/api/agent/questions/${qid}/reply`,
        { contnet: "typo" },
        'Unknown field "contnet" (did you mean "content"?): this request takes content and replyTo.',
      ],
      [
        "PATCH",
        `/api/agent/messages/${mid}`,
        { contents: "x" },
        'Unknown field "contents" (did you mean "content"?): this request takes content.',
      ],
    ];
    for (const [method, path, body, error] of refused) {
      const res = await json<{ error: string; issues: { path: string }[] }>(
        agentCall(t, key, path, { method, body }),
      );
      assert.equal(res.status, 400, `${method} ${path}`);
      assert.equal(res.body.error, error);
      assert.equal(res.body.issues.at(-1)?.path, "(body)");
    }
    // A field like none the request takes is ignored, as ever: the author is the key's.
    const foreign = await json<{ id: string }>(
      agentCall(t, key, "/api/agent/questions", {
        body: { title: "Foreign fields pass", author: { id: bob.id }, userId: bob.id },
      }),
    );
    assert.equal(foreign.status, 201);
    // A bad title keeps its fixed error even beside a misspelt field.
    const title = await json(
      agentCall(t, key, "/api/agent/questions", { body: { title: "x", body: "y" } }),
    );
    assert.deepEqual([title.status, title.body.error], [400, "title is required (min 2 chars)"]);
    // Nothing was voted, asked or replied.
    const q = await json<
      { upvotes: number; messageCount: number; messages: { upvotes: number }[] }
    >(
      t.request(`/api/questions/${qid}`),
    );
    assert.deepEqual([q.body.upvotes, q.body.messageCount, q.body.messages[0].upvotes], [0, 1, 0]);
    const list = await json<{ total: number }>(agentCall(t, key, "/api/agent/questions"));
    assert.equal(list.body.total, 2); // Bob's, and the one with foreign fields
  } finally {
    await t.close();
  }
});

Deno.test("agent reply: content that is not text says so; none, or nothing visible, is an empty answer", async () => {
  const t = await createTestApp();
  try {
    const ada = await publicVoter(t, "Ada");
    const key = await agentKey(t, ada);
    const qid = await ask(t, ada, { title: "Typed content?" });
    const path = `/api/agent/questions/${qid}/reply`;
    for (const content of [123, ["a"], null, { text: "x" }]) {
      const r = await json(agentCall(t, key, path, { body: { content } }));
      assert.deepEqual([r.status, r.body.error], [400, "content must be text (Markdown)"]);
    }
    const none = await json(agentCall(t, key, path, { body: {} }));
    assert.equal(none.body.error, "Write something first: an empty answer can't be posted.");
    // Nothing visible is as empty as nothing: a control character, a lone surrogate, a
    // zero-width space.
    for (const content of ["\u0000", "\ud800", " \u200b\u200d "]) {
      const r = await json(agentCall(t, key, path, { body: { content } }));
      assert.deepEqual(
        [r.status, r.body.error],
        [400, "Write something first: an empty answer can't be posted."],
        JSON.stringify(content),
      );
    }
    const { body: q } = await json<{ messageCount: number }>(t.request(`/api/questions/${qid}`));
    assert.equal(q.messageCount, 0);
    // Visible text around them is kept as written.
    const ok = await agentCall(t, key, path, { body: { content: "e\u0301 \u{1F600}" } });
    assert.equal(ok.status, 201);
    await ok.body?.cancel();
  } finally {
    await t.close();
  }
});
