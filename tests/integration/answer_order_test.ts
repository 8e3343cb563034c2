/**
 * `?sort=votes` at any size: the vote-ordered answer rows
 * (lib/community/answer_order.ts) give docs/interface.md#threads's order — accepted first, then
 * up − down, ties oldest first — on every page of a 6,000-answer thread, follow votes,
 * switches, deletes and moderation, stay exactly consistent with the counters under a
 * crowd voting through two app instances on one store, and are rebuilt by the backfill
 * for a question written before them (which reads in the right order meanwhile).
 *
 * Answers are seeded straight through the domain's own writer (`buildMessage` +
 * `writeFirstMessage`, batched: 6,000 posts through HTTP would meet the posting limits and
 * take minutes); every vote, read, delete and moderation goes through HTTP.
 */
import assert from "node:assert/strict";
import { buildMessage } from "@/lib/community/messages/model.ts";
import { writeFirstMessage } from "@/lib/community/messages/write.ts";
import { backfillAnswerOrder, type ScorePointer } from "@/lib/community/answer_order.ts";
import { ANSWER_ORDER_JOB } from "@/lib/community/answer_order_job.ts";
import { jobRunner } from "@/lib/jobs/runner.ts";
import { counterValue, getAll } from "@/lib/kv/atomic.ts";
import { keys } from "@/lib/kv/keys.ts";
import { voteOf } from "@/lib/community/vote_rows.ts";
import { createTestApp, type TestApp, waitForJobs } from "../helpers/app.ts";
import {
  answer,
  ask,
  getAs,
  json,
  type Member,
  member,
  postAs,
  vote,
} from "../helpers/community.ts";

const UNLIMITED = {
  LIMIT_MESSAGES_PER_HOUR: "0",
  LIMIT_QUESTIONS_PER_HOUR: "0",
  LIMIT_VOTES_PER_HOUR: "0",
};

interface ThreadPage {
  messages: { id: string; replyTo?: string; upvotes: number; downvotes: number }[];
  answerCount: number;
  pageCount: number;
  page: number;
  sort: string;
}

/** `n` answers by `authors` in turn, 80 per atomic op, `createdAt` = start, start+1, … */
async function seedAnswers(
  t: TestApp,
  questionId: string,
  n: number,
  authors: Member[],
  start: number,
): Promise<string[]> {
  const ids: string[] = [];
  // An answer writes 11 rows (its thread, order, activity and `authored` rows, counters, the
  // search mark): 80 stay within KV's 1,000 mutations an op.
  for (let i = 0; i < n; i += 80) {
    const op = t.kv.atomic();
    for (let j = i; j < Math.min(n, i + 80); j++) {
      const who = authors[j % authors.length];
      const m = buildMessage({
        questionId,
        author: { id: who.id, name: who.name, avatar: null },
        content: `Seeded answer ${j}`,
        createdBy: "user",
      }, { now: start + j });
      writeFirstMessage(op, m);
      ids.push(m.id);
    }
    assert.ok((await op.commit()).ok);
  }
  return ids;
}

/** A page of `?sort=votes` through the JSON API, as a signed-out reader. */
async function votesPage(t: TestApp, q: string, page = 1): Promise<ThreadPage> {
  const r = await json<ThreadPage>(getAs(t, null, `/api/questions/${q}?sort=votes&page=${page}`));
  assert.equal(r.status, 200);
  assert.equal(r.body.sort, "votes");
  return r.body;
}

/** The top-level answer ids of a page, in order. */
function answerIds(p: ThreadPage): string[] {
  return p.messages.filter((m) => !m.replyTo).map((m) => m.id);
}

/**
 * docs/interface.md#threads's order computed from the store's ground truth, independently of the
 * index: every answer of the time index, its counters, the accepted mark.
 */
async function modelOrder(kv: Deno.Kv, q: string): Promise<string[]> {
  const answers: { id: string; createdAt: number }[] = [];
  for await (const e of kv.list<string>({ prefix: keys.questionAnswersPrefix(q) })) {
    answers.push({ id: e.value, createdAt: e.key[2] as number });
  }
  const counts = await getAll(
    kv,
    answers.flatMap((a) => [
      keys.voteCount("message", a.id, "up"),
      keys.voteCount("message", a.id, "down"),
    ]),
  );
  const score = new Map(
    answers.map((a, i) => [
      a.id,
      counterValue(counts[2 * i].value) - counterValue(counts[2 * i + 1].value),
    ]),
  );
  const accepted = (await kv.get<string>(keys.acceptedAnswer(q))).value;
  return answers.sort((a, b) =>
    Number(b.id === accepted) - Number(a.id === accepted) ||
    score.get(b.id)! - score.get(a.id)! || a.createdAt - b.createdAt ||
    (a.id < b.id ? -1 : 1)
  ).map((a) => a.id);
}

