/**
 * POST /api/debate, GET /api/debate/history and GET /api/debates/:id through the real
 * app, with the real `openai` client talking to a fake OpenAI-compatible server on
 * loopback.
 */
import assert from "node:assert/strict";
import { SynthesisSchema } from "@/lib/schemas/debate.ts";
import { type DebateRecord, getDebate, STALE_AFTER_MS } from "@/lib/debates/store.ts";
import { invertTime } from "@/lib/kv/atomic.ts";
import { keys } from "@/lib/kv/keys.ts";
import { DEFAULT_SETTINGS } from "@/lib/profile/settings.ts";
import {
  createTestApp,
  jsonWrite,
  serveOnLoopback,
  signInAs,
  type TestApp,
  waitForJobs,
} from "../helpers/app.ts";
import {
  type FakeCall,
  type FakeReply,
  startFakeLlm,
  textOfLength,
  VALID_SYNTHESIS,
} from "../helpers/fake_llm.ts";
import { parseSse, readUntil, type SseEvent } from "../helpers/sse.ts";

const PROFILE = {
  name: "Ada",
  avatar: "https://example.com/ada.png",
  bio: "Engineer who cycles to work.",
  softMemory: { traits: ["curious", "blunt"], interests: ["transit", "data"] },
};

function post(t: TestApp, cookie: string, body: unknown, extra: HeadersInit = {}) {
  return t.request("/api/debate", {
    method: "POST",
    headers: { ...jsonWrite(t, cookie), ...extra },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const debateBody = (topic = "Should cities ban cars downtown?") => ({
  topic,
  userProfile: PROFILE,
});

/** A fixed clock that tests move by hand (keeps rate-limit windows deterministic). */
function clock(start = Date.UTC(2030, 0, 1, 12, 0, 0)) {
  const c = { t: start, now: () => c.t };
  return c;
}

/** Run a whole debate and return its events. */
async function fullDebate(t: TestApp, cookie: string, topic?: string): Promise<SseEvent[]> {
  const res = await post(t, cookie, debateBody(topic));
  assert.equal(res.status, 200);
  return parseSse(await res.text());
}

Deno.test("a debate streams init, 10 turns (start, chunks, message), synthesizing, synthesis, done", async () => {
  const fake = startFakeLlm();
  const t = await createTestApp({ env: fake.env });
  try {
    const { cookie, user } = await signInAs(t, "Ada");
    const res = await post(t, cookie, debateBody());
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    assert.equal(res.headers.get("cache-control"), "no-cache");
    assert.equal(res.headers.get("connection"), "keep-alive");
    const raw = await res.text();
    const events = parseSse(raw); // throws on any frame not `event: x\ndata: json\n\n`

    // The grammar: init (start chunk+ message){10} synthesizing synthesis done.
    const letter: Record<string, string> = {
      init: "i",
      start: "s",
      chunk: "c",
      message: "m",
      synthesizing: "y",
      synthesis: "S",
      done: "d",
    };
    const shape = events.map((e) => letter[e.type] ?? "?").join("");
    assert.match(shape, /^i(sc+m){10}ySd$/);
    assert.equal(events[0].type, "init");
    assert.deepEqual(events.at(-3)?.type, "synthesizing");
    assert.deepEqual(events.at(-3)?.data, {});
    assert.equal(events.at(-2)?.type, "synthesis");
    assert.equal(events.at(-1)?.type, "done");

    const init = events[0].data;
    assert.match(init.id, /^debate_\d+_[a-z0-9]+$/);
    assert.equal(init.topic, "Should cities ban cars downtown?");
    assert.equal(init.userProfile.name, "Ada");
    assert.equal(init.userProfile.id, user.id);
    assert.equal(typeof init.opponentProfile.name, "string");
    assert.equal(typeof init.opponentProfile.title, "string");

    // Turns alternate, the user's agent first; chunks add up to each message.
    const messages = events.filter((e) => e.type === "message").map((e) => e.data);
    assert.equal(messages.length, 10);
    let i = 1;
    for (let turn = 0; turn < 10; turn++) {
      const role = turn % 2 === 0 ? "user" : "opponent";
      const start = events[i++];
      assert.deepEqual(start, {
        type: "start",
        data: { role, name: role === "user" ? "Ada" : init.opponentProfile.name },
      });
      let text = "";
      while (events[i].type === "chunk") {
        assert.equal(events[i].data.role, role);
        text += events[i++].data.content;
      }
      const message = events[i++];
      assert.equal(message.type, "message");
      assert.equal(message.data.role, role);
      assert.equal(message.data.name, start.data.name);
      assert.equal(message.data.content, text);
      assert.equal(typeof message.data.timestamp, "number");
    }

    const synthesis = events.at(-2)!.data;
    assert.ok(SynthesisSchema.safeParse(synthesis).success);
    assert.deepEqual(events.at(-1)!.data, {
      id: init.id,
      topic: init.topic,
      messages,
      synthesis,
    });

    // Temperatures: 0.8 for the 10 streamed turns, 0.3 for the synthesis.
    const turns = fake.calls.filter((c) => c.stream);
    const judge = fake.calls.filter((c) => !c.stream);
    assert.equal(turns.length, 10);
    assert.ok(turns.every((c) => c.temperature === 0.8));
    assert.equal(judge.length, 1);
    assert.equal(judge[0].temperature, 0.3);
    assert.ok(turns.every((c) => /100 and 200 characters/.test(c.messages.at(-1)!.content)));

    // Saved: completed, with every message and the synthesis.
    const stored = await getDebate(t.kv, init.id, Date.now());
    assert.equal(stored?.status, "completed");
    assert.deepEqual(stored?.messages, messages);
    assert.deepEqual(stored?.synthesis, synthesis);
    assert.equal(stored?.userId, user.id);
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("over-long turns are clipped to ≤200 characters at a word, and chunks never exceed them", async () => {
  const fake = startFakeLlm((c) =>
    c.stream
      // 420 characters in small, word-splitting tokens.
      ? { text: "", tokens: textOfLength(420, `w${c.index}x`).match(/.{1,7}/g)! }
      : { text: VALID_SYNTHESIS }
  );
  const t = await createTestApp({ env: fake.env });
  try {
    const { cookie } = await signInAs(t, "Ada");
    const events = await fullDebate(t, cookie);
    const messages = events.filter((e) => e.type === "message").map((e) => e.data);
    assert.equal(messages.length, 10);
    for (const [turn, m] of messages.entries()) {
      assert.ok(m.content.length <= 200, `${m.content.length}`);
      assert.ok(m.content.length > 180, "clipped, not truncated hard");
      assert.equal(m.role, turn % 2 === 0 ? "user" : "opponent");
      const full = textOfLength(420, `w${fake.calls.filter((c) => c.stream)[turn].index}x`);
      assert.ok(full.startsWith(m.content));
      assert.equal(full[m.content.length], " ", "cut at a word boundary");
    }
    // Every chunk lies inside its message: no streamed text was taken back.
    let current = "";
    for (const e of events) {
      if (e.type === "start") current = "";
      if (e.type === "chunk") current += e.data.content;
      if (e.type === "message") assert.equal(current, e.data.content);
      assert.ok(current.length <= 200);
    }
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("a synthesis that fails validation is repaired once", async () => {
  const bad = JSON.stringify({ ...JSON.parse(VALID_SYNTHESIS), winner: "nobody" });
  let judged = 0;
  const fake = startFakeLlm((c) =>
    c.stream ? { text: textOfLength(150) } : { text: judged++ === 0 ? bad : VALID_SYNTHESIS }
  );
  const t = await createTestApp({ env: fake.env });
  try {
    const { cookie } = await signInAs(t, "Ada");
    const events = await fullDebate(t, cookie);
    assert.deepEqual(events.at(-2), { type: "synthesis", data: JSON.parse(VALID_SYNTHESIS) });
    const judge = fake.calls.filter((c) => !c.stream);
    assert.equal(judge.length, 2);
    assert.ok(judge.every((c) => c.temperature === 0.3));
    assert.match(judge[1].messages.at(-1)!.content, /winner/);
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("a synthesis still invalid after the repair is salvaged or defaulted; the debate completes", async () => {
  const longConclusion = JSON.stringify({
    ...JSON.parse(VALID_SYNTHESIS),
    conclusion: "This conclusion is far too long for the limit. ".repeat(5),
  });
  for (
    const [answers, expect] of [
      [["not json", "still {not json"], "default"],
      [[longConclusion, longConclusion], "salvaged"],
    ] as const
  ) {
    let judged = 0;
    const fake = startFakeLlm((c) =>
      c.stream ? { text: textOfLength(150) } : { text: answers[judged++] ?? "{}" }
    );
    const t = await createTestApp({ env: fake.env });
    try {
      const { cookie } = await signInAs(t, "Ada");
      const events = await fullDebate(t, cookie);
      const synthesis = events.at(-2)!.data;
      assert.equal(events.at(-1)!.type, "done");
      assert.ok(SynthesisSchema.safeParse(synthesis).success);
      if (expect === "default") {
        assert.equal(synthesis.winner, "tie");
        assert.deepEqual(synthesis.consensus, []);
      } else {
        assert.equal(synthesis.winner, "opponent");
        assert.ok(synthesis.conclusion.length <= 100);
        assert.ok(synthesis.conclusion.startsWith("This conclusion is far too long"));
      }
      const stored = await getDebate(t.kv, events[0].data.id, Date.now());
      assert.equal(stored?.status, "completed");
      assert.deepEqual(stored?.synthesis, synthesis);
      assert.equal(fake.calls.filter((c) => !c.stream).length, 2);
    } finally {
      await t.close();
      await fake.close();
    }
  }
});

Deno.test("a model failing mid-stream ends with an error event and a stored debate marked failed", async () => {
  const fake = startFakeLlm((c: FakeCall): FakeReply =>
    c.index === 3 ? { breakAfter: [" Half", " a", " thought"] } : { text: textOfLength(150) }
  );
  const t = await createTestApp({ env: fake.env });
  try {
    const { cookie } = await signInAs(t, "Ada");
    const events = await fullDebate(t, cookie);
    const last = events.at(-1)!;
    assert.equal(last.type, "error");
    assert.equal(typeof last.data.message, "string");
    assert.ok(last.data.message.length > 0);
    assert.equal(events.filter((e) => e.type === "message").length, 3);
    assert.ok(!events.some((e) => e.type === "done" || e.type === "synthesis"));
    const stored = await getDebate(t.kv, events[0].data.id, Date.now());
    assert.equal(stored?.status, "failed");
    assert.equal(stored?.error, last.data.message);
    assert.equal(stored?.messages.length, 3);
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("a model that keeps answering 500 is retried once, then the debate fails", async () => {
  const fake = startFakeLlm((c) => c.index >= 1 ? { status: 500 } : { text: textOfLength(150) });
  const t = await createTestApp({ env: fake.env });
  try {
    const { cookie } = await signInAs(t, "Ada");
    const events = await fullDebate(t, cookie);
    assert.equal(events.at(-1)!.type, "error");
    assert.equal(fake.calls.length, 3, "first turn, then the second turn and its one retry");
    const stored = await getDebate(t.kv, events[0].data.id, Date.now());
    assert.equal(stored?.status, "failed");
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("a client that disconnects mid-stream does not stop the debate: it completes and is saved", async () => {
  const fake = startFakeLlm((c) =>
    c.stream ? { text: textOfLength(150), tokenDelayMs: 2 } : { text: VALID_SYNTHESIS }
  );
  const t = await createTestApp({ env: fake.env });
  try {
    const { cookie } = await signInAs(t, "Ada");
    // In-process: cancel the body after the first message.
    const res = await post(t, cookie, debateBody());
    const seen = await readUntil(res, (e) => e.type === "message");
    assert.equal(seen.at(-1)?.type, "message");
    const id = seen[0].data.id;
    // Over a real port: abort the request after the init event.
    const srv = serveOnLoopback(t.app.fetch);
    try {
      const ac = new AbortController();
      const res2 = await fetch(`${srv.url}/api/debate`, {
        method: "POST",
        headers: { ...jsonWrite(t, cookie), origin: srv.url },
        body: JSON.stringify(debateBody("Is remote work better?")),
        signal: ac.signal,
      });
      const first = await readUntil(res2, (e) => e.type === "init");
      const id2 = first[0].data.id;
      ac.abort();
      await waitForJobs(20_000, "debate");
      for (const debateId of [id, id2]) {
        const stored = await getDebate(t.kv, debateId, Date.now());
        assert.equal(stored?.status, "completed", debateId);
        assert.equal(stored?.messages.length, 10);
        assert.ok(SynthesisSchema.safeParse(stored?.synthesis).success);
      }
    } finally {
      await srv.close();
    }
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("the 9th debate in a minute is refused with 429, retryAfter and Retry-After", async () => {
  const fake = startFakeLlm();
  const c = clock();
  const t = await createTestApp({ env: fake.env, now: c.now });
  try {
    const { cookie } = await signInAs(t, "Ada");
    for (let i = 0; i < 8; i++) {
      const res = await post(t, cookie, debateBody(`Topic number ${i}`));
      assert.equal(res.status, 200, `request ${i + 1}`);
      await res.body?.cancel();
    }
    c.t += 10_000;
    const ninth = await post(t, cookie, debateBody());
    assert.equal(ninth.status, 429);
    const body = await ninth.json();
    assert.equal(body.error, "Rate limit exceeded");
    assert.equal(typeof body.retryAfter, "number");
    assert.ok(body.retryAfter >= 1 && body.retryAfter <= 60);
    assert.equal(ninth.headers.get("retry-after"), String(body.retryAfter));
    // Another user has their own budget; the next window lets Ada in again.
    const other = await signInAs(t, "Grace");
    const res = await post(t, other.cookie, debateBody());
    assert.equal(res.status, 200);
    await res.body?.cancel();
    c.t += body.retryAfter * 1000;
    const later = await post(t, cookie, debateBody());
    assert.equal(later.status, 200);
    await later.body?.cancel();
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("request errors: 401, 413 over 24 KB, 400 missing or invalid fields, 500 without a model", async () => {
  const fake = startFakeLlm();
  const t = await createTestApp({ env: fake.env });
  try {
    const anon = await t.request("/api/debate", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(debateBody()),
    });
    assert.equal(anon.status, 401);
    assert.deepEqual(await anon.json(), { error: "Unauthorized" });

    const { cookie } = await signInAs(t, "Ada");
    const big = await post(t, cookie, {
      topic: "big",
      userProfile: { ...PROFILE, bio: "x".repeat(25 * 1024) },
    });
    assert.equal(big.status, 413);
    assert.equal(typeof (await big.json()).error, "string");

    for (
      const body of [
        {},
        { topic: "t" },
        { userProfile: PROFILE },
        { topic: "   ", userProfile: PROFILE },
        { topic: "t", userProfile: null },
        [],
      ]
    ) {
      const res = await post(t, cookie, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.deepEqual(await res.json(), { error: "Missing topic or userProfile" });
    }
    for (
      const body of [
        { topic: "t", userProfile: { bio: "no name" } },
        { topic: "t", userProfile: { name: "Ada", avatar: "javascript:alert(1)" } },
        { topic: "t", userProfile: { name: "Ada", softMemory: { traits: "curious" } } },
        { topic: 42, userProfile: PROFILE },
        { topic: "x".repeat(301), userProfile: PROFILE },
      ]
    ) {
      const res = await post(t, cookie, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      const json = await res.json();
      assert.equal(typeof json.error, "string");
      assert.ok(Array.isArray(json.issues));
    }
    const notJson = await post(t, cookie, "{nope");
    assert.equal(notJson.status, 400);
    assert.equal(fake.calls.length, 0, "no model call for a refused request");
  } finally {
    await t.close();
    await fake.close();
  }
  const noModel = await createTestApp({
    llm: null,
    env: { LOCAL_MODE: "off", APP_SECRET: "s".repeat(32) },
  });
  try {
    const { cookie } = await signInAs(noModel, "Ada");
    const res = await post(noModel, cookie, debateBody());
    assert.equal(res.status, 500);
    assert.deepEqual(await res.json(), { error: "Failed to start debate" });
  } finally {
    await noModel.close();
  }
});

Deno.test("history: the owner's 20 newest, newest first, ISO dates, no internal fields", async () => {
  const fake = startFakeLlm();
  const c = clock();
  const t = await createTestApp({ env: fake.env, now: c.now });
  try {
    const unauth = await t.request("/api/debate/history");
    assert.equal(unauth.status, 401);
    assert.deepEqual(await unauth.json(), { error: "Unauthorized" });

    const ada = await signInAs(t, "Ada");
    const grace = await signInAs(t, "Grace");
    await fullDebate(t, grace.cookie, "Grace's own debate");
    for (let i = 0; i < 22; i++) {
      c.t += 10_000; // stays under 8 a minute
      await fullDebate(t, ada.cookie, `Debate ${i}`);
    }
    const res = await t.request("/api/debate/history", { headers: { cookie: ada.cookie } });
    assert.equal(res.status, 200);
    const history = await res.json();
    assert.ok(Array.isArray(history));
    assert.equal(history.length, 20);
    assert.deepEqual(
      history.map((d: { topic: string }) => d.topic),
      Array.from({ length: 20 }, (_, i) => `Debate ${21 - i}`),
    );
    const first = history[0];
    assert.deepEqual(Object.keys(first).sort(), [
      "createdAt",
      "id",
      "messages",
      "opponentProfile",
      "status",
      "synthesis",
      "topic",
      "updatedAt",
      "userId",
      "userProfile",
    ]);
    assert.equal(first.createdAt, new Date(c.t).toISOString());
    assert.match(first.updatedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(first.status, "completed");
    assert.equal(first.messages.length, 10);
    assert.deepEqual(Object.keys(first.userProfile).sort(), ["avatar", "bio", "id", "name"]);
    assert.deepEqual(Object.keys(first.opponentProfile).sort(), [
      "avatar",
      "bio",
      "id",
      "name",
      "title",
    ]);
    assert.ok(history.every((d: { userId: string }) => d.userId === ada.user.id));
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("history answers 500 'Failed to load history' when the database fails", async () => {
  const t = await createTestApp({ llm: null });
  try {
    const { cookie } = await signInAs(t, "Ada");
    // Sessions still read; listing debates fails.
    const kv = t.services.kv;
    t.services.kv = new Proxy(kv, {
      get(target, prop) {
        if (prop === "list") {
          return () => ({
            [Symbol.asyncIterator]: () => ({
              next: () => Promise.reject(new Error("disk on fire")),
            }),
          });
        }
        const v = Reflect.get(target, prop);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    const quiet = console.error;
    console.error = () => {};
    try {
      const res = await t.request("/api/debate/history", { headers: { cookie } });
      assert.equal(res.status, 500);
      assert.deepEqual(await res.json(), { error: "Failed to load history" });
    } finally {
      console.error = quiet;
      t.services.kv = kv;
    }
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/debates/:id: the owner always; others only while the archive is public", async () => {
  const fake = startFakeLlm();
  const t = await createTestApp({ env: fake.env });
  try {
    const ada = await signInAs(t, "Ada");
    const grace = await signInAs(t, "Grace");
    const events = await fullDebate(t, ada.cookie);
    const id = events[0].data.id;
    const path = `/api/debates/${id}`;

    const own = await t.request(path, { headers: { cookie: ada.cookie } });
    assert.equal(own.status, 200);
    const debate = await own.json();
    assert.equal(debate.id, id);
    assert.equal(debate.messages.length, 10);
    assert.equal(debate.status, "completed");

    // Public by default: anyone may read.
    assert.equal((await t.request(path, { headers: { cookie: grace.cookie } })).status, 200);
    assert.equal((await t.request(path)).status, 200);

    await t.kv.set(keys.settings(ada.user.id), { ...DEFAULT_SETTINGS, debateArchive: "private" });
    for (const headers of [{ cookie: grace.cookie }, {}] as Record<string, string>[]) {
      const res = await t.request(path, { headers });
      assert.equal(res.status, 404);
      assert.deepEqual(await res.json(), { error: "Debate not found" });
    }
    assert.equal((await t.request(path, { headers: { cookie: ada.cookie } })).status, 200);
    assert.equal((await t.request("/api/debates/debate_1_nope")).status, 404);
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("a debate whose process died is read as failed, never in_progress forever", async () => {
  const t = await createTestApp({ llm: null });
  try {
    const { user, cookie } = await signInAs(t, "Ada");
    const old = Date.now() - STALE_AFTER_MS - 1000;
    const record: DebateRecord = {
      id: `debate_${old}_abandoned`,
      userId: user.id,
      topic: "Left behind",
      userProfile: { id: user.id, name: "Ada", avatar: null, bio: "" },
      opponentProfile: { id: "skeptic", name: "Vera", avatar: "data:,", bio: "", title: "t" },
      status: "in_progress",
      synthesis: null,
      messageCount: 0,
      standIn: false,
      createdAt: old,
      updatedAt: old,
    };
    await t.kv.set(keys.debate(record.id), record);
    await t.kv.set(keys.debateByUser(user.id, invertTime(old), record.id), record.id);
    const history = await (await t.request("/api/debate/history", { headers: { cookie } })).json();
    assert.equal(history[0].status, "failed");
    assert.equal((await t.kv.get<DebateRecord>(keys.debate(record.id))).value?.status, "failed");
  } finally {
    await t.close();
  }
});
