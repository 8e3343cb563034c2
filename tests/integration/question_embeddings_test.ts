/**
 * Questions' embeddings (lib/search/question_vectors.ts, embed_on_write.ts,
 * embedding_job.ts) through the HTTP surface and real KV, with a fake OpenAI-compatible
 * server on loopback or the in-app stand-in: a write embeds at once, a model outage never
 * fails the write and the job fills the gap, edits re-embed, deletes and hides remove the
 * vector, and older questions are backfilled by a resumable pass.
 */
import assert from "node:assert/strict";
import { createTestApp, jsonWrite, waitForJobs } from "../helpers/app.ts";
import { type FakeEmbeddingReply, startFakeLlm } from "../helpers/fake_llm.ts";
import { ask, json, member, postAs } from "../helpers/community.ts";
import { keys } from "@/lib/kv/keys.ts";
import { jobRunner } from "@/lib/jobs/runner.ts";
import { sha256Hex } from "@/lib/ids.ts";
import { STANDIN_EMBEDDING_MODEL, standInEmbedding } from "@/lib/llm/standin/embeddings.ts";
import {
  EMBEDDING_JOB,
  type EmbeddingJobState,
  runEmbeddingPass,
} from "@/lib/search/embedding_job.ts";
import { embeddedTextOf, type QuestionVector } from "@/lib/search/question_vectors.ts";
import { decodeVector } from "@/lib/search/vectors.ts";
import type { QuestionRecord } from "@/lib/community/questions/model.ts";

async function vectorOf(kv: Deno.Kv, id: string) {
  return (await kv.get<QuestionVector>(keys.questionVector(id))).value;
}
async function pending(kv: Deno.Kv, id: string) {
  return (await kv.get(keys.embeddingPending(id))).versionstamp !== null;
}

/** A fake model whose embeddings endpoint is up or down as the test says. */
function switchableFake() {
  const state: { reply: FakeEmbeddingReply } = { reply: { standIn: true } };
  const fake = startFakeLlm(undefined, { embeddings: () => state.reply });
  return { fake, state };
}

