/**
 * One side of the bytes bench (bench/bytes.ts): run inside a source tree — this one
 * ("after") or the base commit's worktree ("before") — with that tree's own modules, so
 * each side writes the records its own code writes.
 *
 * `deno run -A --config <root>/deno.json bench/bytes_worker.ts <root> <kvPath> <n>`
 *
 * Seeds `n` questions through the domain's write functions (`createQuestion`, `addMessage`,
 * `castVote`) as people would: each question by one of 200 people, 3 answers by others
 * (each answerer follows; the asker and the earlier answerers are notified, the latter by
 * the fan-out job), 10 up-votes (4 on the question, 2 on each answer; the authors'
 * `upvotes` notifications). Text from the search corpus (bench/search_corpus.ts). Waits
 * until every background job (fan-outs, reindexing) finished, closes the store and prints
 * one JSON line `{seconds}`.
 *
 * @module
 */
import { corpusQuestion } from "./search_corpus.ts";

const [root, kvPath, nArg] = Deno.args;
const N = Number(nArg);
const PEOPLE = 200;
/** Questions written concurrently (as a busy community would). */
const CONCURRENT = 8;

const helpers = await import(`${root}/tests/helpers/app.ts`);
const { createQuestion } = await import(`${root}/lib/community/questions/write.ts`);
const { addMessage } = await import(`${root}/lib/community/messages/write.ts`);
const { castVote } = await import(`${root}/lib/community/votes.ts`);
const { jobRunner } = await import(`${root}/lib/jobs/runner.ts`);

// An experiment: the SQLite page size of a new store (Deno KV keeps a file's page size).
const pageSize = Number(Deno.env.get("BENCH_BYTES_PAGE_SIZE") ?? 0);
if (pageSize) {
  const { DatabaseSync } = await import("node:sqlite");
  const db = new DatabaseSync(kvPath);
  db.exec(`PRAGMA page_size = ${pageSize}; CREATE TABLE page_size (a); DROP TABLE page_size;`);
  db.close();
}
const t = await helpers.createTestApp({ kvPath, llm: null });
const kv: Deno.Kv = t.kv;

const people = Array.from({ length: PEOPLE }, (_, i) => ({
  id: `u_${(1_000_000 + i).toString(36)}${"x".repeat(12)}`, // 18 characters, as real ids
  name: `Person ${i}`,
  avatar: `https://avatars.githubusercontent.com/u/${10_000_000 + i}?v=4`,
}));

const start = performance.now();
const base = Date.now() - N * 60_000;

async function seedOne(i: number): Promise<void> {
  const at = base + i * 60_000;
  const text = corpusQuestion(i);
  const asker = people[i % PEOPLE];
  const q = await createQuestion(kv, {
    title: text.title,
    description: text.description,
    tags: text.tags,
    author: asker,
    createdBy: "user",
  }, { now: at });
  const answers: { id: string; authorId: string }[] = [];
  for (let a = 0; a < 3; a++) {
    const author = people[(i + 1 + a * 7) % PEOPLE];
    const r = await addMessage(kv, {
      questionId: q.id,
      author,
      content: corpusQuestion(N + i * 3 + a).description,
      createdBy: "user",
    }, { now: at + (a + 1) * 5_000 });
    if (!r.ok) throw new Error(`answer ${i}/${a}: ${r.reason}`);
    answers.push({ id: r.message.id, authorId: author.id });
  }
  const targets = [
    ...Array.from({ length: 4 }, () => ({ targetType: "question", targetId: q.id })),
    ...answers.flatMap((m) => [0, 1].map(() => ({ targetType: "message", targetId: m.id }))),
  ];
  await Promise.all(targets.map(async (target, v) => {
    const voter = people[(i + 50 + v * 11) % PEOPLE];
    const r = await castVote(kv, { userId: voter.id, ...target, voteType: "up" }, at + 30_000);
    if (!r.ok) throw new Error(`vote ${i}/${v}: ${r.reason}`);
  }));
}

for (let i = 0; i < N; i += CONCURRENT) {
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENT, N - i) }, (_, k) => seedOne(i + k)),
  );
}
await jobRunner(kv).waitIdle(120_000);
await t.close();
console.log(JSON.stringify({ seconds: (performance.now() - start) / 1000 }));
