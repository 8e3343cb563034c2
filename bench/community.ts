/**
 * Community benchmarks, each next to a baseline measured in the same run:
 *
 * - Votes on one hot question by 200 concurrent voters — through lib/community/votes.ts and through
 *   `POST /api/likes` — next to the raw KV `sum` commit rate on the same store with the
 *   same concurrency (the floor a conflict-free vote can approach).
 * - `GET /api/agent/questions` with 100,000 questions stored, page 1 and page 500, next to
 *   a bare Hono JSON endpoint (50 connections, one agent key each); plus, in-process, page
 *   500 read as one sequence range against the naive skip over the time index.
 *
 * Environment: BENCH_SECONDS (default 5), BENCH_QUESTIONS (default 100000).
 */
import { Hono } from "hono";
import { createAgentKey } from "../lib/agent/keys.ts";
import { createSession, sessionCookieName } from "../lib/auth/sessions.ts";
import { counterValue } from "../lib/kv/atomic.ts";
import { keys } from "../lib/kv/keys.ts";
import { createQuestion, writeQuestion } from "../lib/community/questions/write.ts";
import { planQuestion } from "../lib/search/index.ts";
import { getQuestions, summarize } from "../lib/community/questions/read.ts";
import { listQuestionsPage } from "../lib/community/questions/feed.ts";
import { createUser } from "../lib/auth/users.ts";
import { castVote } from "../lib/community/votes.ts";
import { serveOnLoopback } from "../tests/helpers/app.ts";
import { benchApp, type LoadResult, loadWith, row } from "./harness.ts";
import { seedQuestions } from "./seed.ts";

const VOTERS = 200;
const AGENT_CONNECTIONS = 50;

/** `workers` loops run `step` until `seconds` pass; returns completed steps per second. */
async function rate(
  workers: number,
  seconds: number,
  step: (worker: number) => Promise<unknown>,
): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: workers }, async (_, w) => {
    while (performance.now() < end) {
      await step(w);
      done++;
    }
  }));
  return done / ((performance.now() - started) / 1000);
}

/** Mean milliseconds of `f` over `n` sequential calls (after one warm call). */
async function msPerCall(n: number, f: () => Promise<unknown>): Promise<number> {
  await f();
  const start = performance.now();
  for (let i = 0; i < n; i++) await f();
  return (performance.now() - start) / n;
}

/** Page `page` the naive way — skip `(page−1)·20` entries of the time index — for contrast. */
async function pageBySkipping(kv: Deno.Kv, page: number): Promise<number> {
  const ids: string[] = [];
  let skipped = 0;
  for await (const e of kv.list<string>({ prefix: keys.questionsByTimePrefix() })) {
    if (skipped++ < (page - 1) * 20) continue;
    ids.push(e.value);
    if (ids.length === 20) break;
  }
  return (await summarize(kv, await getQuestions(kv, ids), { downvotes: false })).length;
}