/**
 * The index is exactly the counters: one row per answer of the time index, filed under
 * `0 − (up − down)`, its pointer holding that score, no other row.
 */
async function assertIndexExact(kv: Deno.Kv, q: string): Promise<void> {
  const answers = new Map<string, number>();
  for await (const e of kv.list<string>({ prefix: keys.questionAnswersPrefix(q) })) {
    answers.set(e.value, e.key[2] as number);
  }
  const rows = await Array.fromAsync(kv.list({ prefix: keys.answersByScorePrefix(q) }));
  const ids = rows.map((r) => r.key[4] as string);
  assert.equal(new Set(ids).size, ids.length, "one row per answer");
  assert.deepEqual([...ids].sort(), [...answers.keys()].sort(), "a row for every answer");
  const got = await getAll(
    kv,
    ids.flatMap((id) => [
      keys.voteCount("message", id, "up"),
      keys.voteCount("message", id, "down"),
      keys.answerScore(id),
    ]),
  );
  rows.forEach((r, i) => {
    const score = counterValue(got[3 * i].value) - counterValue(got[3 * i + 1].value);
    const id = ids[i];
    assert.equal(r.key[2], 0 - score, `row of ${id} filed under its counters' score`);
    assert.equal(r.key[3], answers.get(id));
    assert.equal(got[3 * i + 2].value as ScorePointer, score, `pointer of ${id}`);
  });
}

Deno.test("6,000 answers: the most-voted one, written last, leads ?sort=votes; page 2 continues, the last page ends it; a switch, the accepted mark, a delete and a hide reorder it", async () => {
  const t = await createTestApp({ env: UNLIMITED });
  try {
    const [asker, a1, a2, v1, v2, v3, mod] = await Promise.all(
      ["Asker", "Ann", "Abe", "Vi", "Vo", "Vu", "Mo"].map((n) => member(t, n)),
    );
    t.services.config.moderators = [mod.id];
    const q = await ask(t, asker, { title: "Six thousand answers, one order" });
    const seeded = await seedAnswers(t, q, 5999, [a1, a2], Date.now() - 1_000_000);
    const last = await answer(t, a1, q, "The answer everyone agrees with, posted last");
    const all = [...seeded, last];

    // Before any vote: every score 0, oldest first — the last answer is on the last page.
    let p1 = await votesPage(t, q);
    assert.equal(p1.answerCount, 6000);
    assert.equal(p1.pageCount, 200);
    assert.deepEqual(answerIds(p1), all.slice(0, 30));

    // Votes through HTTP: the last answer +3, seeded 100 +2, 200 +1, 300 −1.
    for (const v of [v1, v2, v3]) await vote(t, v, "message", last);
    for (const v of [v1, v2]) await vote(t, v, "message", seeded[100]);
    await vote(t, v1, "message", seeded[200]);
    await vote(t, v1, "message", seeded[300], "down");
    const rest = all.filter((id) => ![last, seeded[100], seeded[200], seeded[300]].includes(id));
    const expected = [last, seeded[100], seeded[200], ...rest, seeded[300]];
    assert.deepEqual(await modelOrder(t.kv, q), expected, "the model agrees with the setup");

    p1 = await votesPage(t, q);
    assert.deepEqual(answerIds(p1), expected.slice(0, 30));
    assert.equal(p1.messages[0].upvotes, 3);
    assert.deepEqual(answerIds(await votesPage(t, q, 2)), expected.slice(30, 60));
    assert.deepEqual(answerIds(await votesPage(t, q, 200)), expected.slice(5970, 6000));
    assert.equal(answerIds(await votesPage(t, q, 200)).at(-1), seeded[300]);
    // The HTML page (default order: votes) shows it first too.
    const html = await (await getAs(t, null, `/questions/${q}`)).text();
    assert.ok(html.indexOf("posted last") < html.indexOf("Seeded answer 100"));

    // A switch: v1 and v2 turn seeded 100 from +2 to −2 — it drops below seeded 300.
    for (const v of [v1, v2]) await vote(t, v, "message", seeded[100], "down");
    const switched = [last, seeded[200], ...rest, seeded[300], seeded[100]];
    assert.deepEqual(await modelOrder(t.kv, q), switched);
    assert.deepEqual(answerIds(await votesPage(t, q)), switched.slice(0, 30));
    assert.deepEqual(answerIds(await votesPage(t, q, 200)), switched.slice(5970));

    // The accepted answer comes first; everything else moves down one place.
    const acc = await postAs(t, asker, `/api/questions/${q}/accept`, { messageId: seeded[4000] });
    assert.equal(acc.status, 200);
    await acc.body?.cancel();
    const accepted = [seeded[4000], ...switched.filter((id) => id !== seeded[4000])];
    assert.deepEqual(await modelOrder(t.kv, q), accepted);
    assert.deepEqual(answerIds(await votesPage(t, q)), accepted.slice(0, 30));
    assert.deepEqual(answerIds(await votesPage(t, q, 2)), accepted.slice(30, 60));
    assert.deepEqual(answerIds(await votesPage(t, q, 200)), accepted.slice(5970));

    // Deleting the leader (by its author): it leaves the order and the index.
    const del = await t.request(`/api/messages/${last}`, {
      method: "DELETE",
      headers: { cookie: a1.cookie, origin: t.services.config.appOrigin },
    });
    assert.equal(del.status, 200);
    await del.body?.cancel();
    const deleted = accepted.filter((id) => id !== last);
    assert.deepEqual(await modelOrder(t.kv, q), deleted);
    p1 = await votesPage(t, q);
    assert.deepEqual(answerIds(p1), deleted.slice(0, 30));
    assert.equal(p1.answerCount, 5999);

    // Hidden by a moderator: gone from the readers' order; back in place when restored.
    const moderate = async (action: string) => {
      const r = await postAs(t, mod, "/api/mod/actions", {
        targetType: "message",
        targetId: seeded[200],
        action,
      });
      assert.equal(r.status, 200);
      await r.body?.cancel();
    };
    await moderate("hide");
    assert.deepEqual(
      answerIds(await votesPage(t, q)),
      deleted.slice(0, 30).filter((id) => id !== seeded[200]),
    );
    await moderate("restore");
    assert.deepEqual(answerIds(await votesPage(t, q)), deleted.slice(0, 30));
    await assertIndexExact(t.kv, q);
  } finally {
    await t.close();
  }
});

