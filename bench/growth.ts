/**
 * `BENCH_ONLY=growth`: the two rows of a thread or an audience that grew, in CI-sized
 * time, against a real `main.ts` in its own process (requests from this one, sequential,
 * each timed to its body's end; min / median / max over 3 runs):
 *
 * 1. `?sort=votes` on a question with 10,000 answers (2,000 votes over them from 200
 *    voters), beside the same question's default order (also votes), `newest`, `oldest`,
 *    page 2, the middle page and the last one (a page number is an offset: a deep page lists
 *    the rows between it and the nearer end of the order), the
 *    HTML page (signed out: its page cache answers most reads), and a bare Hono JSON route
 *    in the same run. Goal: p50 ≤ 10 ms.
 * 2. Answers to a question 10,000 people follow, beside answers nobody else hears of (each
 *    to a question of its own; every thread starts with the 40 answers a search reindex
 *    reads) in the same run: 300 of the latter before any fan-out runs
 *    (the baseline), and 30 more, each after 0.3 s without a request (what an idle server
 *    adds); 30 answers to the followed question one at a time, each request timed,
 *    then up to 10 answers nobody else hears of while its fan-out runs, then the time until
 *    every follower is notified through the job runner (goal: request p99 unchanged, all
 *    notified ≤ 30 s); then a burst of 30 answers to it back to back (300,000
 *    notifications queued at once), when the last follower of the last one has it.
 * The stores are seeded through the domain's own writers (answers: `buildMessage` +
 * `writeFirstMessage` batched; votes: `castVote`; followers: `followInOp` batched), then
 * served by `main.ts`; answers are posted through HTTP as signed-in members.
 * BENCH_GROWTH_ANSWERS (default 10000), BENCH_GROWTH_FOLLOWERS (default 10000),
 * BENCH_GROWTH_SAMPLES (default 200 reads per row and run), BENCH_GROWTH_POSTS (default 30
 * answers of each kind), BENCH_GROWTH_ROWS (`thread`, `audience`; default both),
 * BENCH_GROWTH_STRACE (`1`: also attach `strace` to the audience row's `main.ts` and print
 * which timed answers overlapped one of its store's WAL checkpoints, bench/wal_trace.ts).
 *
 * @module
 */
import { Hono } from "hono";
import { createTestApp, serveOnLoopback, signInAs } from "../tests/helpers/app.ts";
import { collectOutput, localMainEnv, spawnMain, waitHealthy } from "../tests/helpers/processes.ts";
import { createQuestion } from "../lib/community/questions/write.ts";
import { buildMessage } from "../lib/community/messages/model.ts";
import { writeFirstMessage } from "../lib/community/messages/write.ts";
import { castVote } from "../lib/community/votes.ts";
import { followInOp, unreadCount } from "../lib/notifications/notifications.ts";
import { keys } from "../lib/kv/keys.ts";
import { FANOUT_JOB } from "../lib/notifications/fanout.ts";
import { ANSWERS_READ } from "../lib/search/index.ts";
import { prng } from "./search_corpus.ts";
import { checkpoints, overlapping, type Span, traceSyncs } from "./wal_trace.ts";

const ANSWERS = Number(Deno.env.get("BENCH_GROWTH_ANSWERS") ?? 10_000);
const FOLLOWERS = Number(Deno.env.get("BENCH_GROWTH_FOLLOWERS") ?? 10_000);
const SAMPLES = Number(Deno.env.get("BENCH_GROWTH_SAMPLES") ?? 200);
const POSTS = Number(Deno.env.get("BENCH_GROWTH_POSTS") ?? 30);
const RUNS = 3;
/** Answers nobody follows timed before any fan-out runs. */
const QUIET = 10 * POSTS;
/** The pause before each answer of the "after idle" row (ms). */
const IDLE_MS = 300;
/** Most answers nobody follows timed while one fan-out runs. */
const DURING_EACH = 10;
/** Which rows run: `thread`, `audience` or both (the default). */
const ROWS = new Set((Deno.env.get("BENCH_GROWTH_ROWS") ?? "thread,audience").split(","));
/** Trace main.ts's syncs in the audience row (needs `strace`): bench/wal_trace.ts. */
const STRACE = Deno.env.get("BENCH_GROWTH_STRACE") === "1";

