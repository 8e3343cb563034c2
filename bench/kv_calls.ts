/**
 * KV calls per page: wrap the app's store in a counter and load a question page with 30
 * answers, the home page and /api/questions (signed in, so no page cache), listing each
 * call. `deno run -A bench/kv_calls.ts`
 *
 * @module
 */
import { createTestApp } from "../tests/helpers/app.ts";
import { countingKv, questionWithAnswers } from "../tests/helpers/kv_calls.ts";

if (import.meta.main) {
  const t = await createTestApp();
  const { id, viewer } = await questionWithAnswers(t, 30, {
    title: "Thirty answers: how many KV calls?",
    tags: ["bench"],
  });
  const log: string[] = [];
  t.services.kv = countingKv(t.kv, log);
  for (
    const [name, path, cookie] of [
      ["question page, 30 answers, signed in", `/questions/${id}`, viewer.cookie],
      ["question page, 30 answers, signed out (cache miss)", `/questions/${id}?miss=1`, ""],
      ["home, signed in", "/", viewer.cookie],
      ["GET /api/questions", "/api/questions", ""],
    ]
  ) {
    log.length = 0;
    const res = await t.request(path, { headers: cookie ? { cookie } : {} });
    await res.text();
    const counts = new Map<string, number>();
    for (const l of log) counts.set(l, (counts.get(l) ?? 0) + 1);
    console.log(`${name}: ${log.length} KV calls (status ${res.status})`);
    for (const [k, n] of counts) console.log(`  ${n}× ${k}`);
  }
  t.services.kv = t.kv;
  await t.close();
}
