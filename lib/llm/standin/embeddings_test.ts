import assert from "node:assert/strict";
import { decodeVector, dot } from "../../search/vectors.ts";
import {
  embeddingWords,
  STANDIN_EMBEDDING_MODEL,
  standInEmbedding,
  standInEmbeddings,
} from "./embeddings.ts";

Deno.test("the same text gives the same normalized vector every time", () => {
  const a = standInEmbedding("How do atomic counters work in Deno KV?", 256);
  const b = standInEmbedding("How do atomic counters work in Deno KV?", 256);
  assert.deepEqual(a, b);
  assert.equal(a.length, 256);
  assert.ok(Math.abs(dot(a, a) - 1) < 1e-5);
  // Case, punctuation and a plural do not change what a text says.
  assert.ok(dot(a, standInEmbedding("how do ATOMIC counter work in deno kv", 256)) > 0.99);
});

Deno.test("related texts are closer than unrelated ones", () => {
  const query = standInEmbedding("atomic counter in Deno KV", 256);
  const related = standInEmbedding("Keeping a counter with atomic sum in KV", 256);
  const unrelated = standInEmbedding("Best flour for a sourdough starter", 256);
  assert.ok(dot(query, related) > 0.3, `related ${dot(query, related)}`);
  assert.ok(dot(query, related) > dot(query, unrelated) + 0.2);
  assert.ok(Math.abs(dot(query, unrelated)) < 0.2, `unrelated ${dot(query, unrelated)}`);
});

Deno.test("function words are skipped; a text without words embeds as zero", () => {
  assert.deepEqual(embeddingWords("What is the best way to do it?"), ["best", "way"]);
  assert.ok(standInEmbedding("?!", 16).every((x) => x === 0));
});

Deno.test("the endpoint answers OpenAI's shape, as floats or base64 of the same vector", () => {
  const floats = standInEmbeddings({ input: ["alpha beta", "gamma"], dimensions: 32 });
  assert.ok(floats.ok);
  const data = floats.response.data as { index: number; embedding: number[] }[];
  assert.equal(floats.response.object, "list");
  assert.equal(floats.response.model, STANDIN_EMBEDDING_MODEL);
  assert.deepEqual(data.map((d) => d.index), [0, 1]);
  assert.equal(data[0].embedding.length, 32);

  const b64 = standInEmbeddings({ input: "alpha beta", dimensions: 32, encoding_format: "base64" });
  assert.ok(b64.ok);
  const encoded = (b64.response.data as { embedding: string }[])[0].embedding;
  const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  assert.deepEqual([...decodeVector(bytes)], data[0].embedding);
});

Deno.test("a bad request is refused with a reason, never thrown", () => {
  for (const body of [null, {}, { input: [] }, { input: [1, 2] }, { input: "x", dimensions: 0 }]) {
    const out = standInEmbeddings(body);
    assert.equal(out.ok, false, JSON.stringify(body));
    if (!out.ok) assert.match(out.message, /^Invalid embeddings request/);
  }
});
