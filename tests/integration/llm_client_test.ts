/**
 * The LLM module through the real `openai` client against a fake OpenAI-compatible
 * server on loopback: plain and streamed chat, one retry on transient errors, the
 * per-call deadline, and JSON answers with one repair attempt and a safe fallback.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { createLlmClient } from "@/lib/llm/client.ts";
import { extractJson, jsonAnswer } from "@/lib/llm/json.ts";
import { LlmError } from "@/lib/llm/types.ts";
import { type FakeReply, startFakeLlm } from "../helpers/fake_llm.ts";

const ask = [{ role: "user" as const, content: "Say something" }];

function clientFor(baseUrl: string, timeoutMs = 5_000) {
  return createLlmClient({ apiKey: "test-key", baseURL: baseUrl, model: "fake-model", timeoutMs });
}

Deno.test("chat sends model, key, temperature and token budget, and returns the text", async () => {
  const fake = startFakeLlm(() => ({ text: "Hello there" }));
  try {
    const llm = clientFor(fake.baseUrl);
    const text = await llm.chat(ask, { temperature: 0.3, maxTokens: 50 });
    assert.equal(text, "Hello there");
    assert.equal(fake.calls.length, 1);
    const call = fake.calls[0];
    assert.equal(call.stream, false);
    assert.equal(call.model, "fake-model");
    assert.equal(call.temperature, 0.3);
    assert.equal(call.max_tokens, 50);
    assert.equal(call.authorization, "Bearer test-key");
    assert.equal(call.response_format, undefined);
  } finally {
    await fake.close();
  }
});

Deno.test("stream yields the model's deltas in order", async () => {
  const fake = startFakeLlm(() => ({ text: "", tokens: ["Hel", "lo", " wor", "ld"] }));
  try {
    const deltas: string[] = [];
    for await (const d of clientFor(fake.baseUrl).stream(ask, { temperature: 0.8 })) deltas.push(d);
    assert.deepEqual(deltas, ["Hel", "lo", " wor", "ld"]);
    assert.equal(fake.calls[0].stream, true);
    assert.equal(fake.calls[0].temperature, 0.8);
  } finally {
    await fake.close();
  }
});

Deno.test("a transient failure is retried exactly once", async () => {
  const replies: FakeReply[] = [{ status: 503 }, { text: "recovered" }];
  const fake = startFakeLlm((c) => replies[c.index] ?? { status: 500 });
  try {
    assert.equal(await clientFor(fake.baseUrl).chat(ask), "recovered");
    assert.equal(fake.calls.length, 2);
  } finally {
    await fake.close();
  }
});

Deno.test("a failure that persists after the retry is an LlmError, after two calls", async () => {
  const fake = startFakeLlm(() => ({ status: 500 }));
  try {
    await assert.rejects(
      () => clientFor(fake.baseUrl).chat(ask),
      (err) => err instanceof LlmError && err.kind === "unavailable" && /500/.test(err.message),
    );
    assert.equal(fake.calls.length, 2);
  } finally {
    await fake.close();
  }
});

Deno.test("a client error (400) is not retried", async () => {
  const fake = startFakeLlm(() => ({ status: 400 }));
  try {
    await assert.rejects(() => clientFor(fake.baseUrl).chat(ask), LlmError);
    assert.equal(fake.calls.length, 1);
  } finally {
    await fake.close();
  }
});

Deno.test("a model that never answers hits the per-call deadline", async () => {
  const fake = startFakeLlm(() => ({ hang: true }));
  try {
    await assert.rejects(
      () => clientFor(fake.baseUrl).chat(ask, { timeoutMs: 300 }),
      (err) => err instanceof LlmError && err.kind === "timeout",
    );
  } finally {
    await fake.close();
  }
});

Deno.test("a stream that breaks off mid-answer throws after the deltas it delivered", async () => {
  const fake = startFakeLlm(() => ({ breakAfter: ["one", " two"] }));
  try {
    const got: string[] = [];
    await assert.rejects(async () => {
      for await (const d of clientFor(fake.baseUrl).stream(ask)) got.push(d);
    }, LlmError);
    assert.deepEqual(got, ["one", " two"]);
  } finally {
    await fake.close();
  }
});

const Verdict = z.object({ winner: z.enum(["a", "b"]), score: z.number().max(10) });

Deno.test("jsonAnswer: a valid answer is used as is, in JSON mode", async () => {
  const fake = startFakeLlm(() => ({ text: '```json\n{"winner":"a","score":7}\n```' }));
  try {
    const got = await jsonAnswer(clientFor(fake.baseUrl), ask, Verdict, {
      temperature: 0.3,
      fallback: { winner: "b", score: 0 },
    });
    assert.deepEqual(got, { value: { winner: "a", score: 7 }, source: "model" });
    assert.deepEqual(fake.calls[0].response_format, { type: "json_object" });
    assert.equal(fake.calls[0].temperature, 0.3);
  } finally {
    await fake.close();
  }
});

Deno.test("jsonAnswer: an invalid answer gets one repair that names the problem", async () => {
  const replies = ['{"winner":"c","score":7}', '{"winner":"b","score":3}'];
  const fake = startFakeLlm((c) => ({ text: replies[c.index] }));
  try {
    const got = await jsonAnswer(clientFor(fake.baseUrl), ask, Verdict, {
      fallback: { winner: "a", score: 0 },
    });
    assert.deepEqual(got, { value: { winner: "b", score: 3 }, source: "repaired" });
    assert.equal(fake.calls.length, 2);
    const repair = fake.calls[1].messages;
    assert.equal(repair.at(-2)?.role, "assistant");
    assert.equal(repair.at(-2)?.content, replies[0]);
    assert.match(repair.at(-1)!.content, /winner/);
  } finally {
    await fake.close();
  }
});

Deno.test("jsonAnswer: two bad answers fall back, and the fallback sees the last candidate", async () => {
  const replies = ["not json at all", '{"winner":"a","score":99}'];
  const fake = startFakeLlm((c) => ({ text: replies[c.index] ?? "{}" }));
  try {
    let seen: unknown;
    const got = await jsonAnswer(clientFor(fake.baseUrl), ask, Verdict, {
      fallback: (candidate) => {
        seen = candidate;
        return { winner: "a" as const, score: 10 };
      },
    });
    assert.deepEqual(got, { value: { winner: "a", score: 10 }, source: "fallback" });
    assert.deepEqual(seen, { winner: "a", score: 99 });
    assert.equal(fake.calls.length, 2, "exactly one repair attempt");
  } finally {
    await fake.close();
  }
});

Deno.test("jsonAnswer: an unreachable model throws instead of inventing an answer", async () => {
  const fake = startFakeLlm(() => ({ status: 502 }));
  try {
    await assert.rejects(
      () =>
        jsonAnswer(clientFor(fake.baseUrl), ask, Verdict, { fallback: { winner: "a", score: 1 } }),
      LlmError,
    );
  } finally {
    await fake.close();
  }
});

Deno.test("extractJson finds JSON in plain, fenced and chatty answers", () => {
  assert.deepEqual(extractJson('{"a":1}'), { a: 1 });
  assert.deepEqual(extractJson('Here:\n```json\n{"a":2}\n```\nDone.'), { a: 2 });
  assert.deepEqual(extractJson('Sure! {"a":3} Hope that helps.'), { a: 3 });
  assert.equal(extractJson("no json here"), undefined);
});
