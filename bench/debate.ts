/**
 * Debate benchmark: SSE latency and memory under concurrent debates.
 *
 * A fake OpenAI-compatible model runs in this process and stamps every token it sends;
 * Parley runs in a child process (bench/debate_server.ts) with its model pointed at
 * the fake. Figures:
 *
 * 1. Latency from the fake model sending a token to the SSE chunk carrying it reaching
 *    a client through Parley (median, p99), next to the same-run baseline: the same
 *    fake model's stream read straight by a client, with no Parley in between.
 * 2. 200 debates held open at once: Parley's heap and RSS before, during and after
 *    (after garbage collection), twice, to show that finished debates leave nothing
 *    behind.
 *
 * The fake's tokens end with a space, so each is a complete word that Parley may stream
 * at once; with OpenAI-style tokens (a leading space) a word is held until the next
 * token shows it is complete — the clip at a word boundary requires it — which adds one
 * token interval, by design, on top of the figures here.
 *
 * Environment: BENCH_DEBATES (concurrent debates, default 200).
 */
import { takeEvents } from "../lib/debates/sse_reader.ts";
import { row } from "./harness.ts";

const CONCURRENT = Number(Deno.env.get("BENCH_DEBATES") ?? 200);
const LATENCY_DEBATES = 4;
const TOKENS_PER_TURN = 25;

const SYNTHESIS = JSON.stringify({
  consensus: ["Both sides want evidence"],
  disagreements: ["How fast to move"],
  winner: "tie",
  winnerReason: "Both argued well.",
  conclusion: "Measure first, then decide.",
  recommendations: ["Run a pilot"],
});

/** The fake model: stamps each token id with its send time. */
function startFakeModel(pacing: { tokenDelayMs: number; record: boolean }) {
  const sentAt = new Map<string, number>();
  let seq = 0;
  const encoder = new TextEncoder();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const body = await req.json();
    if (!body.stream) {
      return Response.json({
        id: "bench",
        object: "chat.completion",
        created: 1,
        model: body.model,
        choices: [{
          index: 0,
          message: { role: "assistant", content: SYNTHESIS },
          finish_reason: "stop",
        }],
      });
    }
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      async start(c) {
        try {
          for (let i = 0; i < TOKENS_PER_TURN && !cancelled; i++) {
            await new Promise((r) => setTimeout(r, pacing.tokenDelayMs));
            const id = `k${(seq++).toString(36)}`;
            const frame = `data: {"choices":[{"index":0,"delta":{"content":"${id} "}}]}\n\n`;
            if (pacing.record) sentAt.set(id, performance.now());
            c.enqueue(encoder.encode(frame));
          }
          c.enqueue(encoder.encode("data: [DONE]\n\n"));
          c.close();
        } catch {
          // Reader gone.
        }
      },
      cancel() {
        cancelled = true;
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream" } });
  });
  const port = (server.addr as Deno.NetAddr).port;
  return { url: `http://127.0.0.1:${port}`, sentAt, close: () => server.shutdown() };
}

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { n: s.length, p50: at(0.5), p99: at(0.99) };
}

/** Read a response body as text chunks, calling `onText` as each arrives. */
async function readText(res: Response, onText: (text: string) => void): Promise<void> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    onText(decoder.decode(value, { stream: true }));
  }
}