/** Run the community benchmarks and print their rows. */
export async function run(): Promise<void> {
  const seconds = Number(Deno.env.get("BENCH_SECONDS") ?? 5);
  const questions = Number(Deno.env.get("BENCH_QUESTIONS") ?? 100_000);
  console.log(`\nCommunity — ${VOTERS} concurrent voters; agent list over ${questions} questions`);

  const app = await benchApp();
  // The agent limit (60/min per key) would turn a load test into a 429 test.
  app.services.agentRateLimit = 1_000_000_000;
  const bare = new Hono().get("/json", (c) => c.json({ ok: true, message: "hello" }));
  const bareSrv = serveOnLoopback(bare.fetch);
  const appSrv = serveOnLoopback(app.app.fetch);
  const kv = app.kv;
  try {
    // ——— Votes on one hot question ———
    const owner = await createUser(kv, {
      provider: "provider_a",
      name: "Owner",
      image: null,
      bio: "",
      email: null,
    });
    const hot = await createQuestion(kv, {
      title: "The hot question everyone votes on",
      author: { id: owner.id, name: "Owner", avatar: null },
      createdBy: "user",
    });
    const voters = await Promise.all(
      Array.from(
        { length: VOTERS },
        (_, i) =>
          createUser(kv, {
            provider: "provider_a",
            name: `Voter ${i}`,
            image: null,
            bio: "",
            email: null,
          }),
      ),
    );

    const sumKey = ["bench", "sum"];
    const sumRate = await rate(VOTERS, seconds, () => kv.atomic().sum(sumKey, 1n).commit());
    const libRate = await rate(VOTERS, seconds, (w) =>
      castVote(kv, {
        userId: voters[w].id,
        targetType: "question",
        targetId: hot.id,
        voteType: "up",
      }));

    const cookieName = sessionCookieName(app.services.config.appOrigin);
    const sessions = await Promise.all(
      voters.map((v) => createSession(kv, v.id, "provider_a")),
    );
    const voteHeaders = sessions.map((s) => ({
      cookie: `${cookieName}=${s.token}`,
      origin: appSrv.url,
      "content-type": "application/json",
    }));
    const voteBody = JSON.stringify({ targetId: hot.id, targetType: "question", voteType: "up" });
    const httpVotes = await loadWith({
      url: `${appSrv.url}/api/likes`,
      method: "POST",
      body: voteBody,
      seconds,
      connections: VOTERS,
      headerSets: voteHeaders,
    });
    // Consistency after the storm: counts agree with the voter keys (after a moment for
    // requests still in flight when the load generator stopped).
    await new Promise((r) => setTimeout(r, 500));
    const likedBy =
      (await Array.fromAsync(kv.list({ prefix: keys.votesPrefix("question", hot.id) })))
        .length;
    const upvotes = counterValue((await kv.get(keys.voteCount("question", hot.id, "up"))).value);

    // ——— Agent list over many questions ———
    const seedStart = performance.now();
    await seedQuestions(kv, questions, owner.id, { writeQuestion, keys, planQuestion });
    const seedSeconds = (performance.now() - seedStart) / 1000;
    const agentHeaders: Record<string, string>[] = [];
    for (let i = 0; i < AGENT_CONNECTIONS; i++) {
      // One agent (user + key) per connection, as many agents calling at once would.
      const u = await createUser(kv, {
        provider: "provider_a",
        name: `Agent ${i}`,
        image: null,
        bio: "",
        email: null,
      });
      const k = await createAgentKey(kv, u.id, "bench");
      if (!k.ok) throw new Error("key limit");
      agentHeaders.push({ authorization: `Bearer ${k.created.key}` });
    }
    const lastPage = Math.ceil((questions + 1) / 20);
    const deepPage = Math.min(500, lastPage);
    const list = (page: number, duration = seconds) =>
      loadWith({
        url: `${appSrv.url}/api/agent/questions?limit=20&page=${page}`,
        method: "GET",
        seconds: duration,
        connections: AGENT_CONNECTIONS,
        headerSets: agentHeaders,
      });
    // Warm both paths (JIT, KV page cache, the WAL left by seeding) before measuring.
    await list(1, 1);
    await list(deepPage, 1);
    const baseline = await loadWith({
      url: `${bareSrv.url}/json`,
      method: "GET",
      seconds,
      connections: AGENT_CONNECTIONS,
      headerSets: [{}],
    });
    // Interleaved, best of two each: the store's background work (WAL checkpoints after the
    // seed) otherwise lands on whichever run comes first.
    const best = (a: LoadResult, b: LoadResult) => a.requestsPerSec >= b.requestsPerSec ? a : b;
    const deepA = await list(deepPage);
    const page1A = await list(1);
    const deepB = await list(deepPage);
    const page1B = await list(1);
    const pageDeep = best(deepA, deepB);
    const page1 = best(page1A, page1B);
    const rangeMs = await msPerCall(
      50,
      () => listQuestionsPage(kv, { page: deepPage, limit: 20, downvotes: false }),
    );
    const skipMs = await msPerCall(3, () => pageBySkipping(kv, deepPage));

    const fmt = (n: number, unit: string) => `${n.toFixed(0)} ${unit}`;
    console.log(row("raw KV sum commits, 200 concurrent (baseline)", fmt(sumRate, "commits/s"), 1));
    console.log(
      row(
        "votes via lib/community/votes.ts, 200 voters, 1 question",
        fmt(libRate, "votes/s"),
        libRate / sumRate,
      ),
    );
    console.log(
      row(
        "POST /api/likes, 200 voters, 1 question",
        fmt(httpVotes.requestsPerSec, "votes/s"),
        httpVotes.requestsPerSec / sumRate,
      ),
    );
    console.log(
      `  after the run: upvotes=${upvotes}, voter keys=${likedBy} (${
        upvotes === likedBy ? "consistent" : "INCONSISTENT"
      }); HTTP p50/p99 ${httpVotes.latencyP50}/${httpVotes.latencyP99} ms`,
    );
    console.log(
      row("bare Hono JSON, 50 connections (baseline)", fmt(baseline.requestsPerSec, "req/s"), 1),
    );
    for (const [name, r] of [["page 1", page1], [`page ${deepPage}`, pageDeep]] as const) {
      console.log(
        row(
          `GET /api/agent/questions ${name} (${questions} stored)`,
          fmt(r.requestsPerSec, "req/s"),
          r.requestsPerSec / baseline.requestsPerSec,
        ),
      );
    }
    console.log(
      `  p50/p99 ms — page 1 ${page1.latencyP50}/${page1.latencyP99}, page ${deepPage} ${pageDeep.latencyP50}/${pageDeep.latencyP99}; seeding took ${
        seedSeconds.toFixed(1)
      } s`,
    );
    console.log(
      `  in-process, page ${deepPage}: one sequence range ${rangeMs.toFixed(2)} ms vs skipping ${
        (deepPage - 1) * 20
      } time-index entries ${skipMs.toFixed(1)} ms (${(skipMs / rangeMs).toFixed(0)}× slower)`,
    );
    const failures = [httpVotes, deepA, deepB, page1A, page1B, baseline]
      .reduce((n, r) => n + r.non2xx + r.errors, 0);
    if (failures > 0 || upvotes !== likedBy) {
      console.error(`${failures} failed or non-2xx responses, or inconsistent counts`);
      Deno.exitCode = 1;
    }
  } finally {
    await bareSrv.close();
    await appSrv.close();
    await app.close();
  }
}

if (import.meta.main) await run();
