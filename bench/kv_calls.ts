/**
 * KV calls per page: wrap the app's store in a counter and load a question page with 30
 * answers (signed in with the one-second thread cache cold and warm, signed out cold), the
 * home page and /api/questions (signed in, so no page cache), listing each call. `deno run -A bench/kv_calls.ts`
 *
 * @module
 */
import { createTestApp, signInAs } from "../tests/helpers/app.ts";
import { countingKv, questionWithAnswers } from "../tests/helpers/kv_calls.ts";
import { agentKey } from "../tests/helpers/community.ts";
import { invalidateReads } from "../lib/community/read_cache.ts";

if (import.meta.main) {
  const t = await createTestApp();
  const { id, viewer } = await questionWithAnswers(t, 30, {
    title: "Thirty answers: how many KV calls?",
    tags: ["bench"],
  });
  const write = (cookie: string) => ({
    cookie,
    origin: t.services.config.appOrigin,
    "content-type": "application/json",
  });
  const key = await agentKey(t, { ...viewer.user, cookie: viewer.cookie });
  const voters = await Promise.all([0, 1, 2].map((i) => signInAs(t, `Voter${i}`)));
  const vote = JSON.stringify({ targetId: id, targetType: "question", voteType: "up" });
  const log: string[] = [];
  t.services.kv = countingKv(t.kv, log);
  for (
    const [name, path, cookie, body, auth, drop] of [
      [
        "question page, 30 answers, signed in (thread cache miss)",
        `/questions/${id}`,
        viewer.cookie,
        "",
        "",
        "drop",
      ],
      [
        "question page, 30 answers, signed in (thread cache hit)",
        `/questions/${id}`,
        viewer.cookie,
      ],
      [
        "question page, 30 answers, signed out (page and thread cache miss)",
        `/questions/${id}?miss=1`,
        "",
        "",
        "",
        "drop",
      ],
      ["home, signed in", "/", viewer.cookie],
      ["GET /api/questions", "/api/questions", ""],
      ["GET /api/questions (again)", "/api/questions", ""],
      ["GET /api/agent/questions", "/api/agent/questions", "", undefined, key],
      ["GET /api/agent/questions (again)", "/api/agent/questions", "", undefined, key],
      ...voters.map((v, i) => [`POST /api/likes (voter ${i})`, "/api/likes", v.cookie, vote]),
    ] as [string, string, string, string?, string?, string?][]
  ) {
    if (drop) invalidateReads(t.services.kv); // the one-second read caches (thread, feed) start cold
    log.length = 0;
    const headers: Record<string, string> = cookie ? { cookie } : {};
    if (auth) headers.authorization = `Bearer ${auth}`;
    if (body) Object.assign(headers, write(cookie));
    const res = await t.request(path, {
      headers,
      method: body ? "POST" : "GET",
      body: body || undefined,
    });
    await new Promise((r) => setTimeout(r, 50)); // deferred work
    await res.text();
    const counts = new Map<string, number>();
    for (const l of log) counts.set(l, (counts.get(l) ?? 0) + 1);
    console.log(`${name}: ${log.length} KV calls (status ${res.status})`);
    for (const [k, n] of counts) console.log(`  ${n}× ${k}`);
  }
  t.services.kv = t.kv;
  await t.close();
}
