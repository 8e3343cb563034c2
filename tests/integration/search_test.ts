/**
 * Ranked search through `GET /api/questions?q=`: typos, prefixes, stems, phrases, filters,
 * ranking, answers' text, and the index following edits, deletes, moderation and the
 * backfill of questions stored before it — all through the HTTP surface on real KV.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp, waitForJobs } from "../helpers/app.ts";
import {
  answer,
  ask,
  getAs,
  json,
  type Member,
  member,
  postAs,
  sendAs,
} from "../helpers/community.ts";
import { commit } from "@/lib/kv/atomic.ts";
import { keys } from "@/lib/kv/keys.ts";
import { jobRunner, PERIODIC_ID } from "@/lib/jobs/runner.ts";
import { SEARCH_JOB } from "@/lib/search/job.ts";
import { ANSWERS_READ, docKey } from "@/lib/search/index.ts";

type Page = { questions: { id: string; title: string }[]; total: number | null; hasMore: boolean };

async function search(t: TestApp, q: string, extra = ""): Promise<string[]> {
  const r = await json<Page>(getAs(t, null, `/api/questions?q=${encodeURIComponent(q)}${extra}`));
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.questions.map((x) => x.id);
}

/** Keys under the index's prefixes that mention a question id. */
async function indexKeysOf(kv: Deno.Kv, id: string): Promise<number> {
  let n = 0;
  for (const p of ["sp", "sa"]) {
    for await (const e of kv.list({ prefix: [p] })) if ((e.key[2] as string).slice(1) === id) n++;
  }
  for (const p of ["sq", "sr"]) if ((await kv.get([p, id])).value !== null) n++;
  return n;
}

async function app() {
  const t = await createTestApp({
    env: { LIMIT_QUESTIONS_PER_HOUR: "0", LIMIT_MESSAGES_PER_HOUR: "0" },
  });
  // Every search reads the index (the feed's one-second cache would answer repeats).
  t.services.feedCacheMs = 0;
  return t;
}

Deno.test("search forgives typos, completes the last word, stems, and honours phrases, tag: and is:unanswered", async () => {
  const t = await app();
  try {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const counters = await ask(t, ada, {
      title: "How do atomic counters work in Deno KV?",
      description: "I want to count page views atomically without losing increments.",
      tags: ["deno", "kv"],
    });
    const sync = await ask(t, ada, {
      title: "Synchronization between background workers",
      description: "Leases and fencing tokens keep two workers from running one job.",
      tags: ["jobs"],
    });
    const hydration = await ask(t, ada, {
      title: "Hydration mismatch in Preact islands",
      description: "The island renders twice after the counter updates.",
      tags: ["preact"],
    });
    await answer(t, bob, hydration, "Render the same markup on server and client.");

    assert.deepEqual((await search(t, "counter"))[0], counters, "exact (stem of counters)");
    assert.deepEqual((await search(t, "countr"))[0], counters, "prefix of the last word");
    assert.deepEqual((await search(t, "cuonter"))[0], counters, "one swapped letter");
    assert.deepEqual((await search(t, "atomicaly"))[0], counters, "one missing letter");
    assert.deepEqual(await search(t, "syncronizaton"), [sync], "two typos in a long word");
    assert.deepEqual(await search(t, "fencing tokens"), [sync], "description words");
    assert.deepEqual(await search(t, '"page views"'), [counters], "a phrase");
    assert.deepEqual(await search(t, '"views page"'), [], "a phrase's words out of order");
    assert.deepEqual(await search(t, "counter tag:preact"), [hydration], "tag: filter");
    assert.deepEqual(await search(t, "counter", "&tag=kv"), [counters], "tag parameter");
    assert.deepEqual(
      await search(t, "counter is:unanswered"),
      [counters],
      "is:unanswered leaves out the answered question",
    );
    assert.deepEqual(await search(t, "the of and"), [], "stop words alone find nothing");
    assert.deepEqual(await search(t, "zebra"), []);
    // Ranking: the question whose title says it comes before the one that mentions it.
    assert.deepEqual(await search(t, "counter"), [counters, hydration]);
    // Answers' text is searchable, below questions that say it themselves.
    assert.deepEqual(await search(t, "markup"), [hydration]);
    // With sort=new the matches come newest first.
    assert.deepEqual(await search(t, "counter", "&sort=new"), [hydration, counters]);
    // The home page marks the matches.
    const home = await (await getAs(t, null, "/?q=cuonter")).text();
    assert.match(home, /<mark>counters<\/mark>/);
  } finally {
    await t.close();
  }
});

