/**
 * Semantic rerank (lib/search/rerank.ts) over questions asked through the HTTP surface, with
 * the vectors their writes stored: the in-app stand-in in local mode, or a fake
 * OpenAI-compatible server on loopback that can fail.
 */
import assert from "node:assert/strict";
import { createTestApp } from "../helpers/app.ts";
import { startFakeLlm } from "../helpers/fake_llm.ts";
import { ask, member } from "../helpers/community.ts";
import { keys } from "@/lib/kv/keys.ts";
import { createEmbedder } from "@/lib/search/embeddings.ts";
import { rerankBySimilarity, SEMANTIC_WEIGHT } from "@/lib/search/rerank.ts";

Deno.test("a candidate close in meaning overtakes one that only matched more words", async () => {
  const t = await createTestApp(); // local mode: the stand-in's vectors
  try {
    const ada = await member(t, "Ada");
    const close = await ask(t, ada, {
      title: "Atomic counter for likes",
      description: "Keeping an atomic counter that never conflicts under load.",
    });
    const lexical = await ask(t, ada, {
      title: "Listing keys by prefix",
      description: "The list returns keys in order; how do I page through a prefix?",
    });
    const noVector = await ask(t, ada, { title: "An old question without a vector" });
    await t.kv.delete(keys.questionVector(noVector));

    const candidates = [
      { id: lexical, score: 10 },
      { id: close, score: 8.5 },
      { id: noVector, score: 9 },
    ];
    const ranked = await rerankBySimilarity(
      t.kv,
      t.services.embedder,
      "atomic counter",
      candidates,
    );
    assert.deepEqual(ranked.map((c) => c.id), [close, lexical, noVector]);
    // The one without a vector keeps its lexical part only: (1 − w) · score / max.
    const kept = ranked.find((c) => c.id === noVector)!;
    assert.ok(Math.abs(kept.score - (1 - SEMANTIC_WEIGHT) * 0.9) < 1e-9);
    // The input is not changed.
    assert.deepEqual(candidates.map((c) => c.score), [10, 8.5, 9]);
  } finally {
    await t.close();
  }
});

Deno.test("a query's vector is cached: a repeated search (any case or spacing) costs no model call", async () => {
  const fake = startFakeLlm();
  const t = await createTestApp({ env: fake.env });
  try {
    const id = await ask(t, await member(t, "Ada"), { title: "Atomic counter for likes" });
    const calls = fake.embeddingCalls.length;
    const candidates = [{ id, score: 1 }];
    await rerankBySimilarity(t.kv, t.services.embedder, "Atomic counter", candidates);
    assert.equal(fake.embeddingCalls.length, calls + 1);
    await rerankBySimilarity(t.kv, t.services.embedder, "  atomic   COUNTER ", candidates);
    assert.equal(fake.embeddingCalls.length, calls + 1, "served from the cache");
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("the model failing, hanging or absent leaves the lexical order and scores as they were", async () => {
  let reply: { status: number } | { hang: true } = { status: 503 };
  const fake = startFakeLlm(undefined, { embeddings: () => reply });
  const t = await createTestApp({ env: fake.env });
  try {
    const ada = await member(t, "Ada");
    const a = await ask(t, ada, { title: "Listing keys by prefix" });
    const b = await ask(t, ada, { title: "Atomic counter for likes" });
    const candidates = [{ id: a, score: 3, extra: "kept" }, { id: b, score: 2, extra: "kept" }];
    const unchanged = (got: typeof candidates) => assert.deepEqual(got, candidates);

    unchanged(await rerankBySimilarity(t.kv, t.services.embedder, "atomic counter", candidates));
    unchanged(await rerankBySimilarity(t.kv, null, "atomic counter", candidates));
    unchanged(await rerankBySimilarity(t.kv, t.services.embedder, "   ", candidates));

    // A model that never answers: its own embedder (a fresh store, so no quiet period yet).
    reply = { hang: true };
    const kv = await Deno.openKv(":memory:");
    try {
      const slow = createEmbedder({
        apiKey: "k",
        baseURL: fake.baseUrl,
        model: "m",
        dims: 256,
      });
      unchanged(
        await rerankBySimilarity(kv, slow, "atomic counter", candidates, { timeoutMs: 100 }),
      );
      // After a failure the store's searches skip the model for a while: no new call.
      const calls = fake.embeddingCalls.length;
      unchanged(await rerankBySimilarity(kv, slow, "other words", candidates));
      assert.equal(fake.embeddingCalls.length, calls);
    } finally {
      kv.close();
    }
  } finally {
    await t.close();
    await fake.close();
  }
});
