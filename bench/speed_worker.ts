/**
 * One side of the speed bench (bench/speed.ts): run inside a source tree — this one
 * ("after") or the base commit's worktree ("before") — with that tree's own modules, so
 * both sides are measured on their own code and their own KV file in the same run.
 *
 * `deno run -A --config <root>/deno.json bench/speed_worker.ts <mode> <root> <kvPath>`
 *
 * - `serve`: seed the store if empty (BENCH_QUESTIONS questions, 20 home questions, one
 *   question with 30 Markdown answers, 200 voters, 50 agent keys; with the extra argument
 *   `long`, two questions of BENCH_LONG_ANSWERS answers with 2,000 votes spread over them,
 *   one of them stripped of its `sort=votes` order as an older store's would be), serve
 *   the app on a loopback port and print one JSON line with the URL, ids, cookies and keys;
 *   run until killed.
 * - `inproc`: open the same store and measure in-process: the signed-in question page
 *   (sequential `app.request`, p50/p99), bytes allocated per home render (V8's sampling
 *   heap profiler, objects collected by GC included), raw KV `sum` commits/s with 200
 *   concurrent writers, and whether the likes left exact counts.
 * - `profile`: V8's CPU profiler over sequential signed-in requests of the question page
 *   and the home page; prints the top functions by self time (share of all samples,
 *   idle — waiting on KV — included) as one JSON line.
 *
 * @module
 */
import { Session } from "node:inspector";
import { seedQuestions } from "./seed.ts";

const [mode, root, kvPath] = Deno.args;
const QUESTIONS = Number(Deno.env.get("BENCH_QUESTIONS") ?? 100_000);
const LONG_ANSWERS = Number(Deno.env.get("BENCH_LONG_ANSWERS") ?? 10_000);
const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 5);

// The tree's own modules (its deno.json maps "@/" and the npm packages).
const helpers = await import(`${root}/tests/helpers/app.ts`);
const { createQuestion, writeQuestion } = await import(`${root}/lib/community/questions/write.ts`);
const { keys } = await import(`${root}/lib/kv/keys.ts`);
// Trees before the ranked search index have no planner (their writer takes three arguments).
const { planQuestion } = await import(`${root}/lib/search/index.ts`).catch(() => ({
  planQuestion: undefined,
}));
const { counterValue } = await import(`${root}/lib/kv/atomic.ts`);
const { createAgentKey } = await import(`${root}/lib/agent/keys.ts`);

const t = await helpers.createTestApp({ kvPath });
t.services.agentRateLimit = 1_000_000_000; // measure the limiter's cost, not 429s
const kv: Deno.Kv = t.kv;

const ANSWER = (i: number) =>
  `Answer ${i}: **KV** keeps *every* read small.\n\n` +
  "- one `getMany` per kind of data\n- counts kept with `sum`\n- [a link](https://example.com)\n\n" +
  "```ts\nconst r = await kv.getMany([a, b, c]);\nconsole.log(r.length);\n```\n\n" +
  "| measure | goal |\n| --- | --- |\n| home | 0.25× |\n\n" +
  `> A quote to close answer number ${i}, with a footnote-ish ~~strike~~ and more words.`;

interface Info {
  url: string;
  questionId: string;
  viewerCookie: string;
  voterCookies: string[];
  agentKeys: string[];
  /** With `long`: a question of LONG_ANSWERS answers, and the same without its answer order. */
  longQuestionId?: string;
  unbuiltQuestionId?: string;
}

/** A deterministic pseudo-random sequence (both runs seed the same votes). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/**
 * A question with `n` answers written through this tree's own message writer (60 per
 * op) and 2,000 votes through its `castVote` (200 voters, 10 each, 3 in 4 up), for the
 * `sort=votes` row.
 */
async function seedLongThread(title: string, n: number): Promise<string> {
  // This tree's writers (the only tree that seeds these threads): a top-level answer's rows
  // are what `writeFirstMessage` writes.
  const { buildMessage } = await import(`${root}/lib/community/messages/model.ts`);
  const { writeFirstMessage: writeMessage } = await import(
    `${root}/lib/community/messages/write.ts`
  );
  const { castVote } = await import(`${root}/lib/community/votes.ts`);
  const q = await createQuestion(kv, {
    title,
    description: "Ten thousand answers, ordered by votes.",
    tags: ["bench"],
    author: { id: "u-long-asker", name: "Asker", avatar: null },
    createdBy: "user",
  });
  const ids: string[] = [];
  const start = Date.now() - n - 60_000;
  // Up to 14 rows an answer (record, indexes, counters, its `sort=votes` row, the search
  // mark): 60 answers stay within KV's 1,000 mutations an op.
  for (let i = 0; i < n; i += 60) {
    const op = kv.atomic();
    for (let j = i; j < Math.min(n, i + 60); j++) {
      const m = buildMessage({
        questionId: q.id,
        author: { id: `u-long-author-${j % 10}`, name: `Author ${j % 10}`, avatar: null },
        content: ANSWER(j),
        createdBy: "user",
      }, { now: start + j });
      writeMessage(op, m);
      ids.push(m.id);
    }
    if (!(await op.commit()).ok) throw new Error("long thread batch failed");
  }
  const rand = lcg(29);
  const votes = Array.from({ length: 2000 }, (_, i) => ({
    userId: `u-long-voter-${i % 200}`,
    targetType: "message",
    targetId: ids[Math.floor(rand() * ids.length)],
    voteType: rand() < 0.75 ? "up" : "down",
  }));
  for (let i = 0; i < votes.length; i += 200) {
    await Promise.all(votes.slice(i, i + 200).map((v) => castVote(kv, v)));
  }
  return q.id;
}

