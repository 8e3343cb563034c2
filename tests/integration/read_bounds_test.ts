/**
 * Reads are bounded by their page, not by the data behind it, and an answer's request
 * never waits for its fan-out: a 2,000-answer question's page, in every order, on later
 * pages and on the last ones, through the JSON API and the HTML page, reads a page's worth
 * of keys (a
 * store that counts every key read); an answer to questions with 2,000 followers returns
 * while every batch of its fan-out is held back, and the fan-outs of two answers take
 * turns (one batch writing at a time) before every follower is notified once.
 *
 * Answers are seeded straight through the domain's own writer (`buildMessage` +
 * `writeFirstMessage`, batched) and followers through `followInOp`; every read, answer
 * and vote goes through HTTP.
 */
import assert from "node:assert/strict";
import { buildMessage } from "@/lib/community/messages/model.ts";
import { writeFirstMessage } from "@/lib/community/messages/write.ts";
import { invalidateReads } from "@/lib/community/read_cache.ts";
import { followInOp, unreadCount } from "@/lib/notifications/notifications.ts";
import { FANOUT_JOB } from "@/lib/notifications/fanout.ts";
import { keys } from "@/lib/kv/keys.ts";
import { createTestApp, type TestApp, waitForJobs } from "../helpers/app.ts";
import { answer, ask, type Member, member, vote } from "../helpers/community.ts";
import { keyCountingKv, type KeysRead } from "../helpers/kv_calls.ts";

const UNLIMITED = {
  LIMIT_MESSAGES_PER_HOUR: "0",
  LIMIT_QUESTIONS_PER_HOUR: "0",
  LIMIT_VOTES_PER_HOUR: "0",
};

/** `n` answers by `authors` in turn, 80 per atomic op, one second apart. */
async function seedAnswers(
  t: TestApp,
  questionId: string,
  n: number,
  authors: Member[],
): Promise<string[]> {
  const ids: string[] = [];
  const start = Date.now() - n * 1_000 - 60_000;
  for (let i = 0; i < n; i += 80) {
    const op = t.kv.atomic();
    for (let j = i; j < Math.min(n, i + 80); j++) {
      const who = authors[j % authors.length];
      const m = buildMessage({
        questionId,
        author: { id: who.id, name: who.name, avatar: null },
        content: `Seeded answer ${j}`,
        createdBy: "user",
      }, { now: start + j * 1_000 });
      writeFirstMessage(op, m);
      ids.push(m.id);
    }
    assert.ok((await op.commit()).ok);
  }
  return ids;
}

/** Most keys one thread page may read: a page of 30 answers is ~200 (records, counters, rows). */
const PAGE_BOUND = 320;

Deno.test("a 2,000-answer question's page reads a page of keys in every order, on later pages, as JSON and as HTML", async () => {
  const t = await createTestApp({ env: UNLIMITED });
  try {
    const [asker, a1, a2, v1, v2] = await Promise.all(
      ["Asker", "Ann", "Abe", "Vi", "Vo"].map((n) => member(t, n)),
    );
    const q = await ask(t, asker, { title: "Two thousand answers, one page at a time" });
    const ids = await seedAnswers(t, q, 2_000, [a1, a2]);
    // Votes and a reply through HTTP: the vote-ordered rows move, a reply total is read.
    await vote(t, v1, "message", ids[1500]);
    await vote(t, v2, "message", ids[1500]);
    await vote(t, v1, "message", ids[700], "down");
    await answer(t, v2, q, "A reply under the most-voted answer", ids[1500]);

    const read: KeysRead = { keys: 0 };
    t.services.kv = keyCountingKv(t.kv, read);
    const costs: string[] = [];
    for (
      const [path, first] of [
        [`/api/questions/${q}`, ids[1500]],
        [`/api/questions/${q}?sort=votes`, ids[1500]],
        [`/api/questions/${q}?sort=votes&page=2`, ids[30]],
        [`/api/questions/${q}?sort=newest`, ids[1999]],
        [`/api/questions/${q}?sort=oldest`, ids[0]],
        [`/api/questions/${q}?sort=oldest&page=5`, ids[120]],
        [`/questions/${q}`, ids[1500]],
        [`/questions/${q}?sort=newest&page=3`, ids[1939]],
        [`/api/questions/${q}?sort=votes&page=67`, ids[700]],
        [`/api/questions/${q}?sort=newest&page=67`, ids[0]],
        [`/api/questions/${q}?sort=oldest&page=66`, ids[1950]],
        [`/questions/${q}?sort=votes&page=66`, ids[1951]],
      ] as const
    ) {
      invalidateReads(t.services.kv); // the one-second thread cache starts cold
      read.keys = 0;
      const res = await t.request(path);
      assert.equal(res.status, 200, path);
      const body = await res.text();
      assert.ok(body.includes(first), `${path} shows ${first}`);
      costs.push(`${path}: ${read.keys}`);
      assert.ok(read.keys <= PAGE_BOUND, `${path} read ${read.keys} keys (2,000 answers)`);
    }
    t.services.kv = t.kv;
    // Every page, read from either end, holds the answers the order puts there.
    const byVotes = [
      ids[1500],
      ...ids.filter((id) => id !== ids[1500] && id !== ids[700]),
      ids[700],
    ];
    const orders = { votes: byVotes, oldest: ids, newest: [...ids].reverse() };
    for (const [sort, order] of Object.entries(orders)) {
      for (const page of [2, 11, 34, 35, 66, 67, 68]) {
        const got = await (await t.request(`/api/questions/${q}?sort=${sort}&page=${page}`)).json();
        const top = (got.messages as { id: string; replyTo?: string }[]).filter((m) => !m.replyTo);
        assert.deepEqual(
          top.map((m) => m.id),
          order.slice((page - 1) * 30, page * 30),
          `${sort} page ${page}`,
        );
      }
    }
    // The thread really is 2,000 answers deep: the whole of it would be ≥ 6,000 keys.
    const all = await (await t.request(`/api/questions/${q}?sort=votes&page=67`)).json();
    assert.equal(all.answerCount, 2_000);
    assert.equal(all.pageCount, 67);
    assert.ok(costs.length === 12, costs.join("; "));
  } finally {
    await t.close();
  }
});

