/**
 * A fresh instance's first search (bench/search.ts): a new process loads the tree's feed
 * module, opens the store and answers one query (or, for the baseline, reads one key), then
 * prints when — on the process clock, from its start — and its memory.
 *
 * `deno run -A --config <root>/deno.json bench/search_cold.ts <root> <kvPath> [query]`
 *
 * Nothing is imported before the clock is read, so module loading counts as a cold
 * instance's would.
 *
 * @module
 */
const [root, kvPath, q] = Deno.args;
const started = performance.now();
const { findQuestions } = await import(`${root}/lib/community/questions/feed.ts`);
const loaded = performance.now();
const kv = await Deno.openKv(kvPath);
if (q) await findQuestions(kv, { q, page: 1, limit: 20 }, Date.now());
else await kv.get(["question_seq_head"]);
const answered = performance.now();
const { rss, heapUsed } = Deno.memoryUsage();
kv.close();
console.log(JSON.stringify({
  /** Process start to the answer (ms). */
  firstAnswerMs: answered,
  /** Loading the modules (ms). */
  loadMs: loaded - started,
  /** Opening the store and answering (ms). */
  answerMs: answered - loaded,
  rss,
  heapUsed,
}));
