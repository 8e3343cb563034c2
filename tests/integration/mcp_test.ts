/**
 * `/mcp` through the official SDK's own client (`Client` + `StreamableHTTPClientTransport`)
 * against a real loopback server: the tool list with input and output schemas, each tool
 * doing what its REST twin does, the agent key's 401 and the shared rate limit.
 */
import assert from "node:assert/strict";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { createTestApp } from "../helpers/app.ts";
import { clock } from "../helpers/jobs.ts";
import { agentCall, answer, ask, member } from "../helpers/community.ts";
import {
  connectMcp as connect,
  type Structured,
  toolText as text,
  withMcp,
} from "../helpers/mcp.ts";

Deno.test("mcp: tools/list names the tools, each with an object input and output schema", async () => {
  await withMcp(async ({ client }) => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t: Tool) => t.name), [
      "search_questions",
      "similar_questions",
      "get_question",
      "read_post",
      "get_thread_summary",
      "ask_question",
      "reply",
      "vote",
      "edit_post",
      "delete_post",
      "list_notifications",
    ]);
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, "object", tool.name);
      assert.equal(tool.outputSchema?.type, "object", tool.name);
      assert.ok(tool.description, tool.name);
      assert.ok(!JSON.stringify(tool.inputSchema).includes("$ref"), tool.name);
    }
    const byName = Object.fromEntries(tools.map((t: Tool) => [t.name, t]));
    // Defaults make nothing required; the REST fields are there.
    assert.deepEqual(byName.search_questions.inputSchema.required ?? [], []);
    assert.deepEqual(Object.keys(byName.search_questions.inputSchema.properties ?? {}).sort(), [
      "page",
      "q",
      "sort",
      "tag",
    ]);
    assert.deepEqual(byName.get_question.inputSchema.required, ["id"]);
    assert.deepEqual(byName.read_post.inputSchema.required?.sort(), ["id", "targetType"]);
    assert.equal(byName.read_post.annotations?.readOnlyHint, true);
    assert.deepEqual(byName.ask_question.inputSchema.required, ["title"]);
    assert.deepEqual(byName.reply.inputSchema.required?.sort(), ["content", "questionId"]);
    assert.deepEqual(byName.vote.inputSchema.required, ["questionId"]);
    assert.deepEqual(byName.edit_post.inputSchema.required?.sort(), ["id", "targetType"]);
    assert.deepEqual(byName.delete_post.inputSchema.required?.sort(), ["id", "targetType"]);
    assert.equal(byName.delete_post.annotations?.destructiveHint, true);
  });
});

Deno.test("mcp: ask, search, get, reply and vote act as the key's owner, with structured results", async () => {
  await withMcp(async ({ t, client }) => {
    const asked = await client.callTool({
      name: "ask_question",
      arguments: { title: "How do I page a Deno KV list?", tags: [" deno ", "kv"] },
    });
    assert.ok(!asked.isError, text(asked));
    const created = asked.structuredContent as Structured;
    assert.match(String(created.id), /^q-agent-/);
    assert.deepEqual(JSON.parse(text(asked)), created);

    const found = await client.callTool({ name: "search_questions", arguments: { q: "page" } });
    assert.ok(!found.isError, text(found));
    const page = found.structuredContent as { questions: Structured[]; page: number };
    assert.deepEqual(page.questions.map((q) => q.id), [created.id]);
    assert.deepEqual(page.questions[0].tags, ["deno", "kv"]);
    assert.equal((page.questions[0].author as Structured).name, "Ada");
    assert.equal(page.page, 1);

    const replied = await client.callTool({
      name: "reply",
      arguments: { questionId: created.id, content: "Use `kv.list` with a cursor." },
    });
    assert.ok(!replied.isError, text(replied));
    const message = replied.structuredContent as Structured;
    assert.match(String(message.id), /^msg-agent-reply-/);
    assert.equal(message.createdBy, "agent");

    // Someone else's answer, voted on by the agent.
    const bob = await member(t, "Bob");
    const bobsAnswer = await answer(t, bob, String(created.id), "Or read it whole.");
    const voted = await client.callTool({
      name: "vote",
      arguments: { questionId: created.id, messageId: bobsAnswer },
    });
    assert.ok(!voted.isError, text(voted));
    assert.deepEqual(voted.structuredContent, {
      action: "liked",
      upvotes: 1,
      downvotes: 0,
      liked: true,
      downvoted: false,
    });

    const got = await client.callTool({ name: "get_question", arguments: { id: created.id } });
    assert.ok(!got.isError, text(got));
    const q = got.structuredContent as { messages: Structured[]; page: number; pageCount: number };
    // Answers come by votes (the default order): Bob's up-voted answer first.
    assert.deepEqual(q.messages.map((m) => m.id), [bobsAnswer, message.id]);
    assert.equal(q.messages[0].upvotes, 1);
    assert.equal(q.page, 1);
    assert.equal(q.page < q.pageCount, false);

    // The REST API sees the same data.
    const rest = await t.request(`/api/questions/${created.id}`);
    const restBody = await rest.json() as { messages: Structured[]; messageCount: number };
    assert.equal(restBody.messageCount, 2);
  });
});