/** Strip a question's `sort=votes` order (marker, rows, pointers), as an older store has it. */
async function stripAnswerOrder(questionId: string): Promise<void> {
  const doomed: Deno.KvKey[] = [keys.answersByScoreBuilt(questionId)];
  for await (const e of kv.list({ prefix: keys.answersByScorePrefix(questionId) })) {
    doomed.push(e.key, keys.answerScore(e.key[4] as string));
  }
  for (let i = 0; i < doomed.length; i += 500) {
    const op = kv.atomic();
    for (const k of doomed.slice(i, i + 500)) op.delete(k);
    await op.commit();
  }
}

async function seed(origin: string): Promise<Info> {
  const infoKey = ["bench_speed_info"];
  const stored = (await kv.get<Info>(infoKey)).value;
  if (stored) return { ...stored, url: origin };
  // 1. Many questions, in big atomic batches (with this tree's own writer).
  await seedQuestions(kv, QUESTIONS, "u-seeder", { writeQuestion, keys, planQuestion });
  // 2. Twenty recent questions for the home page, through the domain write.
  for (let i = 0; i < 20; i++) {
    await createQuestion(kv, {
      title: `Benchmark question number ${i} about Deno KV and Preact islands`,
      description: "Seeded for the home page benchmark, with **Markdown** in it.",
      tags: ["bench", "deno"],
      author: { id: "u-bench", name: "Bench", avatar: null },
      createdBy: "user",
    }, { now: Date.now() - (20 - i) * 1000 });
  }
  // 3. The question page: 30 answers by 30 members, through the HTTP API.
  const asker = await helpers.signInAs(t, "Asker");
  const write = (cookie: string) => ({
    cookie,
    origin: t.services.config.appOrigin,
    "content-type": "application/json",
  });
  const qRes = await t.request("/api/questions", {
    method: "POST",
    headers: write(asker.cookie),
    body: JSON.stringify({
      title: "How do I keep a question page with 30 answers fast?",
      description: "It re-renders *every* answer's Markdown on each request.",
      tags: ["bench"],
    }),
  });
  if (qRes.status !== 201) throw new Error(`ask: ${qRes.status} ${await qRes.text()}`);
  const questionId = ((await qRes.json()) as { id: string }).id;
  for (let i = 0; i < 30; i++) {
    const m = await helpers.signInAs(t, `Answerer ${i}`);
    const r = await t.request(`/api/questions/${questionId}/messages`, {
      method: "POST",
      headers: write(m.cookie),
      body: JSON.stringify({ content: ANSWER(i) }),
    });
    if (r.status !== 201) throw new Error(`answer: ${r.status} ${await r.text()}`);
    await r.body?.cancel();
  }
  // 4. A signed-in viewer, 200 voters, 50 agents with one key each.
  const viewer = await helpers.signInAs(t, "Viewer");
  const voterCookies: string[] = [];
  for (let i = 0; i < 200; i++) voterCookies.push((await helpers.signInAs(t, `Voter ${i}`)).cookie);
  const agentKeys: string[] = [];
  for (let i = 0; i < 50; i++) {
    const u = await helpers.signInAs(t, `Agent ${i}`);
    const k = await createAgentKey(kv, u.user.id, "bench");
    if (!k.ok) throw new Error("key limit");
    agentKeys.push(k.created.key);
  }
  const info: Info = {
    url: origin,
    questionId,
    viewerCookie: viewer.cookie,
    voterCookies,
    agentKeys,
  };
  // 5. The sort=votes questions (this tree only: the before tree has no answer order).
  if (Deno.args[3] === "long") {
    info.longQuestionId = await seedLongThread("Ten thousand answers by votes", LONG_ANSWERS);
    info.unbuiltQuestionId = await seedLongThread("The same, order not built", LONG_ANSWERS);
    await stripAnswerOrder(info.unbuiltQuestionId);
  }
  await kv.set(infoKey, { ...info, url: "" });
  return info;
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** Sequential in-process requests for `seconds`: req/s and p50/p99 (ms). */
async function inprocRate(path: string, cookie: string | null, seconds: number) {
  const headers: Record<string, string> = cookie ? { cookie } : {};
  for (let i = 0; i < 20; i++) await (await t.request(path, { headers })).text();
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  const start = performance.now();
  while (performance.now() < end) {
    const s = performance.now();
    const res = await t.request(path, { headers });
    await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    times.push(performance.now() - s);
  }
  const wall = (performance.now() - start) / 1000;
  times.sort((a, b) => a - b);
  return { rps: times.length / wall, p50: pct(times, 0.5), p99: pct(times, 0.99) };
}

/** Bytes allocated per request of `path`, from V8's sampling heap profiler. */
async function bytesPerRender(path: string, cookie: string, n: number): Promise<number> {
  const headers = { cookie };
  for (let i = 0; i < 50; i++) await (await t.request(path, { headers })).text();
  const s = new Session();
  s.connect();
  type Reply = { profile: { samples: { size: number }[] } };
  const post = (m: string, p: object = {}) =>
    new Promise<Reply>((ok, fail) => s.post(m, p, (e, r) => e ? fail(e) : ok(r as Reply)));
  await post("HeapProfiler.enable");
  await post("HeapProfiler.startSampling", {
    samplingInterval: 512,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  for (let i = 0; i < n; i++) await (await t.request(path, { headers })).text();
  const { profile } = await post("HeapProfiler.stopSampling");
  s.disconnect();
  let total = 0;
  for (const sample of profile.samples) total += sample.size;
  return total / n;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** Top functions by self time over `seconds` of sequential requests of `path`. */
async function cpuProfile(path: string, cookie: string, seconds: number, top: number) {
  const headers = { cookie };
  for (let i = 0; i < 100; i++) await (await t.request(path, { headers })).text();
  const s = new Session();
  s.connect();
  const post = <T>(m: string, p: object = {}) =>
    new Promise<T>((ok, fail) => s.post(m, p, (e, r) => e ? fail(e) : ok(r as T)));
  await post("Profiler.enable");
  await post("Profiler.setSamplingInterval", { interval: 100 });
  await post("Profiler.start");
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) await (await t.request(path, { headers })).text();
  const { profile } = await post<{ profile: { nodes: ProfileNode[]; samples: number[] } }>(
    "Profiler.stop",
  );
  s.disconnect();
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  for (const id of profile.samples) {
    const f = nodes.get(id)!.callFrame;
    const file = f.url.split("/").slice(-2).join("/");
    const name = `${f.functionName || "(anonymous)"}${file ? ` ${file}:${f.lineNumber + 1}` : ""}`;
    self.set(name, (self.get(name) ?? 0) + 1);
  }
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, n]) => ({
    name,
    share: n / profile.samples.length,
  }));
}

