/**
 * The embeddings client against a fake OpenAI-compatible server on loopback: what it asks
 * for, what it returns, and how each failure of the model reaches the caller.
 */
import assert from "node:assert/strict";
import { parseConfig } from "../config.ts";
import { STANDIN_EMBEDDING_MODEL, standInEmbedding } from "../llm/standin/embeddings.ts";
import { LlmError } from "../llm/types.ts";
import { type FakeEmbeddingReply, startFakeLlm } from "../../tests/helpers/fake_llm.ts";
import { createEmbedder, embedderFromConfig, embeddingRejected } from "./embeddings.ts";
import { dot } from "./vectors.ts";

function fakeWith(reply: () => FakeEmbeddingReply = () => ({ standIn: true })) {
  const fake = startFakeLlm(undefined, { embeddings: reply });
  const embedder = createEmbedder({
    apiKey: "test-key",
    baseURL: fake.baseUrl,
    model: "text-embedding-3-small",
    dims: 64,
    timeoutMs: 2_000,
  });
  return { fake, embedder };
}

Deno.test("embed() asks for the model and dimensions with the key and returns normalized vectors in order", async () => {
  const { fake, embedder } = fakeWith();
  try {
    const texts = ["atomic counters in KV", "sourdough starter", "KV atomic sum counter"];
    const vectors = await embedder.embed(texts);
    assert.equal(fake.embeddingCalls.length, 1, "one call for the batch");
    const call = fake.embeddingCalls[0];
    assert.equal(call.model, "text-embedding-3-small");
    assert.equal(call.dimensions, 64);
    assert.deepEqual(call.input, texts);
    assert.equal(call.authorization, "Bearer test-key");
    assert.equal(vectors.length, 3);
    for (const [i, v] of vectors.entries()) {
      assert.equal(v.length, 64);
      assert.ok(Math.abs(dot(v, v) - 1) < 1e-5);
      // The client's default base64 transfer carries the server's floats exactly.
      assert.deepEqual(v, standInEmbedding(texts[i], 64));
    }
    assert.ok(dot(vectors[0], vectors[2]) > dot(vectors[0], vectors[1]));
    assert.deepEqual(await embedder.embed([]), [], "nothing to embed: no call");
    assert.equal(fake.embeddingCalls.length, 1);
  } finally {
    await fake.close();
  }
});

Deno.test("a model that is down fails as 'unavailable' after one retry; a refused text is told apart", async () => {
  let status = 503;
  const { fake, embedder } = fakeWith(() => ({ status }));
  try {
    const down = await embedder.embed(["x"]).catch((e) => e);
    assert.ok(down instanceof LlmError);
    assert.equal(down.kind, "unavailable");
    assert.equal(embeddingRejected(down), false);
    assert.equal(fake.embeddingCalls.length, 2, "one retry of a 5xx");
    assert.doesNotMatch(down.message, /test-key/);

    status = 400;
    const refused = await embedder.embed(["x"], { maxRetries: 0 }).catch((e) => e);
    assert.ok(refused instanceof LlmError);
    assert.equal(embeddingRejected(refused), true);
  } finally {
    await fake.close();
  }
});

Deno.test("a model that never answers fails as 'timeout' at the call's deadline", async () => {
  const { fake, embedder } = fakeWith(() => ({ hang: true }));
  try {
    const err = await embedder.embed(["x"], { timeoutMs: 200, maxRetries: 0 }).catch((e) => e);
    assert.ok(err instanceof LlmError);
    assert.equal(err.kind, "timeout");
  } finally {
    await fake.close();
  }
});

Deno.test("a vector of another size is refused with the variable to set", async () => {
  const fake = startFakeLlm();
  try {
    // A server that answers another size than asked (one that ignores `dimensions`): a
    // proxy in front of the fake rewrites the request's size.
    const proxy = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      async (req) => {
        const body = await req.json();
        const res = await fetch(`${fake.baseUrl}/embeddings`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ ...body, dimensions: 32 }),
        });
        return new Response(res.body, { status: res.status, headers: res.headers });
      },
    );
    try {
      const embedder = createEmbedder({
        apiKey: "k",
        baseURL: `http://127.0.0.1:${(proxy.addr as Deno.NetAddr).port}`,
        model: "m",
        dims: 64,
      });
      const err = await embedder.embed(["x"]).catch((e) => e);
      assert.ok(err instanceof LlmError);
      assert.equal(err.kind, "bad_response");
      assert.match(err.message, /32 dimensions, 64 were asked for: set LLM_EMBEDDING_DIMENSIONS/);
    } finally {
      await proxy.shutdown();
    }
  } finally {
    await fake.close();
  }
});

Deno.test("embedderFromConfig(): the configured model with a key, the stand-in in local mode, none otherwise", () => {
  const appFetch = () => () => new Response("unused");
  const configured = embedderFromConfig(
    parseConfig({
      LLM_API_KEY: "k",
      LLM_EMBEDDING_MODEL: "emb-x",
      LLM_EMBEDDING_DIMENSIONS: "128",
    }),
    { appFetch },
  );
  assert.equal(configured?.model, "emb-x");
  assert.equal(configured?.dims, 128);
  const local = embedderFromConfig(parseConfig({}), { appFetch });
  assert.equal(local?.model, STANDIN_EMBEDDING_MODEL);
  assert.equal(local?.dims, 256);
  const none = embedderFromConfig(
    parseConfig({ LOCAL_MODE: "off", APP_SECRET: "x".repeat(32) }),
    { appFetch },
  );
  assert.equal(none, undefined);
});
