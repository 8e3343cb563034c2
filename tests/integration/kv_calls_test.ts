/** Issue 13 item 4: a question page with 30 answers needs a bounded number of KV calls. */
import assert from "node:assert/strict";
import { createTestApp } from "../helpers/app.ts";
import { countingKv, questionWithAnswers } from "../helpers/kv_calls.ts";

Deno.test("a question page with 30 answers (no replies) costs at most 65 KV calls signed in; the feed API 6", async () => {
  const t = await createTestApp();
  try {
    const { id, viewer } = await questionWithAnswers(t, 30, {
      title: "Thirty answers: how many KV calls?",
    });
    const log: string[] = [];
    t.services.kv = countingKv(t.kv, log);
    const page = await t.request(`/questions/${id}`, { headers: { cookie: viewer.cookie } });
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Answer <strong>29<\/strong>/);
    assert.ok(log.length <= 65, `${log.length} calls: ${log.join(", ")}`);
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