async function sumRate(writers: number, seconds: number): Promise<number> {
  const key = ["bench_speed_sum"];
  const end = performance.now() + seconds * 1000;
  const start = performance.now();
  let done = 0;
  await Promise.all(Array.from({ length: writers }, async () => {
    while (performance.now() < end) {
      await kv.atomic().sum(key, 1n).commit();
      done++;
    }
  }));
  return done / ((performance.now() - start) / 1000);
}

if (mode === "serve") {
  const srv = helpers.serveOnLoopback(t.app.fetch);
  const info = await seed(srv.url);
  console.log(JSON.stringify(info));
  // Until the parent kills us.
  await new Promise(() => {});
} else if (mode === "inproc") {
  const info = await seed("");
  const what = Deno.args[3] ?? "all";
  const out: Record<string, unknown> = {};
  if (what === "all" || what === "page") {
    out.questionSignedIn = await inprocRate(
      `/questions/${info.questionId}`,
      info.viewerCookie,
      SECONDS,
    );
    out.homeSignedIn = await inprocRate("/", info.viewerCookie, SECONDS);
    out.homeBytes = await bytesPerRender("/", info.viewerCookie, 200);
    out.questionBytes = await bytesPerRender(
      `/questions/${info.questionId}`,
      info.viewerCookie,
      50,
    );
  }
  if (what === "profile") {
    out.questionProfile = await cpuProfile(
      `/questions/${info.questionId}`,
      info.viewerCookie,
      3,
      8,
    );
    out.homeProfile = await cpuProfile("/", info.viewerCookie, 3, 8);
  }
  if (what === "all" || what === "sum") out.sumRate = await sumRate(200, SECONDS);
  if (what === "all" || what === "counts") {
    const likedBy =
      (await Array.fromAsync(kv.list({ prefix: keys.votesPrefix("question", info.questionId) })))
        .length;
    const up = counterValue(
      (await kv.get(keys.voteCount("question", info.questionId, "up"))).value,
    );
    out.counts = { likedBy, up };
  }
  console.log(JSON.stringify(out));
  await t.close();
  Deno.exit(0);
}
