/**
 * `Idempotency-Key` on the four create endpoints and the /ask form: a repeat by the same
 * caller answers the first response and creates nothing; a concurrent repeat is 409 or the
 * first response; keys are per caller; a malformed key is 400; a failed create frees it.
 */
import assert from "node:assert/strict";
import { createTestApp, jsonWrite, type TestApp } from "../helpers/app.ts";
import { agentCall, agentKey, ask, json, type Member, member } from "../helpers/community.ts";
import { keys } from "@/lib/kv/keys.ts";
import { counterValue } from "@/lib/kv/atomic.ts";

function postKeyed(t: TestApp, who: Member, path: string, body: unknown, key: string) {
  return t.request(path, {
    method: "POST",
    headers: { ...jsonWrite(t, who.cookie) as Record<string, string>, "idempotency-key": key },
    body: JSON.stringify(body),
  });
}

async function questionTotal(t: TestApp): Promise<number> {
  return counterValue((await t.kv.get(keys.counter("questions"))).value);
}

Deno.test("POST /api/questions with an Idempotency-Key: the repeat answers the first response, one question", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const first = await postKeyed(t, ada, "/api/questions", { title: "Only once please" }, "k-1");
    const firstBody = await first.text();
    assert.equal(first.status, 201);
    const again = await postKeyed(t, ada, "/api/questions", { title: "Only once please" }, "k-1");
    assert.equal(again.status, 201);
    assert.equal(await again.text(), firstBody, "byte-for-byte the first body");
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.equal(await questionTotal(t), 1);
    // The same key from another caller is another request.
    const bob = await member(t, "Bob");
    const bobs = await postKeyed(t, bob, "/api/questions", { title: "Only once please" }, "k-1");
    assert.equal(bobs.status, 201);
    assert.notEqual(JSON.parse(await bobs.text()).id, JSON.parse(firstBody).id);
    assert.equal(await questionTotal(t), 2);
  } finally {
    await t.close();
  }
});

Deno.test("concurrent repeats of one Idempotency-Key create one question (others: 409 or the first response)", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const responses = await Promise.all(
      Array.from(
        { length: 8 },
        () => postKeyed(t, ada, "/api/questions", { title: "Double click race" }, "race"),
      ),
    );
    const statuses = responses.map((r) => r.status);
    for (const r of responses) {
      if (r.status === 409) {
        assert.deepEqual(await r.json(), {
          error: "A request with this Idempotency-Key is still in progress",
        });
      } else await r.body?.cancel();
    }
    assert.ok(statuses.every((s) => s === 201 || s === 409), String(statuses));
    assert.equal(await questionTotal(t), 1);
    const after = await postKeyed(t, ada, "/api/questions", { title: "Double click race" }, "race");
    assert.equal(after.status, 201);
    await after.body?.cancel();
    assert.equal(await questionTotal(t), 1);
  } finally {
    await t.close();
  }
});

Deno.test("messages and the agent endpoints honour Idempotency-Key; a bad key is 400; a failed create frees the key", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const q = await ask(t, ada, { title: "Answer me once" });
    const path = `/api/questions/${q}/messages`;
    const a1 = await json(postKeyed(t, ada, path, { content: "One answer" }, "m-1"));
    const a2 = await json(postKeyed(t, ada, path, { content: "One answer" }, "m-1"));
    assert.equal(a1.status, 201);
    assert.deepEqual(a2.body, a1.body);
    const view = await json(t.request(`/api/questions/${q}`));
    assert.equal(view.body.messageCount, 1);

    for (const bad of ["", "a".repeat(256), "has space", "tab\there", "é"]) {
      const r = await postKeyed(t, ada, path, { content: "x" }, bad);
      assert.equal(r.status, 400, JSON.stringify(bad));
      await r.body?.cancel();
    }
    // A create that fails (no such question) leaves the key free for a real one.
    const missing = await postKeyed(
      t,
      ada,
      "/api/questions/q-nope/messages",
      { content: "x" },
      "m-2",
    );
    assert.equal(missing.status, 404);
    await missing.body?.cancel();
    assert.equal((await postKeyed(t, ada, path, { content: "Second" }, "m-2")).status, 201);

    const key = await agentKey(t, ada);
    const headers = { "idempotency-key": "agent-1" };
    const q1 = await json(agentCall(t, key, "/api/agent/questions", {
      body: { title: "Agent asks once" },
      headers,
    }));
    const q2 = await json(agentCall(t, key, "/api/agent/questions", {
      body: { title: "Agent asks once" },
      headers,
    }));
    assert.equal(q1.status, 201);
    assert.deepEqual(q2.body, q1.body);
    const r1 = await json(agentCall(t, key, `/api/agent/questions/${q}/reply`, {
      body: { content: "Agent replies once" },
      headers: { "idempotency-key": "agent-2" },
    }));
    const r2 = await json(agentCall(t, key, `/api/agent/questions/${q}/reply`, {
      body: { content: "Agent replies once" },
      headers: { "idempotency-key": "agent-2" },
    }));
    assert.equal(r1.status, 201);
    assert.deepEqual(r2.body, r1.body);
    assert.equal((await json(t.request(`/api/questions/${q}`))).body.messageCount, 3);
  } finally {
    await t.close();
  }
});