Deno.test("the index follows edits, deletes, moderation and answers at once", async () => {
  const t = await app();
  try {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const mod = await member(t, "Mo");
    t.services.config.moderators = [mod.id];
    const q = await ask(t, ada, { title: "Quokka photography tips", tags: ["photo"] });
    assert.deepEqual(await search(t, "quokka"), [q]);

    // Edit: the old word leaves, the new one is found, in the edit's own op.
    const edit = await sendAs(t, ada, "PATCH", `/api/questions/${q}`, {
      title: "Wombat photography tips",
    });
    assert.equal(edit.status, 200);
    assert.deepEqual(await search(t, "quokka"), []);
    assert.deepEqual(await search(t, "wombat"), [q]);

    // An answer's words find the question; hiding the answer takes them out.
    const m = await answer(t, bob, q, "Use a telephoto lens at dawn.");
    assert.deepEqual(await search(t, "telephoto"), [q]);
    const act = (targetType: string, targetId: string, action: string) =>
      postAs(t, mod, "/api/mod/actions", { targetType, targetId, action });
    assert.equal((await act("message", m, "hide")).status, 200);
    assert.deepEqual(await search(t, "telephoto"), []);
    assert.equal((await act("message", m, "restore")).status, 200);
    assert.deepEqual(await search(t, "telephoto"), [q]);
    // Editing the answer replaces its words.
    assert.equal(
      (await sendAs(t, bob, "PATCH", `/api/messages/${m}`, { content: "A tripod helps." }))
        .status,
      200,
    );
    assert.deepEqual(await search(t, "telephoto"), []);
    assert.deepEqual(await search(t, "tripod"), [q]);

    // Hiding the question takes it out of search; restoring brings it back.
    assert.equal((await act("question", q, "hide")).status, 200);
    assert.deepEqual(await search(t, "wombat"), []);
    assert.equal(await indexKeysOf(t.kv, q), 0, "no postings left for a hidden question");
    assert.equal((await act("question", q, "restore")).status, 200);
    assert.deepEqual(await search(t, "wombat"), [q]);

    // Delete: gone from search and from the index in the delete's op.
    assert.equal((await sendAs(t, ada, "DELETE", `/api/questions/${q}`)).status, 200);
    assert.deepEqual(await search(t, "wombat"), []);
    assert.deepEqual(await search(t, "tripod"), []);
    assert.equal(await indexKeysOf(t.kv, q), 0);
    // Statistics went back to zero with the last document.
    const stats = await t.kv.getMany([["ss", "qdocs"], ["ss", "adocs"]]);
    assert.deepEqual(stats.map((e) => (e.value as Deno.KvU64).value), [0n, 0n]);
  } finally {
    await t.close();
  }
});

Deno.test("the search job indexes questions stored before the index, and what a crash left marked", async () => {
  const t = await app();
  try {
    const ada = await member(t, "Ada");
    const q1 = await ask(t, ada, { title: "Narwhal tusks explained" });
    const q2 = await ask(t, ada, { title: "Axolotl regeneration" });
    // Make q1 look like a question from before the index (no documents, no postings) with
    // a posting of the old index, and q2 like a crash between an answer and its reindex.
    const old: Deno.KvKey[] = [];
    for await (const e of t.kv.list({ prefix: ["sp"] })) {
      if ((e.key[2] as string).slice(1) === q1) old.push(e.key);
    }
    await commit(t.kv, (op) => {
      old.forEach((k) => op.delete(k));
      op.delete(["sq", q1]).set(["question_terms", "narwhal", 1, q1], q1);
      op.set(keys.searchDirty(q2), Date.now()).set(["messages", "m-x"], null);
    });
    assert.deepEqual(await search(t, "narwhal"), []);
    await t.kv.set(keys.searchBackfill(), { cursor: null, done: false });
    // The periodic job is due now (its next run may have been scheduled seconds ahead).
    const job = await t.kv.get<Record<string, unknown>>(keys.job(SEARCH_JOB, PERIODIC_ID));
    if (job.value) await t.kv.set(job.key, { ...job.value, due: 0 });
    assert((await jobRunner(t.kv).pass()).includes(`${SEARCH_JOB}/${PERIODIC_ID}`));
    await waitForJobs(10_000, SEARCH_JOB);
    assert.deepEqual(await search(t, "narwhal"), [q1]);
    assert.equal((await t.kv.get(keys.searchDirty(q2))).value, null, "the mark was drained");
    assert.deepEqual(await search(t, "axolotl"), [q2]);
    const legacy = await Array.fromAsync(t.kv.list({ prefix: ["question_terms"] }));
    assert.equal(legacy.length, 0, "the previous index's postings are gone");
    assert.deepEqual((await t.kv.get(keys.searchBackfill())).value, { cursor: null, done: true });
  } finally {
    await t.close();
  }
});