Deno.test("mcp: get_question pages 10 top-level answers with their first 2 replies; answer pages the rest", async () => {
  await withMcp(async ({ t, client }) => {
    const bob = await member(t, "Bob");
    const id = await ask(t, bob, { title: "A long thread" });
    const first = await answer(t, bob, id, "answer 0");
    const replies: string[] = [];
    for (let i = 0; i < 12; i++) replies.push(await answer(t, bob, id, `reply ${i}`, first));
    for (let i = 1; i < 21; i++) await answer(t, bob, id, `answer ${i}`);
    type Page = {
      messages: Structured[];
      page: number;
      pageCount: number;
      answerCount: number;
      replyCounts: { answerId: string; replies: number }[];
      replyPage?: number;
      replyPageCount?: number;
    };
    const get = async (args: Structured) => {
      const r = await client.callTool({ name: "get_question", arguments: { id, ...args } });
      assert.ok(!r.isError, text(r));
      return r.structuredContent as Page;
    };
    const p1 = await get({ sort: "oldest" });
    assert.deepEqual(p1.messages.map((m) => m.content), [
      "answer 0",
      "reply 0",
      "reply 1",
      ...Array.from({ length: 9 }, (_, i) => `answer ${i + 1}`),
    ]);
    assert.deepEqual([p1.page, p1.pageCount, p1.answerCount], [1, 3, 21]);
    assert.deepEqual(p1.replyCounts.find((r) => r.answerId === first), {
      answerId: first,
      replies: 12,
    });
    const p3 = await get({ sort: "oldest", page: 3 });
    assert.deepEqual(p3.messages.map((m) => m.content), ["answer 20"]);
    assert.deepEqual((await get({ sort: "oldest", page: 4 })).messages, []);
    const newest = await get({ sort: "newest" });
    assert.equal(newest.messages[0].content, "answer 20");

    // One answer: its replies 10 a page.
    const a1 = await get({ answer: first });
    assert.deepEqual(a1.messages.map((m) => m.id), [first, ...replies.slice(0, 10)]);
    assert.deepEqual([a1.replyPage, a1.replyPageCount], [1, 2]);
    const a2 = await get({ answer: first, replyPage: 2 });
    assert.deepEqual(a2.messages.map((m) => m.id), [first, ...replies.slice(10)]);
    // A reply is not an answer: a tool error, not an empty page.
    const notAnswer = await client.callTool({
      name: "get_question",
      arguments: { id, answer: replies[0] },
    });
    assert.deepEqual([notAnswer.isError, text(notAnswer)], [
      true,
      "Answer not found in this question",
    ]);
  });
});

