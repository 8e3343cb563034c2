/**
 * Opinion maps and thread summaries: the time from a new answer to a refreshed map and
 * summary, through the job runner, against the fake OpenAI-compatible model on loopback
 * answering like the stand-in (instant, then with 200 ms per call, to show the map and the
 * summary are asked at once).
 *
 * - baseline: the plain question read, `GET /api/questions/:id` (30 answers' page), p50, and
 *   the map read when nothing is stale, `GET /api/questions/:id/map` (what every page view
 *   adds), p50 — same app, same run;
 * - refresh: on each of 20 questions with a current map and summary, 3 more answers are
 *   posted (enough for both to be stale), then the time from the last answer's 201 through
 *   the `GET /map` that schedules the job to the job's end (`waitIdle` of the runner),
 *   checked by a read that finds both `ready` with the new count; p50 and p99; model calls
 *   per refresh.
 *
 * @module
 */
import { jobRunner } from "../lib/jobs/runner.ts";
import { insightMetrics } from "../lib/insights/job.ts";
import { INSIGHTS_JOB } from "../lib/insights/model.ts";
import { composeInsight } from "../lib/llm/standin/insights.ts";
import { serveOnLoopback, signInAs } from "../tests/helpers/app.ts";
import { type FakeCall, type FakeReply, startFakeLlm } from "../tests/helpers/fake_llm.ts";
import { benchApp, row } from "./harness.ts";

const QUESTIONS = 20;
const FIRST_ANSWERS = 12;
const MORE = 3;

const VIEWS = [
  "Yes, you should, because it saves time on every release.",
  "No, avoid it: the migration is never worth the risk.",
  "It depends on the team size and the deadline.",
  "Yes, I recommend it too, and it is also cheaper.",
  "Never in the middle of a project, it is a bad idea.",
  "Definitely yes, we use it every day.",
  "Only if you have tests, otherwise no.",
  "Agree with the others, it is worth it for hiring.",
];

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

function replyAfter(delayMs: number) {
  return (call: FakeCall): FakeReply => {
    const user = call.messages.filter((m) => m.role === "user").map((m) => m.content).join("\n");
    return { text: composeInsight(user) ?? "{}", delayMs };
  };
}

async function timed(url: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    out.push(performance.now() - t0);
  }
  return out;
}

interface Round {
  baseline: number[];
  mapRead: number[];
  refresh: number[];
  calls: number;
}

async function round(modelDelayMs: number): Promise<Round> {
  const llm = startFakeLlm(replyAfter(modelDelayMs));
  // Posting limits off: the bench writes 300 answers and 20 questions as a few people.
  const app = await benchApp({
    env: { ...llm.env, LIMIT_QUESTIONS_PER_HOUR: "0", LIMIT_MESSAGES_PER_HOUR: "0" },
  });
  const srv = serveOnLoopback(app.app.fetch);
  const runner = jobRunner(app.kv);
  try {
    const people = await Promise.all(
      Array.from(
        { length: FIRST_ANSWERS + MORE },
        async (_, i) => (await signInAs(app, `P${i}`)).cookie,
      ),
    );
    const post = async (cookie: string, path: string, body: unknown) => {
      const res = await fetch(`${srv.url}${path}`, {
        method: "POST",
        headers: {
          cookie,
          origin: app.services.config.appOrigin,
          "content-type": "application/json",
        },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string };
    };
    const ids: string[] = [];
    for (let q = 0; q < QUESTIONS; q++) {
      const { id } = await post(people[0], "/api/questions", {
        title: `Should team ${q} adopt the new framework this year?`,
        description: "A bench question.",
      });
      for (let i = 0; i < FIRST_ANSWERS; i++) {
        await post(people[i], `/api/questions/${id}/messages`, {
          content: VIEWS[(i + q) % VIEWS.length],
        });
      }
      await (await fetch(`${srv.url}/api/questions/${id}/map`)).arrayBuffer();
      ids.push(id);
    }
    await runner.waitIdle(120_000, INSIGHTS_JOB);
    // One request at a time, like the refresh below: latency, not throughput.
    const baseline: number[] = [];
    const mapRead: number[] = [];
    for (const id of ids) {
      baseline.push(...await timed(`${srv.url}/api/questions/${id}`, 5));
      mapRead.push(...await timed(`${srv.url}/api/questions/${id}/map`, 5));
    }
    const callsBefore = llm.calls.length;
    const refresh: number[] = [];
    for (const id of ids) {
      let last = 0;
      for (let i = 0; i < MORE; i++) {
        await post(people[FIRST_ANSWERS + i], `/api/questions/${id}/messages`, {
          content: VIEWS[(i + 3) % VIEWS.length],
        });
        last = performance.now();
      }
      await (await fetch(`${srv.url}/api/questions/${id}/map`)).arrayBuffer();
      await runner.waitIdle(60_000, INSIGHTS_JOB);
      refresh.push(performance.now() - last);
      const [map, summary] = await Promise.all(
        ["map", "summary"].map(async (k) =>
          (await (await fetch(`${srv.url}/api/questions/${id}/${k}`)).json()) as {
            status: string;
            messageCount: number;
          }
        ),
      );
      const want = FIRST_ANSWERS + MORE;
      if (
        map.status !== "ready" || summary.status !== "ready" || map.messageCount !== want ||
        summary.messageCount !== want
      ) {
        throw new Error(`not refreshed: ${JSON.stringify({ map, summary })}`);
      }
    }
    return { baseline, mapRead, refresh, calls: llm.calls.length - callsBefore };
  } finally {
    await srv.close();
    await app.close();
    await llm.close();
  }
}

/** Print the insights rows. */
export async function run(): Promise<void> {
  console.log(
    `\nOpinion map and summary: ${QUESTIONS} questions of ${FIRST_ANSWERS} answers, ${MORE} more each (fake model on loopback)`,
  );
  const runsBefore = insightMetrics.runs;
  const instant = await round(0);
  const base = pct(instant.baseline, 50);
  console.log(row("baseline: GET /api/questions/:id (p50)", ms(base), 1));
  console.log(
    row(
      "GET /api/questions/:id/map, nothing stale (p50)",
      ms(pct(instant.mapRead, 50)),
      pct(instant.mapRead, 50) / base,
    ),
  );
  console.log(
    row(
      "new answer → map and summary refreshed (p50)",
      ms(pct(instant.refresh, 50)),
      pct(instant.refresh, 50) / base,
    ),
  );
  console.log(row("new answer → map and summary refreshed (p99)", ms(pct(instant.refresh, 99))));
  console.log(row("model calls per refresh", (instant.calls / QUESTIONS).toFixed(1)));
  const slow = await round(200);
  console.log(
    row(
      "same, model answering in 200 ms (p50)",
      ms(pct(slow.refresh, 50)),
      pct(slow.refresh, 50) / base,
    ),
  );
  console.log(row("same, model answering in 200 ms (p99)", ms(pct(slow.refresh, 99))));
  console.log(row("model calls per refresh (200 ms model)", (slow.calls / QUESTIONS).toFixed(1)));
  console.log(row("insights job runs (both rounds)", String(insightMetrics.runs - runsBefore)));
}
