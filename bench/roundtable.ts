/**
 * Roundtables: model calls and KV commits per roundtable, beside a debate as baseline, on
 * the app over a KV file with the fake OpenAI-compatible model (statements of ~300
 * characters in ~50 tokens, 5 ms apart; the debate's turns of 150 characters alike), one
 * at a time, each streamed to its end by its client. Commits are every atomic op, `set` and
 * `delete` on the store (bench/panel.ts `countCommits`): the run's events and statements,
 * the create, the slot and daily-limit bookkeeping, and the job runner's lease renewals.
 *
 * A debate always has 5 rounds of 2 speakers (10 turns); a roundtable with 3 experts and 2
 * discussion rounds has 9 turns (3 opening + 3 × 2), the nearest size, then larger ones.
 * "per turn" divides by the statements written.
 *
 * `BENCH_ONLY=roundtable deno task bench`
 *
 * @module
 */
import { jobRunner } from "../lib/jobs/runner.ts";
import { jsonWrite, signInAs } from "../tests/helpers/app.ts";
import {
  type FakeCall,
  startFakeLlm,
  textOfLength,
  VALID_SYNTHESIS,
} from "../tests/helpers/fake_llm.ts";
import { minutesFor } from "../tests/helpers/roundtable_llm.ts";
import { benchApp, row } from "./harness.ts";
import { countCommits } from "./panel.ts";

const TOKEN_DELAY_MS = 5;

function reply(call: FakeCall) {
  const prompt = call.messages.map((m) => m.content).join("\n");
  if (!call.stream) {
    if (prompt.includes("Choose the panel")) {
      return { text: '{"expertIds":["ada","omar","mei"]}' };
    }
    if (prompt.includes("Panel:")) return { text: minutesFor(prompt) };
    return { text: VALID_SYNTHESIS };
  }
  const long = prompt.includes("roundtable");
  return { text: textOfLength(long ? 300 : 150, `c${call.index}w`), tokenDelayMs: TOKEN_DELAY_MS };
}

interface Case {
  name: string;
  path: string;
  body: unknown;
  /** Turns written (statements or messages). */
  turns: number;
  /** A host interjection sent once the first statement is stored. */
  interject?: { text: string; directTo?: string };
}

/** Run the cases; prints one block. */
export async function run(): Promise<void> {
  console.log("\n## Roundtables: model calls and KV commits per roundtable (debate as baseline)\n");
  console.log(
    `fake model: statements 300 chars (debate turns 150) in ~5-char tokens, ${TOKEN_DELAY_MS} ms apart; KV file; one at a time\n`,
  );
  const llm = startFakeLlm(reply);
  const t = await benchApp({ env: { ...llm.env, ROUNDTABLES_PER_USER_PER_DAY: "0" } });
  const commits = countCommits(t.kv);
  try {
    const cases: Case[] = [
      {
        name: "debate (5 rounds, 2 speakers)",
        path: "/api/debate",
        body: { topic: "Tabs or spaces?", userProfile: { name: "Bench agent" } },
        turns: 10,
      },
      {
        name: "roundtable 3 experts, 2 rounds",
        path: "/api/roundtables",
        body: { topic: "Tabs or spaces?", expertIds: ["ada", "omar", "mei"], rounds: 2 },
        turns: 9,
      },
      {
        name: "  same, the model chooses the experts",
        path: "/api/roundtables",
        body: { topic: "Tabs or spaces?", rounds: 2 },
        turns: 9,
      },
      {
        name: "  same, one directed interjection",
        path: "/api/roundtables",
        body: { topic: "Tabs or spaces?", expertIds: ["ada", "omar", "mei"], rounds: 2 },
        turns: 0, // counted from the result (9 or 10)
        interject: { text: "What about readability?", directTo: "omar" },
      },
      {
        name: "roundtable 3 experts, 5 rounds",
        path: "/api/roundtables",
        body: { topic: "Tabs or spaces?", expertIds: ["ada", "omar", "mei"], rounds: 5 },
        turns: 18,
      },
      {
        name: "roundtable 5 experts, 5 rounds",
        path: "/api/roundtables",
        body: {
          topic: "Tabs or spaces?",
          expertIds: ["ada", "omar", "mei", "rafael", "jonas"],
          rounds: 5,
        },
        turns: 30,
      },
    ];
    for (const [i, c] of cases.entries()) {
      await jobRunner(t.kv).waitIdle(30_000);
      // A host per case: the per-minute limit of 4 starts per user is not what is measured.
      const { cookie } = await signInAs(t, `Bench host ${i}`);
      const calls0 = llm.calls.length;
      const commits0 = commits.n;
      const started = performance.now();
      const res = await t.request(c.path, {
        method: "POST",
        headers: jsonWrite(t, cookie),
        body: JSON.stringify(c.body),
      });
      if (res.status !== 200) throw new Error(`${c.name}: ${res.status} ${await res.text()}`);
      let turns = c.turns;
      if (c.interject) {
        // Read until the first statement, interject, then read to the end.
        const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
        let text = "";
        let sent = false;
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          text += value;
          if (!sent && text.includes("event: statement")) {
            sent = true;
            const id = /"id":"(rt_[^"]+)"/.exec(text)![1];
            const r = await t.request(`/api/roundtables/${id}/interject`, {
              method: "POST",
              headers: jsonWrite(t, cookie),
              body: JSON.stringify(c.interject),
            });
            await r.body?.cancel();
          }
        }
        turns = (text.match(/event: statement/g) ?? []).length;
      } else {
        await res.text();
      }
      await jobRunner(t.kv).waitIdle(30_000);
      const took = performance.now() - started;
      const calls = llm.calls.length - calls0;
      const n = commits.n - commits0;
      const perTurn = n / turns;
      console.log(
        row(
          c.name,
          `${calls} calls, ${n} commits`,
        ) + `  (${turns} turns, ${perTurn.toFixed(1)} commits/turn, ${(took / 1000).toFixed(1)} s)`,
      );
    }
    console.log(
      "\nmodel calls = one per turn + the minutes (+1 when the model chooses the experts; the debate: turns + synthesis);",
    );
    console.log(
      "commits per turn ≈ speaking + text batches (120 chars or 150 ms) + statement, as the debate's start + batches + message.",
    );
  } finally {
    await jobRunner(t.kv).waitIdle(30_000);
    await t.close();
    await llm.close();
  }
}

if (import.meta.main) await run();