/** `n` followers of `questionId` (`f-<tag>-00001`…), through the domain's follow writer. */
async function seedFollowers(t: TestApp, questionId: string, tag: string, n: number) {
  const ids = Array.from({ length: n }, (_, i) => `f-${tag}-${String(i + 1).padStart(5, "0")}`);
  for (let i = 0; i < ids.length; i += 400) {
    const op = t.kv.atomic();
    for (const id of ids.slice(i, i + 400)) followInOp(op, questionId, id, 1);
    assert.ok((await op.commit()).ok);
  }
  return ids;
}

/**
 * Hold back every commit of a fan-out batch (an op that writes or deletes a fan-out
 * state without writing a message: the answer's own op writes both) until `open`.
 */
function holdFanoutBatches(kv: Deno.Kv) {
  const gate = Promise.withResolvers<void>();
  const stats = { held: 0, inFlight: 0, maxInFlight: 0 };
  const atomic = kv.atomic.bind(kv);
  kv.atomic = () => {
    const op = atomic();
    const touched = new Set<string>();
    for (const name of ["set", "delete", "sum"] as const) {
      const original = op[name].bind(op) as (...a: unknown[]) => Deno.AtomicOperation;
      (op as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
        touched.add(String((args[0] as Deno.KvKey)[0]));
        return original(...args);
      };
    }
    const send = op.commit.bind(op);
    op.commit = async () => {
      if (!touched.has("fanout_jobs") || touched.has("messages")) return await send();
      stats.held++;
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      try {
        await gate.promise;
        return await send();
      } finally {
        stats.inFlight--;
      }
    };
    return op;
  };
  return { stats, open: () => gate.resolve(), restore: () => (kv.atomic = atomic) };
}

Deno.test("answers to questions 2,000 people follow return while their fan-outs are held back; the fan-outs take turns and notify every follower once", async () => {
  const t = await createTestApp({ env: UNLIMITED });
  try {
    const [asker, ann, abe] = await Promise.all(["Asker", "Ann", "Abe"].map((n) => member(t, n)));
    const q1 = await ask(t, asker, { title: "Who follows the first question?" });
    const q2 = await ask(t, asker, { title: "Who follows the second question?" });
    const f1 = await seedFollowers(t, q1, "one", 2_000);
    const f2 = await seedFollowers(t, q2, "two", 2_000);

    const hold = holdFanoutBatches(t.kv);
    let m1: string, m2: string;
    try {
      // Both requests answer while no batch of either fan-out may commit.
      m1 = await answer(t, ann, q1, "An answer two thousand people hear of");
      m2 = await answer(t, abe, q2, "Another answer two thousand people hear of");
      while (hold.stats.held === 0) await new Promise((r) => setTimeout(r, 10));
      // The second fan-out waits for its turn, not beside the first at the store.
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(hold.stats.held, 1, "one batch at a time");
      const early = await Promise.all(
        [f1[0], f1[1999], f2[0]].map((f) => unreadCount(t.kv, f, Date.now())),
      );
      assert.deepEqual(early, [0, 0, 0], "nobody notified while the batches are held");
      assert.equal(
        await unreadCount(t.kv, asker.id, Date.now()),
        2,
        "the asker, in each answer's own op",
      );
    } finally {
      hold.open();
    }
    await waitForJobs(60_000, FANOUT_JOB);
    hold.restore();
    assert.equal(hold.stats.maxInFlight, 1, "the fan-outs' batches never overlapped");
    assert.ok(hold.stats.held >= 40, `${hold.stats.held} batches for 4,000 followers`);
    const counts = await Promise.all([...f1, ...f2].map((f) => unreadCount(t.kv, f, Date.now())));
    const wrong = counts.filter((n) => n !== 1).length;
    assert.equal(wrong, 0, `${wrong} followers not notified exactly once`);
    for (const m of [m1!, m2!]) {
      assert.equal((await t.kv.get(keys.fanoutJob(m))).value, null, "each fan-out ended");
    }
  } finally {
    await t.close();
  }
});