Deno.test("asking a question stores its vector before the 201: the embedded text's vector, this model's, 1 KiB", async () => {
  const { fake } = switchableFake();
  const t = await createTestApp({ env: fake.env });
  try {
    const ada = await member(t, "Ada");
    const body = {
      title: "How do atomic counters work in Deno KV?",
      description: "I want a like count that never conflicts.",
      tags: ["deno-kv"],
    };
    const id = await ask(t, ada, body);
    const vec = await vectorOf(t.kv, id);
    assert.ok(vec, "the vector is there when the request returns");
    assert.equal(vec.model, "text-embedding-3-small");
    assert.equal(vec.dims, 256);
    assert.ok(vec.v instanceof Uint8Array);
    assert.equal(vec.v.byteLength, 1024);
    const q = (await t.kv.get<QuestionRecord>(keys.question(id))).value!;
    const text = embeddedTextOf(q);
    assert.match(text, /atomic counters[\s\S]*deno-kv[\s\S]*never conflicts/);
    assert.equal(vec.text, await sha256Hex(text));
    assert.deepEqual(decodeVector(vec.v), standInEmbedding(text, 256));
    assert.equal(await pending(t.kv, id), false, "the marker went with the vector's write");
    assert.equal(fake.embeddingCalls.length, 1);
    assert.equal(fake.embeddingCalls[0].authorization, "Bearer test-key");
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("in local mode the stand-in embeds in process: no key, no network", async () => {
  const t = await createTestApp();
  try {
    assert.equal(t.services.embedder?.model, STANDIN_EMBEDDING_MODEL);
    const id = await ask(t, await member(t, "Ada"), { title: "Sourdough starter too runny?" });
    const vec = await vectorOf(t.kv, id);
    assert.equal(vec?.model, STANDIN_EMBEDDING_MODEL);
    assert.equal(await pending(t.kv, id), false);
  } finally {
    await t.close();
  }
});

Deno.test("the stand-in's endpoint answers OpenAI's shape in local mode, 400 for junk, 404 with a key", async () => {
  const t = await createTestApp();
  const withKey = await createTestApp({ env: { LLM_API_KEY: "k" } });
  try {
    const post = (app: typeof t, body: unknown) =>
      app.request("/api/local-llm/v1/embeddings", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const ok = await json<{ data: { embedding: number[] }[]; model: string }>(
      post(t, { input: ["a b", "c"], dimensions: 8, model: "x" }),
    );
    assert.equal(ok.status, 200);
    assert.equal(ok.body.data.length, 2);
    assert.equal(ok.body.data[0].embedding.length, 8);
    const bad = await json<{ error: { message: string } }>(post(t, { input: [3] }));
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /Invalid embeddings request/);
    const res = await post(withKey, { input: "a" });
    assert.equal(res.status, 404);
    await res.body?.cancel();
  } finally {
    await t.close();
    await withKey.close();
  }
});

Deno.test("the model down at write: still 201, the marker stays; the job fills it once the model is back", async () => {
  const { fake, state } = switchableFake();
  const t = await createTestApp({ env: fake.env });
  try {
    state.reply = { status: 503 };
    const ada = await member(t, "Ada");
    const res = await postAs(t, ada, "/api/questions", { title: "Why does my KV list skip keys?" });
    assert.equal(res.status, 201);
    const { id } = await res.json();
    assert.equal(await vectorOf(t.kv, id), null);
    assert.equal(await pending(t.kv, id), true, "the marker waits for the job");

    state.reply = { standIn: true };
    const taken = await jobRunner(t.kv).pass();
    assert.ok(taken.includes(`${EMBEDDING_JOB}/main`), taken.join(", "));
    await waitForJobs(10_000, EMBEDDING_JOB);
    assert.equal((await vectorOf(t.kv, id))?.model, "text-embedding-3-small");
    assert.equal(await pending(t.kv, id), false);
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("a model that never answers costs the write at most its bound, and the write stands", async () => {
  const { fake, state } = switchableFake();
  const t = await createTestApp({ env: fake.env });
  try {
    state.reply = { hang: true };
    const res = await postAs(t, await member(t, "Ada"), "/api/questions", {
      title: "Does KV watch fire on every commit?",
    });
    assert.equal(res.status, 201);
    const { id } = await res.json();
    assert.equal(await pending(t.kv, id), true);
    assert.ok((await t.kv.get(keys.question(id))).value);
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("an edit re-embeds the new text; an edit that changes nothing calls no model", async () => {
  const { fake } = switchableFake();
  const t = await createTestApp({ env: fake.env });
  try {
    const ada = await member(t, "Ada");
    const id = await ask(t, ada, { title: "Counting likes without conflicts" });
    const before = await vectorOf(t.kv, id);
    const patch = (body: unknown) =>
      t.request(`/api/questions/${id}`, {
        method: "PATCH",
        headers: jsonWrite(t, ada.cookie),
        body: JSON.stringify(body),
      });
    assert.equal((await patch({ title: "Sourdough starter feeding schedule" })).status, 200);
    const after = await vectorOf(t.kv, id);
    assert.ok(before && after);
    assert.notEqual(after.text, before.text);
    assert.deepEqual(
      decodeVector(after.v),
      standInEmbedding("Sourdough starter feeding schedule", 256),
    );
    assert.equal(await pending(t.kv, id), false);
    const calls = fake.embeddingCalls.length;
    assert.equal((await patch({ title: "Sourdough starter feeding schedule" })).status, 200);
    assert.equal(fake.embeddingCalls.length, calls);
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("a delete removes the vector and the marker; a hide too, and a restore asks for it again", async () => {
  const t = await createTestApp({ env: { NEW_ACCOUNT_HOURS: "0" } });
  try {
    const [ada, mod] = await Promise.all([member(t, "Ada"), member(t, "Mo")]);
    t.services.config.moderators = [mod.id];
    const gone = await ask(t, ada, { title: "A question about to be deleted" });
    const hidden = await ask(t, ada, { title: "A question about to be hidden" });
    assert.ok(await vectorOf(t.kv, gone));
    const del = await t.request(`/api/questions/${gone}`, {
      method: "DELETE",
      headers: jsonWrite(t, ada.cookie),
    });
    assert.equal(del.status, 200);
    await del.body?.cancel();
    assert.equal(await vectorOf(t.kv, gone), null);
    assert.equal(await pending(t.kv, gone), false);

    const act = (action: string) =>
      postAs(t, mod, "/api/mod/actions", { targetType: "question", targetId: hidden, action });
    assert.equal((await act("hide")).status, 200);
    assert.equal(await vectorOf(t.kv, hidden), null);
    assert.equal(await pending(t.kv, hidden), false);
    assert.equal((await act("restore")).status, 200);
    assert.equal(await pending(t.kv, hidden), true, "back in search: the job embeds it");
    const report = await runEmbeddingPass(t.kv, t.services.embedder!);
    assert.equal(report.embedded, 1);
    assert.ok(await vectorOf(t.kv, hidden));
  } finally {
    await t.close();
  }
});

Deno.test("backfill: questions older than embeddings get markers by a resumable cursor pass, then vectors", async () => {
  const { fake, state } = switchableFake();
  let now = 1_800_000_000_000;
  const t = await createTestApp({ env: fake.env, now: () => now });
  try {
    const ada = await member(t, "Ada");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await ask(t, ada, { title: `Older question ${i}` }));
    // As before this feature: no vector, no marker, no job state.
    for (const id of ids) {
      await t.kv.delete(keys.questionVector(id));
      await t.kv.delete(keys.embeddingPending(id));
    }
    const embedder = t.services.embedder!;
    const clock = { now: () => now };

    // The model fails after the first page was marked: the cursor is kept with a backoff.
    state.reply = { status: 503 };
    const first = await runEmbeddingPass(t.kv, embedder, { ...clock, pageSize: 2 });
    assert.equal(first.marked, 2);
    assert.match(first.modelError ?? "", /HTTP 503/);
    const saved = (await t.kv.get<EmbeddingJobState>(keys.embeddingJob())).value!;
    assert.ok(saved.backfill.cursor, "the backfill's place is stored");
    assert.equal(saved.backfill.done, false);
    assert.equal(saved.failures, 1);
    assert.ok(saved.retryAt > now);

    // Backing off: no model call until the wait is over.
    state.reply = { standIn: true };
    const calls = fake.embeddingCalls.length;
    const waiting = await runEmbeddingPass(t.kv, embedder, { ...clock, pageSize: 2 });
    assert.equal(waiting.backingOff, true);
    assert.equal(fake.embeddingCalls.length, calls);

    now = saved.retryAt + 1;
    const second = await runEmbeddingPass(t.kv, embedder, { ...clock, pageSize: 2 });
    assert.equal(second.marked, 3, "resumed after the first page: only the other three");
    assert.equal(second.embedded, 5);
    assert.equal(second.backfillDone, true);
    for (const id of ids) {
      assert.ok(await vectorOf(t.kv, id), id);
      assert.equal(await pending(t.kv, id), false);
    }
    const after = (await t.kv.get<EmbeddingJobState>(keys.embeddingJob())).value!;
    assert.equal(after.failures, 0);
    assert.equal(after.backfill.done, true);

    // Done: a later pass looks at nothing and calls no model.
    const idle = fake.embeddingCalls.length;
    const third = await runEmbeddingPass(t.kv, embedder, clock);
    assert.equal(third.marked + third.embedded, 0);
    assert.equal(fake.embeddingCalls.length, idle);
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("the job batches pending questions: one model call for many, deleted ones settled without a call", async () => {
  const { fake, state } = switchableFake();
  const t = await createTestApp({ env: fake.env });
  try {
    const ada = await member(t, "Ada");
    state.reply = { status: 503 }; // every write leaves its marker
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await ask(t, ada, { title: `Pending question ${i}` }));
    const del = await t.request(`/api/questions/${ids[0]}`, {
      method: "DELETE",
      headers: jsonWrite(t, ada.cookie),
    });
    await del.body?.cancel();
    state.reply = { standIn: true };
    const before = fake.embeddingCalls.length;
    const report = await runEmbeddingPass(t.kv, t.services.embedder!, { batchSize: 32 });
    assert.equal(report.embedded, 5);
    assert.equal(fake.embeddingCalls.length - before, 1, "one call for the batch");
    assert.equal(fake.embeddingCalls.at(-1)!.input.length, 5);
    assert.equal(await vectorOf(t.kv, ids[0]), null);
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("a text the model refuses is retried a few times, then dropped; the others are embedded", async () => {
  const fake = startFakeLlm(undefined, {
    embeddings: (call) =>
      call.input.some((text) => text.includes("poison")) ? { status: 400 } : { standIn: true },
  });
  const t = await createTestApp({ env: fake.env });
  try {
    const ada = await member(t, "Ada");
    const bad = await ask(t, ada, { title: "A poison text the model refuses" });
    assert.equal(await pending(t.kv, bad), true);
    // A good question left pending beside it (as if the write's embedding had failed).
    const good = await ask(t, ada, { title: "A plain question" });
    await t.kv.delete(keys.questionVector(good));
    await t.kv.set(keys.embeddingPending(good), { failures: 0 });
    const one = await runEmbeddingPass(t.kv, t.services.embedder!);
    assert.equal(one.embedded, 1);
    assert.equal(one.modelError, undefined, "a refused text is not the model's outage");
    assert.ok(await vectorOf(t.kv, good));
    assert.equal(await pending(t.kv, bad), true);
    await runEmbeddingPass(t.kv, t.services.embedder!);
    const last = await runEmbeddingPass(t.kv, t.services.embedder!);
    assert.equal(last.gaveUp, 1);
    assert.equal(await pending(t.kv, bad), false);
    assert.equal(await vectorOf(t.kv, bad), null);
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("an endpoint that refuses every text is an outage: markers are kept, the job backs off", async () => {
  const { fake, state } = switchableFake();
  const t = await createTestApp({ env: fake.env });
  try {
    state.reply = { status: 400 };
    const id = await ask(t, await member(t, "Ada"), { title: "Any question at all" });
    for (let i = 0; i < 4; i++) {
      await t.kv.delete(keys.embeddingJob()); // no backoff between the tries
      const report = await runEmbeddingPass(t.kv, t.services.embedder!);
      assert.match(report.modelError ?? "", /HTTP 400/);
    }
    assert.equal(await pending(t.kv, id), true);
    const marker = await t.kv.get<{ failures: number }>(keys.embeddingPending(id));
    assert.equal(marker.value?.failures, 0);
  } finally {
    await t.close();
    await fake.close();
  }
});