Deno.test("a thread's search document takes its first 40 messages: a later answer, edit, hide or delete does not rewrite it", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const qid = await ask(t, ada, { title: "Which birds winter here?" });
    for (let i = 0; i < ANSWERS_READ - 1; i++) {
      await answer(t, await member(t, `Birder ${i}`), qid, `Sparrows, as every year (${i}).`);
    }
    const doc = () => t.kv.get(docKey("answers", qid));
    const unmarked = async () =>
      assert.equal((await t.kv.get(keys.searchDirty(qid))).value, null, "nothing left to do");
    // The 40th is read into the document: it is searchable.
    const before = await doc();
    const late = await member(t, "Late birder");
    const fortieth = await answer(t, late, qid, "A lone waxwing came by.");
    const withFortieth = await doc();
    assert.notEqual(withFortieth.versionstamp, before.versionstamp);
    assert.deepEqual(await search(t, "waxwing"), [qid]);
    // The 41st is not, so the thread is neither reindexed nor marked for the job.
    const later = await member(t, "Later birder");
    const fortyFirst = await answer(t, later, qid, "And a hoopoe, once.");
    const fortySecond = await answer(t, later, qid, "A kestrel hovered.");
    assert.equal((await doc()).versionstamp, withFortieth.versionstamp, "the document stands");
    await unmarked();
    assert.deepEqual(await search(t, "hoopoe"), []);
    // Nor does editing, hiding, restoring or deleting a message past the 40th.
    const edit = (who: Member, id: string, content: string) =>
      sendAs(t, who, "PATCH", `/api/messages/${id}`, { content });
    const mod = await member(t, "Mo");
    t.services.config.moderators = [mod.id];
    const act = (targetId: string, action: string) =>
      postAs(t, mod, "/api/mod/actions", { targetType: "message", targetId, action });
    assert.equal((await edit(later, fortyFirst, "And a hoopoe, twice.")).status, 200);
    assert.equal((await act(fortyFirst, "hide")).status, 200);
    assert.equal((await act(fortyFirst, "restore")).status, 200);
    assert.equal((await sendAs(t, later, "DELETE", `/api/messages/${fortySecond}`)).status, 200);
    assert.equal((await doc()).versionstamp, withFortieth.versionstamp, "the document stands");
    await unmarked();
    // Editing the 40th rewrites it, and so do hiding and restoring it; deleting it brings
    // the 41st into the document.
    assert.equal((await edit(late, fortieth, "A waxwing and a nuthatch.")).status, 200);
    assert.notEqual((await doc()).versionstamp, withFortieth.versionstamp);
    assert.deepEqual(await search(t, "nuthatch"), [qid]);
    assert.equal((await act(fortieth, "hide")).status, 200);
    assert.deepEqual(await search(t, "nuthatch"), []);
    assert.equal((await act(fortieth, "restore")).status, 200);
    assert.deepEqual(await search(t, "nuthatch"), [qid]);
    assert.equal((await sendAs(t, late, "DELETE", `/api/messages/${fortieth}`)).status, 200);
    assert.deepEqual(await search(t, "nuthatch"), []);
    assert.deepEqual(await search(t, "hoopoe"), [qid]);
    assert.deepEqual(await search(t, "kestrel"), [], "deleted past the 40th, never indexed");
    await unmarked();
  } finally {
    await t.close();
  }
});
