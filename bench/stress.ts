/**
 * Stress: three server processes on one shared KV file, ~90 signed-in writers creating
 * questions, answers and votes at once — the scale-out shape of docs/decisions.md#storage under
 * contention. Reports requests, responses ≥500 (must be 0) and p50/p99 per kind, then
 * checks every write was counted exactly (questions total = 201s, each question's
 * `answerCount` = answers created, each question's up-votes = the likes' net effect). The
 * count compared is `answerCount` (top-level answers by people and their agents):
 * `messageCount` also counts the local AI expert panel's answers, which arrive on their own.
 *
 * The same run measures a baseline: the base commit (default e94b280, "today's code")
 * checked out as a git worktree in a temporary folder, built, stressed identically over its
 * own KV file first and removed (bench/before_tree.ts; skipped with a line saying why where
 * git or the commit is missing); both are printed side by side. Loopback only; bounded in
 * count and time.
 *
 * Environment: STRESS_SECONDS (default 12), STRESS_WRITERS (default 90),
 * STRESS_IDEMPOTENCY (`off` sends no Idempotency-Key; default on, every POST has one), STRESS_BASE
 * (a commit; `none` skips the baseline), STRESS_BASE_DIR (an already built tree to use as
 * the baseline instead of checking one out), STRESS_SERVER_ENV (JSON: more environment for
 * every server, e.g. `{"EXPERT_PANEL_PER_DAY":"0"}` to see what the expert panels cost).
 *
 * Run alone: `BENCH_ONLY=stress deno task bench`, or `deno run -A bench/stress.ts`.
 *
 * @module
 */

import { withBeforeTree } from "./before_tree.ts";
import { localMainEnv } from "../tests/helpers/processes.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const PROCESSES = 3;
/** More environment for every server (STRESS_SERVER_ENV, JSON): to take a part out. */
const SERVER_ENV: Record<string, string> = JSON.parse(Deno.env.get("STRESS_SERVER_ENV") ?? "{}");

/** Figures of one stress run. */
export interface StressResult {
  label: string;
  requests: number;
  errors5xx: number;
  /** Other failures: network errors and unexpected 4xx (429s are counted apart). */
  otherFailures: number;
  /** Other failures and 429s by request kind, status and error text. */
  failureKinds: Record<string, number>;
  rateLimited: number;
  kinds: Record<string, { count: number; p50: number; p99: number; max: number }>;
  /** Mismatches found by the exact-count check (empty = every write counted). */
  mismatches: string[];
  statusCounts: Record<string, number>;
}

