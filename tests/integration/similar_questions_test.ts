/**
 * Similar questions (`GET /api/questions/similar?title=`, docs/interface.md#similar): a
 * question sharing the title's words is found, questions sharing more words come first,
 * at most 5, never a deleted or hidden one, and bad input is a 400 in the project's error
 * shape. The agent API and the MCP tool answer the same list.
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
  type Member,
  member,
  postAs,
  vote,
} from "../helpers/community.ts";

interface Similar {
  id: string;
  title: string;
  answerCount: number;
  accepted: boolean;
  score: number;
}

const similar = (t: TestApp, title: string, who: Member | null = null) =>
  json<{ questions: Similar[]; error?: string; issues?: unknown[] }>(
    getAs(t, who, `/api/questions/similar?title=${encodeURIComponent(title)}`),
  );

Deno.test("similar questions: a question sharing the title's words, with its answers, acceptance and score", async () => {
  const t = await createTestApp();
  try {
    const [ada, bob, cy] = await Promise.all(["Ada", "Bob", "Cy"].map((n) => member(t, n)));
    const ferns = await ask(t, ada, { title: "How often should I water ferns?" });
    const other = await ask(t, ada, { title: "Which bread flour rises best?" });
    const accepted = await answer(t, bob, ferns, "Weekly, from below.");
    await answer(t, cy, ferns, "When the soil is dry.");
    assert.equal(
      (await postAs(t, ada, `/api/questions/${ferns}/accept`, { messageId: accepted })).status,
      200,
    );
    await vote(t, bob, "question", ferns, "up");
    await vote(t, cy, "question", ferns, "up");

    const r = await similar(t, "Watering my ferns every day?");
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.questions, [{
      id: ferns,
      title: "How often should I water ferns?",
      answerCount: 2,
      accepted: true,
      score: 2,
    }]);
    assert.ok(!r.body.questions.some((q) => q.id === other));

    // More shared words first: both share "ferns", only one shares "indoor" too.
    const indoor = await ask(t, bob, { title: "Indoor ferns turning brown" });
    const ranked = await similar(t, "Indoor ferns for a dark room");
    assert.deepEqual(ranked.body.questions.map((q) => q.id), [indoor, ferns]);

    const none = await similar(t, "Quantum chromodynamics lattice");
    assert.deepEqual(none.body, { questions: [] });
  } finally {
    await t.close();
  }
});

Deno.test("similar questions: at most 5, and never a deleted or hidden question (even to its author)", async () => {
  const t = await createTestApp({ env: { LIMIT_QUESTIONS_PER_HOUR: "0" } });
  try {
    const [ada, mod] = await Promise.all(["Ada", "Mo"].map((n) => member(t, n)));
    t.services.config.moderators = [mod.id];
    const live: string[] = [];
    for (let i = 0; i < 7; i++) {
      live.push(await ask(t, ada, { title: `Sourdough starter question ${i}` }));
    }
    const hidden = await ask(t, ada, { title: "Sourdough starter smells of acetone" });
    const deleted = await ask(t, ada, { title: "Sourdough starter went grey" });
    const hide = await postAs(t, mod, "/api/mod/actions", {
      targetType: "question",
      targetId: hidden,
      action: "hide",
    });
    assert.equal(hide.status, 200, await hide.text());
    const del = await t.request(`/api/questions/${deleted}`, {
      method: "DELETE",
      headers: { cookie: ada.cookie, origin: t.services.config.appOrigin },
    });
    assert.equal(del.status, 200, await del.text());

    for (const who of [null, ada, mod]) {
      const r = await similar(t, "My sourdough starter", who);
      assert.equal(r.status, 200);
      assert.equal(r.body.questions.length, 5, who?.name ?? "anonymous");
      const ids = r.body.questions.map((q) => q.id);
      assert.equal(new Set(ids).size, 5);
      assert.ok(ids.every((id) => live.includes(id)), `${who?.name}: ${ids}`);
    }
    // Named by their own words, the withdrawn ones are still not found.
    for (const title of ["starter smells of acetone", "starter went grey"]) {
      const r = await similar(t, title, ada);
      assert.ok(!r.body.questions.some((q) => q.id === hidden || q.id === deleted), title);
    }
  } finally {
    await t.close();
  }
});

Deno.test("similar questions: a missing, blank or over-long title is a 400 with the error shape", async () => {
  const t = await createTestApp();
  try {
    for (
      const [path, error] of [
        ["/api/questions/similar", "title is required"],
        ["/api/questions/similar?title=", "title is required"],
        ["/api/questions/similar?title=%20%20%20", "title is required"],
        [`/api/questions/similar?title=${"a".repeat(201)}`, "title must be at most 200 characters"],
      ]
    ) {
      const r = await json<{ error: string; issues: { path: string; message: string }[] }>(
        t.request(path),
      );
      assert.equal(r.status, 400, path);
      assert.equal(r.body.error, error, path);
      assert.deepEqual(r.body.issues, [{ path: "title", message: error }], path);
    }
    // 200 characters after trimming is still fine, and the path is not read as a question id.
    const ok = await similar(t, `  ${"a".repeat(200)}  `);
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body, { questions: [] });
  } finally {
    await t.close();
  }
});

Deno.test("similar questions: the agent API and the MCP tool answer what the public endpoint answers", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const q = await ask(t, ada, { title: "Paging a Deno KV list" });
    const key = await agentKey(t, ada);
    const title = "How to page a KV list in Deno";
    const pub = await similar(t, title);
    assert.deepEqual(pub.body.questions.map((x) => x.id), [q]);

    const viaKey = await agentCall(
      t,
      key,
      `/api/agent/questions/similar?title=${encodeURIComponent(title)}`,
    );
    assert.equal(viaKey.status, 200);
    assert.ok(viaKey.headers.get("x-ratelimit-remaining") !== null, "counted like the agent API");
    assert.deepEqual(await viaKey.json(), pub.body);
    const noKey = await agentCall(t, null, "/api/agent/questions/similar?title=x");
    assert.equal(noKey.status, 401);
    await noKey.body?.cancel();
    const bad = await agentCall(t, key, "/api/agent/questions/similar");
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).error, "title is required");

    const mcp = await agentCall(t, key, "/mcp", {
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "similar_questions", arguments: { title } },
      },
      headers: { accept: "application/json, text/event-stream" },
    });
    assert.equal(mcp.status, 200);
    const { result } = await mcp.json();
    assert.deepEqual(result.structuredContent, pub.body);
    const blank = await agentCall(t, key, "/mcp", {
      body: {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "similar_questions", arguments: { title: " " } },
      },
      headers: { accept: "application/json, text/event-stream" },
    });
    const blankResult = (await blank.json()).result;
    assert.equal(blankResult.isError, true);
    assert.equal(blankResult.content[0].text, "title is required");
  } finally {
    await t.close();
  }
});