const UNLIMITED = {
  LIMIT_MESSAGES_PER_HOUR: "0",
  LIMIT_QUESTIONS_PER_HOUR: "0",
  LIMIT_VOTES_PER_HOUR: "0",
  LIMIT_NEW_ACCOUNT_MESSAGES_PER_DAY: "0",
  LIMIT_NEW_ACCOUNT_QUESTIONS_PER_DAY: "0",
};

interface Latency {
  p50: number;
  p99: number;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function latencyOf(ms: number[]): Latency {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: quantile(s, 0.5), p99: quantile(s, 0.99) };
}

/** `n` sequential GETs of `url`, each to its body's end (ms). */
async function timedGets(url: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    out.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  }
  return out;
}

/** min / median / max of three runs' p50 and p99. */
function spread(runs: Latency[]): string {
  const f = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `${s[0].toFixed(1)}/${s[Math.floor(s.length / 2)].toFixed(1)}/${s.at(-1)!.toFixed(1)}`;
  };
  return `p50 ${f(runs.map((r) => r.p50))}  p99 ${f(runs.map((r) => r.p99))} ms`;
}

/**
 * `n` answers to `questionId` by 50 seeded authors, a second apart and ending a minute ago,
 * written as a post writes them (`buildMessage` + `writeFirstMessage`), 80 to an op. Their
 * ids in order.
 */
async function seedAnswers(kv: Deno.Kv, questionId: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  const start = Date.now() - n * 1_000 - 60_000;
  // An answer writes ~11 rows: 80 an op stay within KV's 1,000 mutations.
  for (let i = 0; i < n; i += 80) {
    const op = kv.atomic();
    for (let j = i; j < Math.min(n, i + 80); j++) {
      const m = buildMessage({
        questionId,
        author: { id: `u-growth-author-${j % 50}`, name: `Author ${j % 50}`, avatar: null },
        content: `Answer ${j}: keep **every** read bounded by its page, not by its thread.`,
        createdBy: "user",
      }, { now: start + j * 1_000 });
      writeFirstMessage(op, m);
      ids.push(m.id);
    }
    if (!(await op.commit()).ok) throw new Error("answer batch failed");
  }
  return ids;
}