async function waitHealthy(origin: string, proc: Deno.ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  let exited = false;
  proc.status.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`server at ${origin} exited during start-up`);
    try {
      const r = await fetch(`${origin}/healthz`);
      await r.body?.cancel();
      if (r.ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server at ${origin} did not become healthy`);
}

type Jar = Map<string, string>;

function keepCookies(res: Response, jar: Jar) {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = pair.indexOf("=");
    const name = pair.slice(0, eq);
    if (/Max-Age=0/i.test(line)) jar.delete(name);
    else jar.set(name, pair.slice(eq + 1));
  }
}

const cookieHeader = (jar: Jar) => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");

/** Sign one local account in through the local provider's HTTP flow; the cookie jar. */
async function signIn(origin: string, name: string): Promise<Jar> {
  const jar: Jar = new Map();
  const go = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(new URL(url, origin), {
      ...init,
      redirect: "manual",
      headers: { cookie: cookieHeader(jar), ...init.headers },
    });
    keepCookies(res, jar);
    await res.body?.cancel();
    return res;
  };
  const start = await go("/api/auth/login/provider_c");
  const authorize = new URL(start.headers.get("location")!);
  const form = new URLSearchParams(authorize.searchParams);
  form.set("name", name);
  const chosen = await go(authorize.pathname, {
    method: "POST",
    body: form,
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
  });
  let next = chosen.headers.get("location");
  for (let hops = 0; next && hops < 5; hops++) {
    next = (await go(next)).headers.get("location");
  }
  const me = await go("/api/auth/session");
  if (me.status !== 200) throw new Error(`sign-in of ${name} failed (${me.status})`);
  return jar;
}

function pct(sorted: number[], p: number): number {
  return Number((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0)
    .toFixed(1));
}

/** Start the servers of `root` on one KV file, drive the writers, verify, stop. */
export async function stressOnce(root: string, label: string): Promise<StressResult> {
  const seconds = Number(Deno.env.get("STRESS_SECONDS") ?? 12);
  const writers = Number(Deno.env.get("STRESS_WRITERS") ?? 90);
  const useKeys = Deno.env.get("STRESS_IDEMPOTENCY") !== "off";
  const dir = await Deno.makeTempDir({ prefix: "parley-stress-" });
  const kvPath = `${dir}/stress.kv`;
  const procs: Deno.ChildProcess[] = [];
  const origins: string[] = [];
  try {
    // One at a time: the first creates the local-mode secret the others then read.
    for (let i = 0; i < PROCESSES; i++) {
      // Raised limits, so the stress measures contention, not the posting limits.
      const { origin, env } = localMainEnv(kvPath, {
        LIMIT_QUESTIONS_PER_HOUR: "5000",
        LIMIT_MESSAGES_PER_HOUR: "5000",
        LIMIT_VOTES_PER_HOUR: "5000",
        ...SERVER_ENV,
      });
      const proc = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "main.ts"],
        cwd: root,
        env,
        stdout: "null",
        stderr: "piped",
      }).spawn();
      procs.push(proc);
      origins.push(origin);
      await waitHealthy(origin, proc);
    }
    // Keep the last stderr lines of each server for a failure report.
    const stderrTails: string[][] = procs.map(() => []);
    procs.forEach((p, i) => {
      (async () => {
        const dec = new TextDecoder();
        for await (const chunk of p.stderr) {
          const tail = stderrTails[i];
          tail.push(...dec.decode(chunk).split("\n").filter(Boolean));
          if (tail.length > 40) tail.splice(0, tail.length - 40);
        }
      })().catch(() => {});
    });

    const jars: Jar[] = [];
    for (let i = 0; i < writers; i += 10) {
      const batch = Array.from({ length: Math.min(10, writers - i) }, (_, j) => i + j);
      jars.push(
        ...await Promise.all(batch.map((n) => signIn(origins[n % PROCESSES], `Stress ${n}`))),
      );
    }

    const latencies: Record<string, number[]> = { question: [], answer: [], vote: [] };
    const statusCounts: Record<string, number> = {};
    let errors5xx = 0;
    let otherFailures = 0;
    /** Other failures and 429s by request kind, status and error text. */
    const failureKinds: Record<string, number> = {};
    const countFailure = (kind: string, status: number, json: { error?: unknown } | null) => {
      const what = `${kind} ${status} ${String(json?.error ?? "").slice(0, 60)}`;
      failureKinds[what] = (failureKinds[what] ?? 0) + 1;
    };
    let rateLimited = 0;
    const questions: string[] = [];
    /** Who asked each question (a writer's index): a writer never votes on its own. */
    const askers = new Map<string, number>();
    const answers = new Map<string, number>();
    const netUp = new Map<string, number>();

    // A few questions to answer and vote on from the first second.
    const seed = await fetch(`${origins[0]}/api/questions`, {
      method: "POST",
      headers: { cookie: cookieHeader(jars[0]), origin: origins[0] },
      body: JSON.stringify({ title: "Seed question for the stress run", tags: ["stress"] }),
    });
    if (seed.status !== 201) throw new Error(`seed question failed: ${seed.status}`);
    questions.push((await seed.json()).id);
    askers.set(questions[0], 0);
    answers.set(questions[0], 0);
    netUp.set(questions[0], 0);

    const deadline = performance.now() + seconds * 1000;
    let seq = 0;
    await Promise.all(jars.map(async (jar, w) => {
      const origin = origins[w % PROCESSES];
      const headers = { cookie: cookieHeader(jar), origin, "content-type": "application/json" };
      while (performance.now() < deadline) {
        const roll = Math.random();
        const kind = roll < 0.2 ? "question" : roll < 0.6 ? "answer" : "vote";
        let target = questions[Math.floor(Math.random() * questions.length)];
        // A vote on one's own question is refused (403) by design: not a failure to count.
        if (kind === "vote" && askers.get(target) === w) {
          target = questions.find((q) => askers.get(q) !== w) ?? target;
          if (askers.get(target) === w) { // only its own so far: let another writer ask
            await new Promise((r) => setTimeout(r, 10));
            continue;
          }
        }
        const n = seq++;
        let url: string;
        let body: unknown;
        if (kind === "question") {
          url = "/api/questions";
          body = { title: `Stress question ${n} from writer ${w}`, tags: [`t${n % 5}`, "stress"] };
        } else if (kind === "answer") {
          url = `/api/questions/${target}/messages`;
          body = { content: `Answer ${n} from writer ${w}` };
        } else {
          url = "/api/likes";
          body = { targetId: target, targetType: "question", voteType: "up" };
        }
        const t0 = performance.now();
        let res: Response;
        try {
          res = await fetch(`${origin}${url}`, {
            method: "POST",
            headers: useKeys ? { ...headers, "idempotency-key": `stress-${w}-${n}` } : headers,
            body: JSON.stringify(body),
          });
        } catch {
          otherFailures++;
          continue;
        }
        const json = await res.json().catch(() => null);
        latencies[kind].push(performance.now() - t0);
        statusCounts[res.status] = (statusCounts[res.status] ?? 0) + 1;
        if (res.status >= 500) {
          errors5xx++;
          continue;
        }
        if (res.status === 429) {
          rateLimited++;
          countFailure(kind, res.status, json);
          continue;
        }
        if (kind === "question" && res.status === 201) {
          questions.push(json.id);
          askers.set(json.id, w);
          answers.set(json.id, 0);
          netUp.set(json.id, 0);
        } else if (kind === "answer" && res.status === 201) {
          answers.set(target, (answers.get(target) ?? 0) + 1);
        } else if (kind === "vote" && res.status === 200) {
          const d = json.action === "liked" ? 1 : json.action === "unliked" ? -1 : 0;
          netUp.set(target, (netUp.get(target) ?? 0) + d);
        } else {
          otherFailures++;
          countFailure(kind, res.status, json);
        }
      }
    }));

    // Exact counts, read back through the API (any instance serves any record).
    const mismatches: string[] = [];
    const feed = await (await fetch(`${origins[1]}/api/questions?limit=1`)).json();
    if (feed.total !== questions.length) {
      mismatches.push(`questions total ${feed.total} ≠ ${questions.length} created`);
    }
    for (let i = 0; i < questions.length; i += 20) {
      await Promise.all(
        questions.slice(i, i + 20).map(async (id) => {
          const res = await fetch(`${origins[2]}/api/questions/${id}`);
          if (res.status !== 200) {
            mismatches.push(`question ${id}: ${res.status}`);
            await res.body?.cancel();
            return;
          }
          const q = await res.json();
          if (q.answerCount !== answers.get(id)) {
            mismatches.push(`${id}: answerCount ${q.answerCount} ≠ ${answers.get(id)} answers`);
          }
          if (q.upvotes !== netUp.get(id)) {
            mismatches.push(`${id}: upvotes ${q.upvotes} ≠ ${netUp.get(id)} accepted`);
          }
        }),
      );
    }

    const kinds: StressResult["kinds"] = {};
    for (const [k, l] of Object.entries(latencies)) {
      l.sort((a, b) => a - b);
      kinds[k] = { count: l.length, p50: pct(l, 0.5), p99: pct(l, 0.99), max: pct(l, 1) };
    }
    const requests = Object.values(latencies).reduce((n, l) => n + l.length, 0);
    if (errors5xx > 0) {
      console.error(`[${label}] server stderr tails:`);
      stderrTails.forEach((t, i) => console.error(`  #${i}: ${t.slice(-8).join("\n      ")}`));
    }
    return {
      label,
      requests,
      errors5xx,
      otherFailures,
      failureKinds,
      rateLimited,
      kinds,
      mismatches,
      statusCounts,
    };
  } finally {
    for (const p of procs) {
      try {
        p.kill("SIGTERM");
      } catch { /* already gone */ }
    }
    await Promise.all(procs.map((p) => p.status));
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

function describe(r: StressResult): string[] {
  const k = (name: string) => {
    const x = r.kinds[name];
    return x ? `${x.count} (${x.p50}/${x.p99} ms)` : "-";
  };
  return [
    String(r.requests),
    String(r.errors5xx),
    String(r.otherFailures + r.rateLimited),
    k("question"),
    k("answer"),
    k("vote"),
    r.mismatches.length === 0 ? "exact" : `${r.mismatches.length} off`,
  ];
}

/** Run the baseline and the current code, print them side by side. */
export async function run(): Promise<void> {
  const base = Deno.env.get("STRESS_BASE") ?? "e94b280";
  const baseDir = Deno.env.get("STRESS_BASE_DIR");
  const writers = Number(Deno.env.get("STRESS_WRITERS") ?? 90);
  const seconds = Number(Deno.env.get("STRESS_SECONDS") ?? 12);
  console.log(
    `\nStress: ${PROCESSES} processes on one KV file, ${writers} writers, ${seconds}s ` +
      `(20% questions, 40% answers, 40% votes)`,
  );
  const results: StressResult[] = [];
  if (baseDir) results.push(await stressOnce(baseDir, `base ${baseDir}`));
  else if (base !== "none") {
    await withBeforeTree(base, async (root) => {
      if (root) results.push(await stressOnce(root, `base ${base}`));
    });
  }
  results.push(await stressOnce(ROOT, "this tree"));
  const rows = [
    "requests",
    "responses ≥500",
    "other failures",
    "questions n (p50/p99)",
    "answers n (p50/p99)",
    "votes n (p50/p99)",
    "exact counts",
  ];
  const cols = results.map(describe);
  console.log(["".padEnd(24), ...results.map((r) => r.label.padEnd(28))].join(" "));
  rows.forEach((name, i) =>
    console.log([name.padEnd(24), ...cols.map((c) => c[i].padEnd(28))].join(" "))
  );
  for (const r of results) {
    console.log(`${r.label} statuses: ${JSON.stringify(r.statusCounts)}`);
    for (const [what, n] of Object.entries(r.failureKinds)) {
      console.log(`  ${r.label} other failure: ${n} × ${what}`);
    }
    for (const m of r.mismatches.slice(0, 5)) console.log(`  ${r.label} mismatch: ${m}`);
  }
  const mine = results.at(-1)!;
  if (mine.errors5xx > 0 || mine.mismatches.length > 0) {
    console.error("stress: this tree answered ≥500 or miscounted a write");
    Deno.exitCode = 1;
  }
}

if (import.meta.main) await run();
