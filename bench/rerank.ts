/**
 * `BENCH_ONLY=rerank deno task bench`: the cost semantic rerank (lib/search/rerank.ts) adds to
 * a text search, for 30 candidates on a KV file, beside reading the same 30 question records
 * (what any search page does) in the same run:
 *
 * - lexical only: no rerank (the candidates as they are);
 * - rerank with the query's vector cached (a repeated search): one KV read for the query,
 *   three `getMany` for the candidates' vectors, 30 dot products;
 * - rerank of a new query: the same plus one model call — here the in-app stand-in through
 *   the real `openai` client (a real endpoint adds its network round trip, tens of ms).
 *
 * Environment: BENCH_RERANK_ROUNDS (default 300 per case).
 *
 * @module
 */
import { createQuestion } from "../lib/community/questions/write.ts";
import { getAll } from "../lib/kv/atomic.ts";
import { keys } from "../lib/kv/keys.ts";
import { rerankBySimilarity } from "../lib/search/rerank.ts";
import { benchApp, row } from "./harness.ts";

const TOPICS = [
  "atomic counters",
  "list pagination",
  "watch streams",
  "secondary indexes",
  "expiring keys",
  "backups",
];

/** p50 and p99 in ms of `rounds` runs of `op`. */
async function timed(rounds: number, op: (i: number) => Promise<unknown>) {
  const ms: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await op(i);
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(ms.length * 0.5)], p99: ms[Math.floor(ms.length * 0.99)] };
}

const fmt = (r: { p50: number; p99: number }) => `${r.p50.toFixed(3)}/${r.p99.toFixed(3)} ms`;

/** Run the section and print its rows. */
export async function run(): Promise<void> {
  const rounds = Number(Deno.env.get("BENCH_RERANK_ROUNDS") ?? 300);
  const app = await benchApp(); // local mode: the stand-in embeds every question as it is written
  try {
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      const topic = TOPICS[i % TOPICS.length];
      const q = await createQuestion(app.kv, {
        title: `Question ${i} about ${topic} in Deno KV`,
        description: `How do ${topic} behave under load, case ${i}?`,
        tags: ["bench"],
        author: { id: "u-bench", name: "Bench", avatar: null },
        createdBy: "user",
      });
      ids.push(q.id);
    }
    const embedder = app.services.embedder!;
    const candidates = ids.slice(0, 30).map((id, i) => ({ id, score: 30 - i }));
    const vectors = await getAll(app.kv, candidates.map((c) => keys.questionVector(c.id)));
    if (vectors.some((v) => v.value === null)) throw new Error("seeded questions lack vectors");

    // Warm the JIT and the query cache.
    for (let i = 0; i < 20; i++) {
      await rerankBySimilarity(app.kv, embedder, "atomic counters under load", candidates);
      await getAll(app.kv, candidates.map((c) => keys.question(c.id)));
    }
    const records = await timed(
      rounds,
      () => getAll(app.kv, candidates.map((c) => keys.question(c.id))),
    );
    const lexical = await timed(
      rounds,
      () => rerankBySimilarity(app.kv, null, "atomic counters under load", candidates),
    );
    const cached = await timed(
      rounds,
      () => rerankBySimilarity(app.kv, embedder, "atomic counters under load", candidates),
    );
    const fresh = await timed(
      rounds,
      (i) => rerankBySimilarity(app.kv, embedder, `new query ${i} about counters`, candidates),
    );

    console.log(`\nSemantic rerank — 30 candidates, ${rounds} rounds, p50/p99`);
    console.log(row("read 30 question records (baseline)", fmt(records), 1));
    console.log(row("lexical only (no rerank)", fmt(lexical), lexical.p50 / records.p50));
    console.log(row("rerank, query vector cached", fmt(cached), cached.p50 / records.p50));
    console.log(
      row("rerank, new query (stand-in model call)", fmt(fresh), fresh.p50 / records.p50),
    );
  } finally {
    await app.close();
  }
}

if (import.meta.main) await run();
