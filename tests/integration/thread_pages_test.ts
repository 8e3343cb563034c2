/**
 * Paged threads: 30 top-level answers per page with their replies (at most 50 per answer)
 * on `GET /api/questions/:id` and `/questions/:id`, with the totals; out-of-range pages
 * are empty with the totals; a bad page is 400 on the API and the first page on the page;
 * older threads without the answer index still show.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { answer, ask, getAs, json, member } from "../helpers/community.ts";
import { keys } from "@/lib/kv/keys.ts";

const UNLIMITED = { LIMIT_MESSAGES_PER_HOUR: "0", LIMIT_QUESTIONS_PER_HOUR: "0" };

async function withApp(fn: (t: TestApp) => Promise<void>) {
  let clock = 1_900_000_000_000;
  const t = await createTestApp({ now: () => (clock += 10), env: UNLIMITED });
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

Deno.test("GET /api/questions/:id pages 30 top-level answers with their replies and the totals", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const q = await ask(t, ada, { title: "A long thread" });
    const answers: string[] = [];
    for (let i = 0; i < 65; i++) answers.push(await answer(t, bob, q, `Answer ${i}`));
    const reply = await answer(t, ada, q, "A reply to answer 31", answers[31]);
    await answer(t, bob, q, "A reply to the reply", reply);

    const p1 = await json(t.request(`/api/questions/${q}`));
    assert.equal(p1.status, 200);
    assert.equal(p1.body.messageCount, 67, "the whole thread's count, as before");
    assert.equal(p1.body.answerCount, 65);
    assert.equal(p1.body.page, 1);
    assert.equal(p1.body.pageCount, 3);
    const m1 = p1.body.messages as { id: string; content: string }[];
    assert.equal(m1.length, 30);
    assert.equal(m1[0].content, "Answer 0");

    const p2 = await json(t.request(`/api/questions/${q}?page=2`));
    const m2 = p2.body.messages as { id: string; replyTo?: string }[];
    assert.equal(m2.length, 32, "30 answers plus answer 31's two replies (any depth)");
    // Each answer is followed by its replies, in time order (answers by sort).
    assert.deepEqual(m2.slice(0, 2).map((m) => m.id), [answers[30], answers[31]]);
    assert.equal(m2[2].id, reply);
    assert.equal(m2[3].replyTo, reply);
    assert.deepEqual(
      (p2.body.replyCounts as { answerId: string; replies: number }[]).find((r) =>
        r.answerId === answers[31]
      ),
      { answerId: answers[31], replies: 2 },
    );

    const p3 = await json(t.request(`/api/questions/${q}?page=3`));
    assert.equal((p3.body.messages as unknown[]).length, 5);
    const past = await json(t.request(`/api/questions/${q}?page=9`));
    assert.equal(past.status, 200);
    assert.deepEqual(past.body.messages, []);
    assert.equal(past.body.answerCount, 65);
    assert.equal(past.body.pageCount, 3);

    for (const bad of ["0", "-1", "abc", "1.5"]) {
      const r = await json(t.request(`/api/questions/${q}?page=${bad}`));
      assert.equal(r.status, 400, bad);
      assert.match(String(r.body.error), /page/);
    }
  });
});

Deno.test("replies under one answer are bounded at 50 per page, the rest behind ?answer=&replyPage=", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const q = await ask(t, ada, { title: "Many replies here" });
    const a = await answer(t, ada, q, "The answer");
    for (let i = 0; i < 53; i++) await answer(t, ada, q, `Reply ${i}`, a);
    const page = await json(t.request(`/api/questions/${q}`));
    assert.equal((page.body.messages as unknown[]).length, 51);
    assert.deepEqual(page.body.replyCounts, [{ answerId: a, replies: 53 }]);
    const rest = await json(t.request(`/api/questions/${q}?answer=${a}&replyPage=2`));
    const msgs = rest.body.messages as { id: string; content: string }[];
    assert.deepEqual(msgs.map((m) => m.content), [
      "The answer",
      "Reply 50",
      "Reply 51",
      "Reply 52",
    ]);

    // An answer the question does not hold is a 404, not an empty page: unknown, a reply,
    // another question's answer.
    const reply = msgs[1] as { id: string };
    const other = await ask(t, ada, { title: "Another question" });
    const elsewhere = await answer(t, ada, other, "Elsewhere");
    for (const id of ["msg-nope", reply.id, elsewhere]) {
      const missing = await json(t.request(`/api/questions/${q}?answer=${id}`));
      assert.deepEqual(
        [missing.status, missing.body],
        [404, { error: "Answer not found in this question" }],
        id,
      );
    }

    const html = await (await getAs(t, null, `/questions/${q}`)).text();
    assert.match(html, /Showing 50 of 53 replies/);
    assert.match(
      html,
      new RegExp(`href="/questions/${q}\\?answer=${a}&amp;replyPage=2#answers-heading"`),
    );
  });
});

Deno.test("/questions/:id shows page links (prev/next and numbers) and treats a bad page sanely", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const q = await ask(t, ada, { title: "Paged on the page" });
    for (let i = 0; i < 61; i++) await answer(t, ada, q, `Answer number ${i}`);
    const first = await (await getAs(t, null, `/questions/${q}`)).text();
    assert.match(first, /61 answers/);
    assert.match(first, /data-testid="thread-pager"/);
    assert.match(first, /aria-current="page"[^>]*>1</);
    assert.match(first, new RegExp(`href="/questions/${q}\\?page=2#answers-heading" rel="next"`));
    assert.doesNotMatch(first, /Answer number 30</);
    const second = await (await getAs(t, null, `/questions/${q}?page=2`)).text();
    assert.match(second, /Answer number 30</);
    assert.match(second, /rel="prev"/);
    const bad = await getAs(t, null, `/questions/${q}?page=banana`);
    assert.equal(bad.status, 200);
    assert.match(await bad.text(), /Answer number 0</);
    const past = await getAs(t, null, `/questions/${q}?page=99`);
    assert.equal(past.status, 200);
    assert.match(await past.text(), /No answers on this page/);
  });
});

Deno.test("a thread written before the answer index still shows (read whole, paged in memory)", async () => {
  await withApp(async (t) => {
    const ada = await member(t, "Ada");
    const q = await ask(t, ada, { title: "An old thread" });
    const a = await answer(t, ada, q, "Old answer");
    await answer(t, ada, q, "Old reply", a);
    // Remove what the new write path adds, as data from before it would lack it.
    for (
      const prefix of [["question_answers"], ["answer_counts"], ["answer_replies"], [
        "reply_counts",
      ]]
    ) {
      for await (const e of t.kv.list({ prefix })) await t.kv.delete(e.key);
    }
    assert.equal((await t.kv.get(keys.answerCount(q))).versionstamp, null);
    const page = await json(t.request(`/api/questions/${q}`));
    assert.equal(page.body.answerCount, 1);
    assert.deepEqual((page.body.messages as { content: string }[]).map((m) => m.content), [
      "Old answer",
      "Old reply",
    ]);
  });
});