Deno.test("mcp: failures are tool errors with the REST API's messages", async () => {
  await withMcp(async ({ client }) => {
    const missing = await client.callTool({ name: "get_question", arguments: { id: "q-nope" } });
    assert.equal(missing.isError, true);
    assert.equal(text(missing), "Question not found");
    const badTitle = await client.callTool({ name: "ask_question", arguments: { title: "x" } });
    assert.equal(badTitle.isError, true);
    assert.equal(text(badTitle), "title is required (min 2 chars)");
    const badVote = await client.callTool({
      name: "vote",
      arguments: { questionId: "q-nope", voteType: "sideways" },
    });
    assert.equal(badVote.isError, true);
    assert.equal(text(badVote), 'voteType must be "up" or "down"');
    const replyNowhere = await client.callTool({
      name: "reply",
      arguments: { questionId: "q-nope", content: "hello" },
    });
    assert.equal(replyNowhere.isError, true);
    assert.equal(text(replyNowhere), "Question not found");
  });
});

Deno.test("mcp: no key or a wrong key is refused with the agent API's 401", async () => {
  await withMcp(async ({ url }) => {
    await assert.rejects(connect(url, null), /401|Unauthorized|Invalid or missing API key/);
    await assert.rejects(connect(url, "agent_wrong"), /401|Unauthorized|Invalid or missing/);
    const res = await fetch(`${url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(res.status, 401);
    assert.deepEqual(await res.json(), { error: "Invalid or missing API key" });
    // RFC 9728 §5.1: the 401 says where the protected resource metadata is, so a client
    // can learn how to sign in from it (tests/integration/mcp_oauth_test.ts).
    assert.equal(
      res.headers.get("www-authenticate"),
      'Bearer realm="parley-agent", resource_metadata="http://localhost:8000/.well-known/oauth-protected-resource"',
    );
  });
});

Deno.test("mcp: calls count against the key's agent rate limit, shared with the REST API", async () => {
  await withMcp(async ({ t, key, client }) => {
    // connect() made 2 counted requests (initialize and the initialized notification; the
    // client's GET for a server stream is refused with 405 and costs nothing); the limit is 6.
    const ok = await client.callTool({ name: "search_questions", arguments: {} });
    assert.ok(!ok.isError, text(ok));
    const rest = await agentCall(t, key, "/api/agent/me");
    assert.equal(rest.status, 200);
    assert.equal(rest.headers.get("x-ratelimit-remaining"), "2");
    for (let i = 0; i < 2; i++) {
      const last = await client.callTool({ name: "search_questions", arguments: {} });
      assert.ok(!last.isError, text(last));
    }
    const over = await client.callTool({ name: "search_questions", arguments: {} });
    assert.equal(over.isError, true);
    assert.match(text(over), /^Rate limit exceeded\. Retry after \d+ seconds\.$/);
    // The REST API is over the same budget, and a non-tool request gets its 429.
    assert.equal((await agentCall(t, key, "/api/agent/me")).status, 429);
    await assert.rejects(client.listTools(), /429|Rate limit/);
  }, (t) => {
    t.services.agentRateLimit = 6;
  });
});

Deno.test("mcp: an argument a tool does not take is a tool error naming the one meant, and nothing is done", async () => {
  await withMcp(async ({ t, client }) => {
    const bob = await member(t, "Bob");
    const qid = await ask(t, bob, { title: "Vote on the answer, not the question" });
    const mid = await answer(t, bob, qid, "The answer");
    const { tools } = await client.listTools();
    for (const tool of tools) assert.equal(tool.inputSchema.additionalProperties, false, tool.name);
    const voted = await client.callTool({
      name: "vote",
      arguments: { questionId: qid, voteType: "up", messageID: mid },
    });
    assert.equal(voted.isError, true);
    assert.equal(
      text(voted),
      'Unknown field "messageID" (did you mean "messageId"?): this request takes questionId, voteType and messageId.',
    );
    const q = await (await t.request(`/api/questions/${qid}`)).json();
    assert.deepEqual([q.upvotes, q.messages[0].upvotes], [0, 0]);
    // A malformed cursor is refused, as on REST, not read as the first page.
    const notes = await client.callTool({
      name: "list_notifications",
      arguments: { cursor: "garbage" },
    });
    assert.deepEqual([notes.isError, text(notes)], [true, "Invalid cursor"]);
    // An answer the question does not hold is not an empty page.
    const noAnswer = await client.callTool({
      name: "get_question",
      arguments: { id: qid, answer: "msg-nope" },
    });
    assert.deepEqual([noAnswer.isError, text(noAnswer)], [
      true,
      "Answer not found in this question",
    ]);
    const theAnswer = await client.callTool({
      name: "get_question",
      arguments: { id: qid, answer: mid },
    });
    assert.ok(!theAnswer.isError, text(theAnswer));
    // get_question names its own field when it is missing.
    const got = await client.callTool({ name: "get_question", arguments: {} });
    assert.equal(got.isError, true);
    assert.equal(text(got), "id is required");
  });
});

Deno.test("mcp: GET and DELETE are 405 (no server stream, no session), so an idle client spends nothing", async () => {
  // The budget is read on a clock that stands still, so no sub-bucket of the limit ends
  // during the test (lib/limits/slices.ts) and what is left is exact.
  const c = clock();
  await withMcp(
    async ({ t, url, key }) => {
      for (const method of ["GET", "DELETE"]) {
        const res = await fetch(`${url}/mcp`, {
          method,
          headers: { authorization: `Bearer ${key}`, accept: "text/event-stream" },
        });
        assert.equal(res.status, 405, method);
        assert.equal(res.headers.get("allow"), "POST");
        const body = await res.json();
        assert.equal(body.jsonrpc, "2.0");
        assert.match(body.error.message, /stateless; send JSON-RPC requests with POST/);
      }
      // A second SDK client, its requests counted, stays connected and idle for a while: given
      // an empty stream instead of the 405, it reopened it about once a second.
      const made: string[] = [];
      const counting: typeof fetch = (input, init) => {
        made.push(init?.method ?? "GET");
        return fetch(input, init);
      };
      const idle = await connect(url, key, counting);
      try {
        await new Promise((r) => setTimeout(r, 3_000));
        assert.deepEqual(
          made.filter((m) => m === "GET"),
          ["GET"],
          "one GET, answered 405, then none",
        );
        assert.deepEqual(made.filter((m) => m === "POST").length, 2, "initialize and initialized");
      } finally {
        await idle.close();
      }
      const me = await agentCall(t, key, "/api/agent/me");
      // Spent: each client's initialize and initialized notification, and this call; the
      // 405s (three GETs and a DELETE) cost nothing.
      assert.equal(me.headers.get("x-ratelimit-remaining"), String(60 - 5));
    },
    undefined,
    { now: c.now },
  );
});

Deno.test("mcp: /skill.md and /docs/api show the client configuration and every tool", async () => {
  const t = await createTestApp();
  try {
    const origin = t.services.config.appOrigin;
    const skill = await (await t.request("/skill.md")).text();
    const block = skill.match(/```json\n([\s\S]*?)\n```/);
    assert.ok(block, "a JSON config block");
    assert.deepEqual(JSON.parse(block[1]), {
      mcpServers: {
        parley: {
          type: "http",
          url: `${origin}/mcp`,
          headers: { Authorization: "Bearer agent_…" },
        },
      },
    });
    const page = await (await t.request("/docs/api")).text();
    assert.ok(page.includes(`${origin}/mcp`));
    for (
      const sig of [
        "search_questions {q?, tag?, sort?, page?}",
        "similar_questions {title}",
        "get_question {id, page?, sort?, answer?, replyPage?}",
        "read_post {targetType, id}",
        "get_thread_summary {id}",
        "ask_question {title, description?, tags?}",
        "reply {questionId, content, replyTo?}",
        "vote {questionId, voteType?, messageId?}",
        "edit_post {targetType, id, title?, description?, tags?, content?}",
        "delete_post {targetType, id}",
        "list_notifications {cursor?}",
      ]
    ) {
      assert.ok(skill.includes(sig), `skill.md lists ${sig}`);
      assert.ok(page.includes(sig), `/docs/api lists ${sig}`);
    }
  } finally {
    await t.close();
  }
});

Deno.test("mcp: edit_post and delete_post change only the key owner's own posts", async () => {
  await withMcp(async ({ t, client }) => {
    const asked = await client.callTool({
      name: "ask_question",
      arguments: { title: "Editable over MCP", tags: ["one"] },
    });
    const qid = String((asked.structuredContent as Structured).id);
    const replied = await client.callTool({
      name: "reply",
      arguments: { questionId: qid, content: "First words" },
    });
    const mid = String((replied.structuredContent as Structured).id);

    const editedQ = await client.callTool({
      name: "edit_post",
      arguments: { targetType: "question", id: qid, title: "Edited over MCP", tags: ["Two Words"] },
    });
    assert.ok(!editedQ.isError, text(editedQ));
    const q = (editedQ.structuredContent as { question: Structured }).question;
    assert.deepEqual([q.title, q.tags], ["Edited over MCP", ["two-words"]]);
    assert.equal(typeof q.editedAt, "number");
    const editedM = await client.callTool({
      name: "edit_post",
      arguments: { targetType: "message", id: mid, content: "Better words" },
    });
    assert.ok(!editedM.isError, text(editedM));
    assert.equal(
      (editedM.structuredContent as { message: Structured }).message.content,
      "Better words",
    );
    const mixed = await client.callTool({
      name: "edit_post",
      arguments: { targetType: "message", id: mid, title: "No titles on messages" },
    });
    assert.equal(mixed.isError, true);

    const bob = await member(t, "Bob");
    const theirs = await ask(t, bob, { title: "Bob's question" });
    const denied = await client.callTool({
      name: "edit_post",
      arguments: { targetType: "question", id: theirs, title: "Hijacked" },
    });
    assert.equal(denied.isError, true);
    assert.equal(text(denied), "Only the author can edit this");
    const notDeleted = await client.callTool({
      name: "delete_post",
      arguments: { targetType: "question", id: theirs },
    });
    assert.equal(notDeleted.isError, true);

    const delM = await client.callTool({
      name: "delete_post",
      arguments: { targetType: "message", id: mid },
    });
    assert.deepEqual(delM.structuredContent, { ok: true });
    const delQ = await client.callTool({
      name: "delete_post",
      arguments: { targetType: "question", id: qid },
    });
    assert.deepEqual(delQ.structuredContent, { ok: true });
    assert.equal((await t.request(`/api/questions/${qid}`)).status, 404);
  });
});

Deno.test("mcp: list_notifications shows the key owner's notifications (an answer to their question)", async () => {
  await withMcp(async ({ t, client }) => {
    const asked = await client.callTool({
      name: "ask_question",
      arguments: { title: "Who will answer me over MCP?" },
    });
    const qid = String((asked.structuredContent as Structured).id);
    const bob = await member(t, "Bob");
    const mid = await answer(t, bob, qid, "I will.");
    const listed = await client.callTool({ name: "list_notifications", arguments: {} });
    assert.ok(!listed.isError, text(listed));
    const body = listed.structuredContent as {
      notifications: { type: string; questionId: string; messageId: string; read: boolean }[];
      unread: number;
    };
    assert.equal(body.unread, 1);
    assert.deepEqual(
      body.notifications.map((n) => [n.type, n.questionId, n.messageId, n.read]),
      [["answer", qid, mid, false]],
    );
  });
});
