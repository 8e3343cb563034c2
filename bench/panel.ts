/**
 * The AI expert panel under a burst: 100 people ask at once over HTTP, each then follows
 * `GET /api/questions/:id/panel/events` like an open question page, against the fake
 * OpenAI-compatible model (instant answers, so the figures are Parley's own cost).
 *
 * - baseline: the same 100 question creations with the panel off, on the same machine;
 * - panel: the creations' latency (the panel must cost the request almost nothing),
 *   model calls, KV commits (all of them, counted on the store), and the time from the
 *   question's creation (its 201) to the first expert message seen by the follower, p50/p99.
 *
 * @module
 */
import { panelMetrics } from "../lib/panel/metrics.ts";
import { jobRunner } from "../lib/jobs/runner.ts";
import { serveOnLoopback, signInAs, type TestApp } from "../tests/helpers/app.ts";
import { type FakeCall, startFakeLlm } from "../tests/helpers/fake_llm.ts";
import { benchApp, row } from "./harness.ts";

const N = 100;

function reply(call: FakeCall) {
  const all = call.messages.map((m) => m.content).join("\n");
  if (all.includes("Pick the 3 experts")) return { text: '{"experts":["ada","omar","mei"]}' };
  return {
    text: "Measure first, then change one thing at a time, and keep what the data supports.",
  };
}

/** Count every KV commit (atomic ops and single writes) of a store. */
export function countCommits(kv: Deno.Kv): { n: number } {
  const counter = { n: 0 };
  const atomic = kv.atomic.bind(kv);
  kv.atomic = () => {
    const op = atomic();
    const commit = op.commit.bind(op);
    op.commit = () => (counter.n++, commit());
    return op;
  };
  const set = kv.set.bind(kv);
  kv.set = (...args: Parameters<Deno.Kv["set"]>) => (counter.n++, set(...args));
  const del = kv.delete.bind(kv);
  kv.delete = (key: Deno.KvKey) => (counter.n++, del(key));
  return counter;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

/** First `event: message` on a panel stream, then walk away. */
async function firstMessage(url: string): Promise<number> {
  const res = await fetch(url);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream ended without a message: ${seen}`);
      seen += value;
      if (/^event: message$/m.test(seen)) return performance.now();
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

interface Burst {
  total: number;
  create: number[];
  firstExpert: number[];
  commits: number;
}

/** N users ask at once; with `follow`, each then follows its question's panel. */
async function burst(app: TestApp, follow: boolean): Promise<Burst> {
  const srv = serveOnLoopback(app.app.fetch);
  const commits = countCommits(app.kv);
  try {
    const cookies = await Promise.all(
      Array.from({ length: N }, async (_, i) => (await signInAs(app, `Asker ${i}`)).cookie),
    );
    commits.n = 0;
    const create: number[] = [];
    const firstExpert: number[] = [];
    const start = performance.now();
    await Promise.all(cookies.map(async (cookie, i) => {
      const t0 = performance.now();
      const res = await fetch(`${srv.url}/api/questions`, {
        method: "POST",
        headers: {
          cookie,
          origin: app.services.config.appOrigin,
          "content-type": "application/json",
        },
        body: JSON.stringify({
          title: `Benchmark question ${i}: how should we cache reads?`,
          description: "Asked in a burst of 100.",
          tags: ["bench"],
        }),
      });
      const t1 = performance.now();
      if (res.status !== 201) throw new Error(`ask: ${res.status} ${await res.text()}`);
      const { id } = await res.json() as { id: string };
      create.push(t1 - t0);
      if (follow) {
        const seen = await firstMessage(`${srv.url}/api/questions/${id}/panel/events`);
        firstExpert.push(seen - t1);
      }
    }));
    if (follow) await jobRunner(app.kv).waitIdle(120_000, "panel");
    return { total: performance.now() - start, create, firstExpert, commits: commits.n };
  } finally {
    await srv.close();
  }
}

/** Print the panel rows. */
export async function run(): Promise<void> {
  console.log(`\nAI expert panel: ${N} new questions at once (fake model, instant answers)`);
  const llm = startFakeLlm(reply);
  try {
    const off = await benchApp({ env: { ...llm.env, EXPERT_PANEL_PER_DAY: "0" } });
    let base: Burst;
    try {
      base = await burst(off, false);
    } finally {
      await off.close();
    }
    // Its 100 askers follow their panels from this one address: lift the per-address cap.
    const on = await benchApp({
      env: { ...llm.env, EXPERT_PANEL_PER_DAY: "1000", STREAMS_PER_IP: "1000000" },
    });
    const callsBefore = llm.calls.length;
    const jobCommitsBefore = panelMetrics.commits;
    let panel: Burst;
    try {
      panel = await burst(on, true);
    } finally {
      await on.close();
    }
    const calls = llm.calls.length - callsBefore;
    const jobCommits = panelMetrics.commits - jobCommitsBefore;
    const baseP50 = pct(base.create, 50);
    console.log(
      row("baseline: create, panel off (p50)", ms(baseP50), 1),
    );
    console.log(row("baseline: create, panel off (p99)", ms(pct(base.create, 99))));
    console.log(row("baseline: burst of 100, panel off", ms(base.total)));
    console.log(row("baseline: KV commits", String(base.commits)));
    console.log(
      row("create, panel on (p50)", ms(pct(panel.create, 50)), pct(panel.create, 50) / baseP50),
    );
    console.log(row("create, panel on (p99)", ms(pct(panel.create, 99))));
    console.log(row("201 → first expert message (p50)", ms(pct(panel.firstExpert, 50))));
    console.log(row("201 → first expert message (p99)", ms(pct(panel.firstExpert, 99))));
    console.log(row("all 100 panels done (3 experts × 2 rounds)", ms(panel.total)));
    console.log(row("model calls", `${calls} (${(calls / N).toFixed(1)}/question)`));
    console.log(
      row(
        "KV commits, panel on",
        `${panel.commits} (${((panel.commits - base.commits) / N).toFixed(1)}/q extra)`,
      ),
    );
    console.log(row("  of which the panel job's own commits", String(jobCommits)));
  } finally {
    await llm.close();
  }
}