/** Latency of each token read straight from the fake model (the baseline). */
async function directLatencies(fakeUrl: string, sentAt: Map<string, number>, turns: number) {
  const out: number[] = [];
  for (let i = 0; i < turns; i++) {
    const res = await fetch(`${fakeUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "m",
        stream: true,
        messages: [{ role: "user", content: "x" }],
      }),
    });
    await readText(res, (text) => {
      const now = performance.now();
      for (const id of text.match(/k[0-9a-z]+/g) ?? []) out.push(now - sentAt.get(id)!);
    });
  }
  return out;
}

/** Start a debate; resolves with its events' types once the stream ends. */
async function debate(
  url: string,
  cookie: string,
  topic: string,
  onChunk?: (content: string, now: number) => void,
): Promise<string[]> {
  const res = await fetch(`${url}/api/debate`, {
    method: "POST",
    headers: { cookie, origin: url, "content-type": "application/json" },
    body: JSON.stringify({ topic, userProfile: { name: "Bench" } }),
  });
  if (res.status !== 200) throw new Error(`debate refused: ${res.status} ${await res.text()}`);
  const types: string[] = [];
  let buffer = "";
  await readText(res, (text) => {
    const now = performance.now();
    const { events, rest } = takeEvents(buffer + text);
    buffer = rest;
    for (const e of events) {
      types.push(e.type);
      if (e.type === "chunk") onChunk?.((e.data as { content: string }).content, now);
    }
  });
  return types;
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;

/** Run the debate benchmark and print its rows. */
export async function run(): Promise<void> {
  console.log("\nDebates — SSE latency and memory (Parley in a child process, fake model here)");
  const pacing = { tokenDelayMs: 3, record: true };
  const fake = startFakeModel(pacing);
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--v8-flags=--expose-gc",
      new URL("./debate_server.ts", import.meta.url).pathname,
      `${fake.url}/v1`,
      String(CONCURRENT + 1),
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let head = "";
  while (!head.includes("\n")) {
    const { done, value } = await lines.read();
    if (done) throw new Error("debate_server.ts exited early");
    head += value;
  }
  // Keep draining the child's output so it never blocks on a full pipe.
  (async () => {
    while (!(await lines.read()).done) { /* discard */ }
  })();
  const { url, control, cookies, gc } = JSON.parse(head.slice(0, head.indexOf("\n"))) as {
    url: string;
    control: string;
    cookies: string[];
    gc: boolean;
  };
  const memory = async () =>
    (await (await fetch(`${control}/memory`)).json()) as {
      heapUsed: number;
      rss: number;
      running: number;
    };

  try {
    if (!gc) console.log("(warning: the child has no gc(); memory figures include garbage)");
    // Warm-up: JIT, KV, connections.
    await debate(url, cookies[0], "Warm-up topic");
    await directLatencies(fake.url, fake.sentAt, 2);

    // 1. Latency, Parley and baseline interleaved so both see the same machine state.
    const through: number[] = [];
    const direct: number[] = [];
    for (let i = 0; i < LATENCY_DEBATES; i++) {
      direct.push(...await directLatencies(fake.url, fake.sentAt, 10));
      await debate(url, cookies[0], `Latency topic ${i}`, (content, now) => {
        for (const id of content.match(/k[0-9a-z]+/g) ?? []) {
          through.push(now - fake.sentAt.get(id)!);
        }
      });
    }
    const base = stats(direct);
    const parley = stats(through);
    console.log(
      row(
        "token → client, fake model read directly",
        `${base.p50.toFixed(2)} / ${base.p99.toFixed(2)} ms`,
      ) +
        `  p50 / p99 of ${base.n} tokens (baseline)`,
    );
    console.log(
      row(
        "token → SSE chunk through Parley",
        `${parley.p50.toFixed(2)} / ${parley.p99.toFixed(2)} ms`,
      ) +
        `  ${(parley.p50 / base.p50).toFixed(2)}× baseline p50, ${
          (parley.p99 / base.p99).toFixed(2)
        }× p99, ${parley.n} tokens`,
    );

    // 2. Concurrent debates held open, twice: the second wave shows whether finished
    // debates leave anything behind (the first also pays one-time warm-up costs).
    pacing.record = false;
    pacing.tokenDelayMs = 30;
    const start = await memory();
    const heapLine = [`start ${mb(start.heapUsed)}`];
    const rssLine = [`start ${mb(start.rss)}`];
    let previous = start;
    let completed = 0;
    for (const wave of [1, 2]) {
      const began = performance.now();
      const runs = cookies.slice(1).map((cookie, i) =>
        debate(url, cookie, `Concurrent topic ${wave}-${i}`).then((types) => {
          if (types.at(-1) === "done") completed++;
        })
      );
      // Measure mid-way: every debate is open and streaming.
      await new Promise((r) => setTimeout(r, 10 * TOKENS_PER_TURN * pacing.tokenDelayMs / 2));
      const during = await memory();
      await Promise.all(runs);
      const seconds = (performance.now() - began) / 1000;
      await new Promise((r) => setTimeout(r, 200));
      const after = await memory();
      const perDebate = (a: number, b: number) => `${((a - b) / CONCURRENT / 1024).toFixed(1)} KB`;
      console.log(
        row(`${CONCURRENT} debates held open at once, wave ${wave}`, `${seconds.toFixed(1)} s`) +
          `  heap +${perDebate(during.heapUsed, start.heapUsed)} per open debate; ` +
          `after: ${perDebate(after.heapUsed, previous.heapUsed)} per debate vs ${
            wave === 1 ? "start" : "wave 1"
          }`,
      );
      heapLine.push(
        `wave ${wave} during ${mb(during.heapUsed)} (${during.running} open), after ${
          mb(after.heapUsed)
        } (${after.running} open)`,
      );
      rssLine.push(`wave ${wave} during ${mb(during.rss)}, after ${mb(after.rss)}`);
      previous = after;
    }
    console.log(`  heap after gc: ${heapLine.join(" | ")}`);
    console.log(`  RSS: ${rssLine.join(" | ")}`);
    console.log(`  ${completed}/${CONCURRENT * 2} debates completed (done event received)`);
    if (completed !== CONCURRENT * 2) Deno.exitCode = 1;
  } finally {
    const stdin = child.stdin.getWriter();
    await stdin.close();
    await child.status;
    await fake.close();
  }
}

if (import.meta.main) await run();