Deno.test("one Idempotency-Key sent again with another body or path is 422, not the first response", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const q = await ask(t, ada, { title: "Reused keys" });
    const key = await agentKey(t, ada);
    const headers = { "idempotency-key": "abc-123" };
    const reply = `/api/agent/questions/${q}/reply`;
    const first = await json(
      agentCall(t, key, reply, { body: { content: "Answer one" }, headers }),
    );
    assert.equal(first.status, 201);
    const expected = {
      error:
        "This Idempotency-Key was used for a different request (another path or body): send a new key with each new request",
    };
    // Another body, then another endpoint, with the same key: neither is the first request.
    for (
      const [path, body] of [[reply, { content: "A different answer" }], [
        "/api/agent/questions",
        { title: "A question, not a reply" },
      ]] as const
    ) {
      const again = await json(agentCall(t, key, path, { body, headers }));
      assert.equal(again.status, 422, path);
      assert.deepEqual(again.body, expected);
      assert.equal(again.headers.get("idempotent-replayed"), null);
    }
    // The same request again is still the replay; nothing else was created.
    const same = await json(agentCall(t, key, reply, { body: { content: "Answer one" }, headers }));
    assert.deepEqual([same.status, same.body], [201, first.body]);
    assert.equal((await json(t.request(`/api/questions/${q}`))).body.messageCount, 1);
    assert.equal(await questionTotal(t), 1);
    // A record from before fingerprints (none stored) still replays.
    const k = keys.idempotency(
      `agent:${
        (await json<{ key: { id: string } }>(agentCall(t, key, "/api/agent/me"))).body.key.id
      }`,
      "abc-123",
    );
    const rec = (await t.kv.get<Record<string, unknown>>(k)).value!;
    await t.kv.set(k, { ...rec, fingerprint: undefined });
    const old = await json(agentCall(t, key, reply, { body: { content: "Other" }, headers }));
    assert.deepEqual([old.status, old.body], [201, first.body]);
  } finally {
    await t.close();
  }
});

Deno.test("a crash after the commit cannot duplicate: the record names the question, a retry answers it", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const first = await json(
      postKeyed(t, ada, "/api/questions", { title: "Crash after commit" }, "c-1"),
    );
    // Simulate a crash between the commit and the response snapshot.
    const k = keys.idempotency(`user:${ada.id}`, "c-1");
    const rec = (await t.kv.get<Record<string, unknown>>(k)).value!;
    await t.kv.set(k, { ...rec, state: "created", response: undefined });
    const retry = await json(
      postKeyed(t, ada, "/api/questions", { title: "Crash after commit" }, "c-1"),
    );
    assert.equal(retry.status, 201);
    assert.equal(retry.body.id, first.body.id);
    assert.equal(await questionTotal(t), 1);
  } finally {
    await t.close();
  }
});

Deno.test("the /ask form posts once per form: a resubmitted form redirects to the same question", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const page = await (await t.request("/ask", { headers: { cookie: ada.cookie } })).text();
    const key = page.match(/name="idempotencyKey" value="([^"]+)"/)?.[1];
    assert.ok(key, "the form carries a key");
    const submit = () =>
      t.request("/ask", {
        method: "POST",
        redirect: "manual",
        headers: {
          ...jsonWrite(t, ada.cookie) as Record<string, string>,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ title: "Asked from the form", idempotencyKey: key }),
      });
    const [a, b] = [await submit(), await submit()];
    assert.equal(a.status, 303);
    assert.equal(b.status, 303);
    assert.equal(a.headers.get("location"), b.headers.get("location"));
    assert.equal(await questionTotal(t), 1);
  } finally {
    await t.close();
  }
});
