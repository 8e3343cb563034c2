/**
 * One tree's side of the search bench (bench/search.ts), run inside that tree — this one, or
 * the previous search's commit in a temporary worktree — with its own modules:
 *
 * `deno run -A --config <root>/deno.json bench/search_worker.ts <mode> <root> <kvPath> …`
 *
 * - `seed <n>`: store the first `n` corpus questions (bench/search_corpus.ts) through the
 *   bulk loader (bench/seed.ts) with the tree's `writeQuestion`, and its `planQuestion` where
 *   it has one; prints `{seconds}`.
 * - `measure <runs>`: the tree's `findQuestions(kv, {q, page: 1, limit: 20}, now)` for each
 *   corpus query, warm (5 calls first), `runs` times each; prints per query p50/p99 (ms),
 *   page-1 results that match the query's intent, and the hits the engine reports.
 *
 * Prints one JSON line on stdout.
 *
 * @module
 */
import { CORPUS_QUERIES, corpusId, corpusQuestion, relevantCount } from "./search_corpus.ts";
import { seedQuestions } from "./seed.ts";
import { quantile, type QueryTiming, timed } from "./search_timing.ts";

const [mode, root, kvPath, arg] = Deno.args;

const kv = await Deno.openKv(kvPath);
try {
  if (mode === "seed") {
    const { writeQuestion } = await import(`${root}/lib/community/questions/write.ts`);
    const { keys } = await import(`${root}/lib/kv/keys.ts`);
    // Trees before the ranked search index have no planner (their writer takes three arguments).
    const { planQuestion } = await import(`${root}/lib/search/index.ts`).catch(() => ({
      planQuestion: undefined,
    }));
    const started = performance.now();
    await seedQuestions(
      kv,
      Number(arg),
      "u-seeder",
      { writeQuestion, keys, planQuestion },
      { text: corpusQuestion, id: corpusId },
    );
    console.log(JSON.stringify({ seconds: (performance.now() - started) / 1000 }));
  } else if (mode === "measure") {
    const { findQuestions } = await import(`${root}/lib/community/questions/feed.ts`);
    // The ranked index reports its candidates; the previous search only what it scanned.
    const ranked = await import(`${root}/lib/search/search.ts`).catch(() => null);
    const parse = await import(`${root}/lib/search/query.ts`).catch(() => null);
    const out: QueryTiming[] = [];
    for (const [k, { q }] of CORPUS_QUERIES.entries()) {
      const search = () => findQuestions(kv, { q, page: 1, limit: 20 }, Date.now());
      const times = await timed(Number(arg), search);
      const page: { questions: { id: string }[] } = await search();
      const ids = page.questions.map((s) => s.id);
      let hits: number;
      let complete: boolean;
      if (ranked && parse) {
        const r = await ranked.rankQuestionIds(kv, parse.parseQuery(q));
        hits = r.ranked.length;
        complete = r.exhaustive;
      } else {
        // As many as the previous search finds on one page of 1,000 (its scan bound).
        const all = await findQuestions(kv, { q, page: 1, limit: 1000 }, Date.now());
        hits = all.questions.length;
        complete = !all.hasMore;
      }
      out.push({
        p50: quantile(times, 0.5),
        p99: quantile(times, 0.99),
        page: ids.length,
        relevant: relevantCount(k, ids),
        hits,
        complete,
        runs: times.length,
      });
    }
    console.log(JSON.stringify(out));
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
} finally {
  kv.close();
}
