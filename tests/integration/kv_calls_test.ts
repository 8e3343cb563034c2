/** A question page with 30 answers needs a bounded number of KV calls. */
import assert from "node:assert/strict";
import { createTestApp } from "../helpers/app.ts";
import { countingKv, questionWithAnswers } from "../helpers/kv_calls.ts";
import { member, postAs } from "../helpers/community.ts";
import { appJobs } from "../../lib/jobs/app_jobs.ts";
import { invalidateReads } from "../../lib/community/read_cache.ts";

Deno.test("a question page with 30 answers costs at most 18 KV calls signed in (6 from the thread cache), 12 signed out, and lists no voters; the feed API 6", async () => {
  const t = await createTestApp();
  try {
    const { id, viewer } = await questionWithAnswers(t, 30, {
      title: "Thirty answers: how many KV calls?",
    });
    const log: string[] = [];
    t.services.kv = countingKv(t.kv, log);
    const load = async (cookie: string, path = `/questions/${id}`) => {
      log.length = 0;
      const page = await t.request(path, { headers: cookie ? { cookie } : {} });
      assert.equal(page.status, 200);
      assert.match(await page.text(), /Answer <strong>29<\/strong>/);
      assert.ok(!log.some((l) => l === "list(votes)"), `voter lists read: ${log.join(", ")}`);
      return log.length;
    };
    // Session 2 + moderator check 1 + thread 11 (2 round trips) + viewer state 3 + the
    // summary and map 1 (lib/insights/read.ts: one getMany; none drawn yet here).
    invalidateReads(t.services.kv);
    const miss = await load(viewer.cookie);
    assert.ok(miss <= 17, `${miss} calls: ${log.join(", ")}`);
    // Within the second, the thread comes from the shared read cache: only the viewer's own.
    const hit = await load(viewer.cookie);
    assert.ok(hit <= 5, `${hit} calls: ${log.join(", ")}`);
    invalidateReads(t.services.kv);
    const out = await load("", `/questions/${id}?signed-out=1`);
    assert.ok(out <= 12, `${out} calls: ${log.join(", ")}`);
    log.length = 0;
    const api = await t.request("/api/questions");
    assert.equal(api.status, 200);
    await api.body?.cancel();
    // Head + total, the feed-gap list, the page range, the moderation markers of the page's
    // rows (one getMany per 10), the vote counts: 6 for a 20-question page.
    assert.ok(log.length <= 6, `${log.length} calls: ${log.join(", ")}`);
    t.services.kv = t.kv;
  } finally {
    await t.close();
  }
});

Deno.test("posting an answer or a question answers with what it wrote: nothing read back after the commit", async () => {
  const t = await createTestApp();
  try {
    const { id } = await questionWithAnswers(t, 1, {
      title: "How many calls does an answer take?",
    });
    const author = await member(t, "Author");
    const log: string[] = [];
    t.services.kv = countingKv(t.kv, log);
    // The counted store's own job kinds: the answer's fan-out runs on it after the post.
    const jobs = appJobs(t.services);
    const res = await postAs(t, author, `/api/questions/${id}/messages`, {
      content: "A second answer.",
    });
    assert.equal(res.status, 201);
    const created = await res.json();
    assert.deepEqual([created.upvotes, created.likedBy, created.dislikedBy], [0, [], []]);
    const commit = log.indexOf("atomic");
    assert.ok(commit >= 0, log.join(", "));
    const after = log.slice(commit + 1);
    assert.ok(!after.includes("get(messages)"), `read back: ${after.join(", ")}`);
    assert.ok(!after.includes("list(votes)"), `voters read: ${after.join(", ")}`);
    // The same for a new question.
    log.length = 0;
    const asked = await postAs(t, author, "/api/questions", { title: "And a question's calls?" });
    assert.equal(asked.status, 201);
    const question = await asked.json();
    assert.deepEqual([question.upvotes, question.messageCount, question.likedBy], [0, 0, []]);
    const afterAsk = log.slice(log.indexOf("atomic") + 1);
    assert.ok(!afterAsk.includes("list(votes)"), `voters read: ${afterAsk.join(", ")}`);
    await jobs.waitIdle(10_000);
    t.services.kv = t.kv;
  } finally {
    await t.close();
  }
});