/** `main.ts` on `kvPath`, until `stop`. */
async function serveMain(
  kvPath: string,
): Promise<{ origin: string; pid: number; stop(): Promise<void> }> {
  const { origin, env } = localMainEnv(kvPath, { EXPERT_PANEL_PER_DAY: "0", ...UNLIMITED });
  const child = spawnMain(env);
  const output = collectOutput(child);
  try {
    await waitHealthy(origin, 60_000);
  } catch (err) {
    console.error(output());
    throw err;
  }
  return {
    origin,
    pid: child.pid,
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

/** Row 1: a question with {@link ANSWERS} answers, read in every order. */
async function longThread(dir: string): Promise<void> {
  const kvPath = `${dir}/long.kv`;
  const t = await createTestApp({ kvPath, env: UNLIMITED });
  let id: string;
  try {
    const asker = { id: "u-growth-asker", name: "Asker", avatar: null };
    const q = await createQuestion(t.kv, {
      title: "Ten thousand answers: which one is best?",
      description: "A thread that grew.",
      tags: ["bench"],
      author: asker,
      createdBy: "user",
    });
    id = q.id;
    const ids = await seedAnswers(t.kv, q.id, ANSWERS);
    const rand = prng(29);
    const votes = Array.from({ length: 2_000 }, (_, i) => ({
      userId: `u-growth-voter-${i % 200}`,
      targetType: "message" as const,
      targetId: ids[Math.floor(rand() * ids.length)],
      voteType: rand() < 0.75 ? "up" as const : "down" as const,
    }));
    for (let i = 0; i < votes.length; i += 200) {
      await Promise.all(votes.slice(i, i + 200).map((v) => castVote(t.kv, v)));
    }
  } finally {
    await t.close();
  }
  const bare = new Hono().get("/json", (c) => c.json({ ok: true, message: "hello" }));
  const bareSrv = serveOnLoopback(bare.fetch);
  const srv = await serveMain(kvPath);
  try {
    const api = `${srv.origin}/api/questions/${id}`;
    const rows: [string, string][] = [
      ["bare Hono JSON (baseline)", `${bareSrv.url}/json`],
      [`GET /api/questions/:id (default order: votes)`, api],
      [`GET /api/questions/:id?sort=votes  [goal p50 ≤ 10 ms]`, `${api}?sort=votes`],
      [`GET /api/questions/:id?sort=votes&page=2`, `${api}?sort=votes&page=2`],
      [
        `GET /api/questions/:id?sort=votes&page=${Math.ceil(ANSWERS / 60)} (the middle)`,
        `${api}?sort=votes&page=${Math.ceil(ANSWERS / 60)}`,
      ],
      [
        `GET /api/questions/:id?sort=votes&page=${Math.ceil(ANSWERS / 30)} (the last)`,
        `${api}?sort=votes&page=${Math.ceil(ANSWERS / 30)}`,
      ],
      [`GET /api/questions/:id?sort=newest`, `${api}?sort=newest`],
      [`GET /api/questions/:id?sort=oldest`, `${api}?sort=oldest`],
      [
        `GET /questions/:id?sort=votes (HTML, page cache)`,
        `${srv.origin}/questions/${id}?sort=votes`,
      ],
    ];
    for (const [, url] of rows) await timedGets(url, 20); // warm
    const results = new Map<string, Latency[]>();
    for (let r = 0; r < RUNS; r++) {
      for (const [name, url] of rows) {
        results.set(name, [...results.get(name) ?? [], latencyOf(await timedGets(url, SAMPLES))]);
      }
    }
    console.log(
      `\n### ?sort=votes on a question with ${ANSWERS.toLocaleString("en")} answers ` +
        `(2,000 votes; ${SAMPLES} sequential reads a run; min/median/max of ${RUNS} runs)`,
    );
    const base = results.get(rows[0][0])!;
    const baseP50 = base.map((l) => l.p50).sort((a, b) => a - b)[1];
    for (const [name] of rows) {
      const runs = results.get(name)!;
      const p50 = runs.map((l) => l.p50).sort((a, b) => a - b)[1];
      console.log(
        `${name.padEnd(56)} ${spread(runs)}  (${(p50 / baseP50).toFixed(1)}× baseline p50)`,
      );
    }
  } finally {
    await srv.stop();
    await bareSrv.close();
  }
}

/** Row 2: answers to a question with {@link FOLLOWERS} followers, beside one with none. */
async function bigAudience(dir: string): Promise<void> {
  const kvPath = `${dir}/audience.kv`;
  const t = await createTestApp({ kvPath, env: UNLIMITED });
  const followers = Array.from({ length: FOLLOWERS }, (_, i) => `u-follower-${i}`);
  let followed: string;
  // A person who answers follows the question, so every answer nobody follows goes to a
  // question of its own: on one shared question each would start a fan-out to the earlier
  // answerers.
  const alone: string[] = [];
  const answerers: string[] = [];
  try {
    const ask = async (title: string) =>
      (await createQuestion(t.kv, {
        title,
        author: { id: "u-growth-asker", name: "Asker", avatar: null },
        createdBy: "user",
      })).id;
    followed = await ask("A question ten thousand people follow");
    const answers = 3 + QUIET + POSTS * (1 + DURING_EACH) + POSTS + 2 * POSTS;
    for (let i = 0; i < answers; i++) alone.push(await ask(`A question nobody else follows, ${i}`));
    // Every thread starts as long as a search reindex reads, so an answer costs the same
    // there whether its thread is followed or not (seeded authors follow nothing).
    for (const id of [followed, ...alone]) await seedAnswers(t.kv, id, ANSWERS_READ);
    for (let i = 0; i < followers.length; i += 400) {
      const op = t.kv.atomic();
      for (const f of followers.slice(i, i + 400)) followInOp(op, followed, f, Date.now());
      if (!(await op.commit()).ok) throw new Error("follower batch failed");
    }
    for (let i = 0; i < answers; i++) {
      answerers.push((await signInAs(t, `Answerer ${i}`)).cookie);
    }
  } finally {
    await t.close();
  }
  const srv = await serveMain(kvPath);
  const kv = await Deno.openKv(kvPath);
  try {
    let who = 0;
    /** A timed write as the answerer with `cookie`: its time and body. */
    const send = async (method: string, path: string, cookie: string, body: unknown) => {
      const at = performance.now();
      const res = await fetch(`${srv.origin}${path}`, {
        method,
        headers: { cookie, origin: srv.origin, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const json = await res.json();
      const ms = performance.now() - at;
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      const start = performance.timeOrigin + at;
      return { ms, at, json, span: { start, end: start + ms } };
    };
    const post = async (questionId: string) => {
      const cookie = answerers[who++];
      const path = `/api/questions/${questionId}/messages`;
      const { ms, at, json, span } = await send("POST", path, cookie, {
        content: `An answer, number ${who}.`,
      });
      return { ms, id: json.id as string, at, cookie, span };
    };
    /** Whether the fan-out of answer `id` still runs. */
    const fanningOut = async (id: string): Promise<boolean> => {
      const [state, job] = await kv.getMany([keys.fanoutJob(id), keys.job(FANOUT_JOB, id)]);
      return state.value !== null || job.value !== null;
    };
    /** When the fan-out of answer `id` has ended (its job gone), ms after `at`. */
    const notifiedAfter = async (id: string, at: number): Promise<number> => {
      while (await fanningOut(id)) await new Promise((r) => setTimeout(r, 20));
      return performance.now() - at;
    };
    // The seeded threads wait for the `search` job to index them: time nothing before it has.
    const started = performance.now();
    while ((await kv.list({ prefix: keys.searchDirtyPrefix() }, { limit: 1 }).next()).value) {
      if (performance.now() - started > 300_000) {
        throw new Error("the seeded threads were not indexed");
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    // With BENCH_GROWTH_STRACE=1, which requests overlapped a WAL checkpoint (bench/wal_trace.ts).
    const trace = STRACE ? await traceSyncs(srv.pid) : null;
    if (STRACE && !trace) console.log("BENCH_GROWTH_STRACE=1: strace cannot run here, skipped");
    const spans = { quiet: [] as Span[], during: [] as Span[], followed: [] as Span[] };
    // Warm the route (on the unfollowed question: no fan-out).
    for (let i = 0; i < 3; i++) await post(alone.pop()!);

    // Answers nobody else hears of, before any fan-out runs.
    const quiet: number[] = [];
    const quietPosts: { id: string; cookie: string }[] = [];
    for (let i = 0; i < QUIET; i++) {
      const a = await post(alone.pop()!);
      quiet.push(a.ms);
      quietPosts.push(a);
      spans.quiet.push(a.span);
    }
    // Each of them edited by its author: the 41st message of its thread, past what the
    // thread's search document reads.
    const edits: number[] = [];
    for (const a of quietPosts) {
      const path = `/api/messages/${a.id}`;
      edits.push((await send("PATCH", path, a.cookie, { content: "An answer, edited." })).ms);
    }

    // Answers nobody follows, each the first request after 0.3 s without any: what a
    // server that sat idle adds to a request, whatever the request does.
    const afterIdle: number[] = [];
    for (let i = 0; i < POSTS; i++) {
      await new Promise((r) => setTimeout(r, IDLE_MS));
      afterIdle.push((await post(alone.pop()!)).ms);
    }

    // Answers to the followed question one at a time: each request, then (back to back,
    // at most DURING_EACH) answers nobody follows while its fan-out runs, then the time
    // until every follower has it. Each is the first request after the wait for the last
    // fan-out's end (the bench reads the store meanwhile, not the server): see the row
    // above for what that alone costs; the burst below answers back to back.
    const followedMs: number[] = [];
    const during: number[] = [];
    const notified: number[] = [];
    for (let i = 0; i < POSTS; i++) {
      const a = await post(followed);
      followedMs.push(a.ms);
      spans.followed.push(a.span);
      for (let j = 0; j < DURING_EACH && await fanningOut(a.id); j++) {
        const d = await post(alone.pop()!);
        during.push(d.ms);
        spans.during.push(d.span);
      }
      notified.push(await notifiedAfter(a.id, a.at));
    }
    const syncs = await trace?.stop();
    const counts = await Promise.all(followers.map((f) => unreadCount(kv, f, Date.now())));
    const reached = counts.filter((n) => n >= POSTS).length;

    // A burst: answers to both questions interleaved while the fan-outs pile up.
    const withFanout: number[] = [];
    const beside: number[] = [];
    const burst: { id: string; at: number }[] = [];
    for (let i = 0; i < POSTS; i++) {
      const a = await post(followed);
      withFanout.push(a.ms);
      burst.push(a);
      beside.push((await post(alone.pop()!)).ms);
    }
    const lastDone = Math.max(...await Promise.all(burst.map((b) => notifiedAfter(b.id, b.at))));

    const q = latencyOf(quiet);
    const f = (ms: number[]) => {
      const l = latencyOf(ms);
      return `${`p50 ${l.p50.toFixed(1)}  p99 ${l.p99.toFixed(1)} ms`.padEnd(24)} n ${
        String(ms.length).padEnd(4)
      } (p50 ${(l.p50 / q.p50).toFixed(2)}×, p99 ${
        (l.p99 / q.p99).toFixed(2)
      }× the quiet answer's)`;
    };
    const row = (label: string, value: string) => console.log(`${label.padEnd(60)} ${value}`);
    const n = FOLLOWERS.toLocaleString("en");
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    const sorted = [...notified].sort((x, y) => x - y);
    console.log(
      `\n### An answer to a question ${n} people follow ` +
        `(POST /api/questions/:id/messages, sequential requests)`,
    );
    row("answer, 0 other followers, no fan-out running", f(quiet));
    row(`edit of one of them (its thread's message ${ANSWERS_READ + 1})`, f(edits));
    row(`answer, 0 other followers, first after ${IDLE_MS / 1000} s idle`, f(afterIdle));
    row(`answer, ${n} followers, one at a time (starts a fan-out)`, f(followedMs));
    row(`answer, 0 other followers, while a fan-out to ${n} runs`, f(during));
    row(
      `request → all ${n} followers notified (${POSTS} one at a time)`,
      `median ${s(sorted[Math.floor(sorted.length / 2)])}, slowest ${s(sorted.at(-1)!)} ` +
        `(${reached.toLocaleString("en")} of ${n} have all ${POSTS}; goal ≤ 30 s)`,
    );
    row(`burst: ${POSTS} answers to it back to back, each starts a fan-out`, f(withFanout));
    row(`burst: answers with 0 other followers between them`, f(beside));
    row(
      `burst: the last follower of the last answer`,
      `${s(lastDone)} after its request (${(POSTS * FOLLOWERS).toLocaleString("en")} ` +
        `notifications queued within about ${s(burst.at(-1)!.at - burst[0].at)})`,
    );
    if (syncs !== undefined) printCheckpoints(syncs, spans);
    await printIdleCost(dir);
  } finally {
    kv.close();
    await srv.stop();
  }
}

/**
 * What idle costs with no app code at all, beside the "after idle" row: a bare store's
 * `get` and one-key commit in this process, back to back and each first after
 * {@link IDLE_MS} without any (the threads that serve KV calls sleep meanwhile).
 */
async function printIdleCost(dir: string): Promise<void> {
  const kv = await Deno.openKv(`${dir}/idle.kv`);
  try {
    for (let i = 0; i < 100; i++) await kv.set(["k", i], "x".repeat(100));
    const pair = async () => {
      let at = performance.now();
      await kv.get(["k", Math.floor(Math.random() * 100)]);
      const get = performance.now() - at;
      at = performance.now();
      await kv.atomic().set(["w", Math.random()], 1).commit();
      return [get, performance.now() - at];
    };
    const warm: number[][] = [];
    const idle: number[][] = [];
    for (let i = 0; i < 10 * POSTS; i++) warm.push(await pair());
    for (let i = 0; i < POSTS; i++) {
      await new Promise((r) => setTimeout(r, IDLE_MS));
      idle.push(await pair());
    }
    const p50 = (rows: number[][], col: number) =>
      latencyOf(rows.map((r) => r[col])).p50.toFixed(3);
    console.log(
      `\nThe same machine's idle cost without the app (a bare store in this process, p50): ` +
        `get ${p50(warm, 0)} ms back to back, ${p50(idle, 0)} ms first after ` +
        `${IDLE_MS / 1000} s idle; commit ${p50(warm, 1)} ms, ${p50(idle, 1)} ms right after it`,
    );
  } finally {
    kv.close();
  }
}

/**
 * Which of the audience row's timed requests (up to the burst) overlapped a WAL checkpoint
 * of `main.ts`'s store, from the `strace` output `syncs` (bench/wal_trace.ts).
 */
function printCheckpoints(syncs: string, spans: Record<"quiet" | "during" | "followed", Span[]>) {
  const cps = checkpoints(syncs);
  const took = latencyOf(cps.map((c) => c.end - c.start));
  const max = Math.max(0, ...cps.map((c) => c.end - c.start));
  console.log(
    `\nWAL checkpoints of main.ts's store (strace; every request is slower under it): ` +
      `${cps.length}, each p50 ${took.p50.toFixed(1)} ms, p99 ${took.p99.toFixed(1)}, ` +
      `max ${max.toFixed(1)}`,
  );
  const groups: [string, Span[]][] = [
    ["answer, 0 other followers, no fan-out running", spans.quiet],
    ["answer, 0 other followers, while a fan-out runs", spans.during],
    ["answer, 10,000 followers (starts a fan-out)", spans.followed],
  ];
  for (const [label, group] of groups) {
    const { overlapped, clear } = overlapping(group, cps);
    const all = latencyOf(group.map((r) => r.end - r.start));
    const c = latencyOf(clear);
    const o = overlapped.length ? `p50 ${latencyOf(overlapped).p50.toFixed(1)} ms` : "none";
    console.log(
      `  ${label.padEnd(50)} all p50 ${all.p50.toFixed(1)}, p99 ${all.p99.toFixed(1)} ms; ` +
        `${overlapped.length} of ${group.length} overlapped one (${o}); ` +
        `the rest p50 ${c.p50.toFixed(1)}, p99 ${c.p99.toFixed(1)} ms`,
    );
  }
}

/**
 * Run the section.
 *
 * @example
 * ```ts
 * await run();
 * ```
 */
export async function run(): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "parley-growth-" });
  console.log("\n## Growth: a long thread and a large audience (main.ts in its own process)");
  try {
    if (ROWS.has("thread")) await longThread(dir);
    if (ROWS.has("audience")) await bigAudience(dir);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) await run();