/** A deterministic pseudo-random sequence (the test must not depend on luck). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

Deno.test("a crowd voting on several answers at once through two app instances on one store leaves the index exactly the counters", async () => {
  const dir = await Deno.makeTempDir({ prefix: "parley-order-" });
  const kvPath = `${dir}/shared.kv`;
  const t1 = await createTestApp({ kvPath, env: UNLIMITED });
  const t2 = await createTestApp({ kvPath, env: UNLIMITED });
  try {
    const author = await member(t1, "Author");
    const q = await ask(t1, author, { title: "Which of these five is best?" });
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) answers.push(await answer(t1, author, q, `Option ${i}`));
    const voters = await Promise.all(Array.from({ length: 60 }, (_, i) => member(t1, `V${i}`)));
    const rand = lcg(31);
    // Each voter fires 4 votes at once (up or down, on random answers; repeats toggle or
    // switch), half through each instance: the same answer's pointer is moved by both
    // instances' groups and by votes sent round again after a lost check.
    const plan = voters.flatMap((v, i) =>
      Array.from({ length: 4 }, () => ({
        t: i % 2 ? t2 : t1,
        v,
        target: answers[Math.floor(rand() * answers.length)],
        type: rand() < 0.7 ? "up" as const : "down" as const,
      }))
    );
    const statuses = await Promise.all(plan.map(async (p) => {
      const r = await postAs(p.t, p.v, "/api/likes", {
        targetType: "message",
        targetId: p.target,
        voteType: p.type,
      });
      await r.body?.cancel();
      return r.status;
    }));
    assert.deepEqual([...new Set(statuses)], [200]);
    await assertIndexExact(t1.kv, q);
    // The counters are the voters' own keys (nothing lost or doubled), and the order read
    // through either instance is the model's.
    for (const id of answers) {
      const likes = (await Array.fromAsync(t1.kv.list({ prefix: keys.votesPrefix("message", id) })))
        .map((e) => ({ value: voteOf(e.value)! }));
      const [up, down] = (await getAll(t1.kv, [
        keys.voteCount("message", id, "up"),
        keys.voteCount("message", id, "down"),
      ])).map((e) => counterValue(e.value));
      assert.equal(up, likes.filter((e) => e.value.voteType === "up").length);
      assert.equal(down, likes.filter((e) => e.value.voteType === "down").length);
    }
    const model = await modelOrder(t1.kv, q);
    assert.deepEqual(answerIds(await votesPage(t1, q)), model);
    assert.deepEqual(answerIds(await votesPage(t2, q)), model);
    // And once more, everyone at once on the leader: it stays exact.
    const leader = model[0];
    await Promise.all(voters.map(async (v, i) => {
      const r = await postAs(i % 2 ? t2 : t1, v, "/api/likes", {
        targetType: "message",
        targetId: leader,
        voteType: "down",
      });
      assert.equal(r.status, 200);
      await r.body?.cancel();
    }));
    await assertIndexExact(t1.kv, q);
    assert.deepEqual(answerIds(await votesPage(t2, q)), await modelOrder(t1.kv, q));
  } finally {
    await t2.close();
    await t1.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** Make a question look like one from an older store: no marker, no rows, no pointers. */
