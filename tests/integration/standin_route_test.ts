/**
 * Local mode without LLM_API_KEY: the stand-in model is served inside the app as an
 * OpenAI-compatible endpoint, and the real `openai` client reaches it — in process and
 * over a real port — so a whole debate runs offline.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { SynthesisSchema } from "@/lib/schemas/debate.ts";
import { getDebate } from "@/lib/debates/store.ts";
import { fetchIntoApp, STANDIN_BASE_PATH, STANDIN_MODEL } from "@/lib/llm/from_config.ts";
import { standInPacing } from "@/lib/llm/standin/server.ts";
import { createTestApp, jsonWrite, serveOnLoopback, signInAs } from "../helpers/app.ts";
import { parseSse } from "../helpers/sse.ts";

standInPacing.wordDelayMs = 0;

const ROUTE = `${STANDIN_BASE_PATH}/chat/completions`;

Deno.test("local mode without a key: the app's client is the stand-in, reached in process", async () => {
  const t = await createTestApp();
  try {
    const llm = t.services.llm!;
    assert.equal(llm.standIn, true);
    assert.equal(llm.model, STANDIN_MODEL);
    const prompt = [{
      role: "user" as const,
      content: "Topic: bicycles\nWrite 100 to 200 characters.",
    }];
    const text = await llm.chat(prompt);
    assert.ok(text.length >= 100 && text.length <= 200, text);
    assert.match(text.toLowerCase(), /bicycles/);
    let streamed = "";
    let deltas = 0;
    for await (const d of llm.stream(prompt)) {
      streamed += d;
      deltas++;
    }
    assert.equal(streamed, text, "streamed and whole answers agree");
    assert.ok(deltas > 5, "the answer arrives in many deltas");
  } finally {
    await t.close();
  }
});

Deno.test("a whole debate runs on the stand-in: 10 messages of 100–200 characters and a valid synthesis", async () => {
  const t = await createTestApp();
  try {
    const { cookie } = await signInAs(t, "Ada");
    const res = await t.request("/api/debate", {
      method: "POST",
      headers: jsonWrite(t, cookie),
      body: JSON.stringify({
        topic: "Should cities ban cars downtown?",
        userProfile: { name: "Ada", softMemory: { traits: ["calm"], interests: ["transit"] } },
      }),
    });
    assert.equal(res.status, 200);
    const events = parseSse(await res.text());
    assert.equal(events.at(-1)?.type, "done");
    const messages = events.filter((e) => e.type === "message").map((e) => e.data);
    assert.equal(messages.length, 10);
    for (const m of messages) {
      assert.ok(m.content.length >= 100 && m.content.length <= 200, `${m.content.length}`);
    }
    assert.ok(SynthesisSchema.safeParse(events.at(-2)?.data).success);
    const stored = await getDebate(t.kv, events[0].data.id, Date.now());
    assert.equal(stored?.standIn, true);
    assert.equal(stored?.synthesisSource, "model", "the stand-in's JSON validates first time");
  } finally {
    await t.close();
  }
});

Deno.test("over a real port the endpoint speaks OpenAI's JSON and SSE formats", async () => {
  const t = await createTestApp();
  const srv = serveOnLoopback(t.app.fetch);
  try {
    const client = new OpenAI({
      apiKey: "unused",
      baseURL: `${srv.url}${STANDIN_BASE_PATH}`,
      maxRetries: 0,
    });
    const messages = [{ role: "user" as const, content: "Topic: tea\nWrite 40 to 60 characters." }];
    const whole = await client.chat.completions.create({ model: STANDIN_MODEL, messages });
    const text = whole.choices[0].message.content!;
    assert.ok(text.length >= 40 && text.length <= 60);
    assert.equal(whole.choices[0].finish_reason, "stop");

    const stream = await client.chat.completions.create({
      model: STANDIN_MODEL,
      messages,
      stream: true,
    });
    let joined = "";
    for await (const chunk of stream) joined += chunk.choices[0]?.delta?.content ?? "";
    assert.equal(joined, text);

    const raw = await fetch(`${srv.url}${ROUTE}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: STANDIN_MODEL, messages, stream: true }),
    });
    assert.equal(raw.headers.get("content-type"), "text/event-stream");
    const body = await raw.text();
    assert.match(body, /^data: \{.*"delta":\{"role":"assistant"/);
    assert.ok(body.endsWith("data: [DONE]\n\n"));

    const json = await client.chat.completions.create({
      model: STANDIN_MODEL,
      messages: [{
        role: "user",
        content: 'Reply in JSON like {"verdict":"yes|no","why":"at most 50 characters"}',
      }],
      response_format: { type: "json_object" },
    });
    const value = JSON.parse(json.choices[0].message.content!);
    assert.ok(["yes", "no"].includes(value.verdict));
    assert.ok(value.why.length <= 50);

    const bad = await fetch(`${srv.url}${ROUTE}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [] }),
    });
    assert.equal(bad.status, 400);
    assert.equal(typeof (await bad.json()).error.message, "string");
  } finally {
    await srv.close();
    await t.close();
  }
});

Deno.test("the stand-in is not mounted with LLM_API_KEY set or outside local mode", async () => {
  for (
    const env of [
      { LLM_API_KEY: "sk-real" },
      { LOCAL_MODE: "off", APP_SECRET: "s".repeat(32) },
    ] as Record<string, string>[]
  ) {
    const t = await createTestApp({ env });
    try {
      assert.equal(t.services.llm?.standIn ?? false, false);
      const res = await t.request(ROUTE, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
      });
      assert.equal(res.status, 404, JSON.stringify(env));
    } finally {
      await t.close();
    }
  }
});

Deno.test("aborting an in-app model call cancels the stand-in's response stream", async () => {
  let cancelled = false;
  const endless = () =>
    new Response(
      new ReadableStream<Uint8Array>({
        pull: (c) => {
          c.enqueue(new Uint8Array([32]));
          return new Promise((r) => setTimeout(r, 2));
        },
        cancel: () => {
          cancelled = true;
        },
      }),
    );
  const fetchApp = fetchIntoApp(() => endless);
  const ac = new AbortController();
  const res = await fetchApp("http://app.test/x", { signal: ac.signal });
  const reader = res.body!.getReader();
  await reader.read();
  ac.abort();
  await reader.read().catch(() => {});
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(cancelled, true);
});