async function stripAnswerOrder(t: TestApp, q: string, ids: string[]): Promise<void> {
  const strip = t.kv.atomic().delete(keys.answersByScoreBuilt(q));
  for await (const e of t.kv.list({ prefix: keys.answersByScorePrefix(q) })) strip.delete(e.key);
  await strip.commit();
  for (let i = 0; i < ids.length; i += 100) {
    const op = t.kv.atomic();
    for (const id of ids.slice(i, i + 100)) op.delete(keys.answerScore(id));
    await op.commit();
  }
}

Deno.test("the first ?sort=votes read of a question without its answer order starts a job that builds it", async () => {
  const t = await createTestApp({ env: UNLIMITED });
  try {
    const [asker, a1, v1] = await Promise.all(["Asker", "Ann", "Vi"].map((n) => member(t, n)));
    const q = await ask(t, asker, { title: "Built by a job" });
    const ids = await seedAnswers(t, q, 120, [a1], Date.now() - 1_000_000);
    await stripAnswerOrder(t, q, ids);
    await vote(t, v1, "message", ids[90]);
    const first = answerIds(await votesPage(t, q, 1));
    assert.equal(first[0], ids[90], "ranked from the counters meanwhile");
    await waitForJobs(30_000, ANSWER_ORDER_JOB);
    assert.ok((await t.kv.get(keys.answersByScoreBuilt(q))).versionstamp !== null, "built");
    await assertIndexExact(t.kv, q);
    assert.deepEqual(answerIds(await votesPage(t, q, 1)), first, "the rows give the same order");
    assert.equal((await t.kv.get(keys.job(ANSWER_ORDER_JOB, q))).value, null, "the job ended");
  } finally {
    await t.close();
  }
});

Deno.test("a question written before the index: ?sort=votes ranks every answer meanwhile; the backfill (resumable, votes landing between its batches) builds the same order", async () => {
  const t = await createTestApp({ env: UNLIMITED });
  try {
    const [asker, a1, a2, v1, v2] = await Promise.all(
      ["Asker", "Ann", "Abe", "Vi", "Vo"].map((n) => member(t, n)),
    );
    const q = await ask(t, asker, { title: "Written before the answer order existed" });
    const ids = await seedAnswers(t, q, 250, [a1, a2], Date.now() - 1_000_000);
    await stripAnswerOrder(t, q, ids);
    // This test drives the backfill by hand: the job the first read asks for stays unrun.
    await jobRunner(t.kv).shutdown(0);
    // Votes while unbuilt (the first vote on an answer writes its own row from its counters).
    await vote(t, v1, "message", ids[249]);
    await vote(t, v2, "message", ids[249]);
    await vote(t, v1, "message", ids[120]);
    await vote(t, v1, "message", ids[7], "down");
    const answersOf = async () => {
      const out: string[] = [];
      for (let p = 1; p <= 9; p++) out.push(...answerIds(await votesPage(t, q, p)));
      return out;
    };
    let model = await modelOrder(t.kv, q);
    assert.equal(model[0], ids[249]);
    assert.deepEqual(await answersOf(), model, "unbuilt: every answer ranked, the right order");
    const rows = await Array.fromAsync(t.kv.list({ prefix: keys.answersByScorePrefix(q) }));
    assert.equal(rows.length, 3, "only the voted answers have rows so far");

    // The backfill in batches of 40, a vote landing between two of them.
    let progress = await backfillAnswerOrder(t.kv, q, { limit: 40 });
    let calls = 1;
    while (!progress.done) {
      if (calls === 3) {
        await vote(t, v2, "message", ids[10]); // already backfilled
        await vote(t, v2, "message", ids[200], "down"); // not yet
      }
      progress = await backfillAnswerOrder(t.kv, q, { cursor: progress.cursor, limit: 40 });
      calls++;
    }
    assert.ok(calls >= 7, `${calls} bounded calls`);
    assert.ok((await t.kv.get(keys.answersByScoreBuilt(q))).versionstamp !== null);
    await assertIndexExact(t.kv, q);
    model = await modelOrder(t.kv, q);
    assert.deepEqual(await answersOf(), model, "built: the rows give the same order");
    // Running it again changes nothing.
    const again = await backfillAnswerOrder(t.kv, q);
    assert.deepEqual(again, { done: true, cursor: null, indexed: 0 });
    await assertIndexExact(t.kv, q);
  } finally {
    await t.close();
  }
});
