/**
 * The AI expert panel's messages (`authorType: "ai"`) are not answers, through the HTTP
 * surface with the panel on (EXPERT_PANEL_PER_DAY) and a fake model on loopback: a question
 * the panel discussed stays "Unanswered" and counts 0 answers in every list, keeps the
 * sidebar's "Answer something" pick, and nobody hears of a "new answer"; the thread still
 * pages every top-level message. A person's answer — or their agent's — counts.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp, waitForJobs } from "../helpers/app.ts";
import {
  agentCall,
  agentKey,
  answer,
  ask,
  getAs,
  json,
  type Member,
  member,
  postAs,
} from "../helpers/community.ts";
import { type FakeCall, startFakeLlm } from "../helpers/fake_llm.ts";
import { check, repairClean } from "../helpers/fsck.ts";

function reply(call: FakeCall) {
  const all = call.messages.map((m) => m.content).join("\n");
  if (all.includes("Pick the 3 experts")) return { text: '{"experts":["omar","ada","mei"]}' };
  const who = /You are ([^,]+),/.exec(all)?.[1] ?? "Helper";
  return { text: `${who} thinks the key point is to measure before changing anything.` };
}

interface Summary {
  id: string;
  answerCount: number;
  messageCount: number;
}

async function withPanel(fn: (t: TestApp) => Promise<void>) {
  const llm = startFakeLlm(reply);
  const t = await createTestApp({
    env: { ...llm.env, EXPERT_PANEL_PER_DAY: "50", LIMIT_MESSAGES_PER_HOUR: "0" },
  });
  try {
    await fn(t);
  } finally {
    await t.close();
    await llm.close();
  }
}

async function listed(t: TestApp, query: string): Promise<Summary[]> {
  const r = await json<{ questions: Summary[] }>(t.request(`/api/questions?${query}`));
  assert.equal(r.status, 200);
  return r.body.questions;
}

async function answerNotifications(t: TestApp, who: Member): Promise<unknown[]> {
  const r = await json<{ notifications: { type: string }[] }>(
    getAs(t, who, "/api/notifications"),
  );
  return r.body.notifications.filter((n) => n.type === "answer");
}

Deno.test("a question only the AI panel discussed is unanswered everywhere and notifies nobody of an answer", async () => {
  await withPanel(async (t) => {
    const ada = await member(t, "Ada");
    const cat = await member(t, "Cat");
    const q = await ask(t, ada, { title: "How do I keep sourdough starter alive?" });
    const follow = await postAs(t, cat, `/api/questions/${q}/follow`, {});
    assert.equal(follow.status, 200);
    await follow.body?.cancel();
    await waitForJobs(undefined, "panel");

    const view = await json<
      Summary & { messages: { authorType: string }[]; pageCount: number }
    >(t.request(`/api/questions/${q}`));
    assert.ok(view.body.messages.length >= 3, "the panel wrote");
    assert.ok(view.body.messages.every((m) => m.authorType === "ai"));
    assert.equal(view.body.messageCount, view.body.messages.length, "messages are messages");
    assert.equal(view.body.answerCount, 0, "but not answers");
    assert.equal(view.body.pageCount, 1);

    // Lists: 0 answers; the Unanswered filter and is:unanswered keep it.
    assert.equal((await listed(t, "sort=new")).find((s) => s.id === q)?.answerCount, 0);
    assert.equal((await listed(t, "sort=hot")).find((s) => s.id === q)?.answerCount, 0);
    assert.ok((await listed(t, "filter=unanswered")).some((s) => s.id === q));
    const similar = await json<{ questions: { id: string; answerCount: number }[] }>(
      t.request(`/api/questions/similar?title=${encodeURIComponent("sourdough starter alive")}`),
    );
    assert.equal(similar.body.questions.find((s) => s.id === q)?.answerCount, 0);
    // The home page: "0 answers", and the sidebar still offers it to answer.
    const home = await (await t.request("/")).text();
    assert.match(home, /<strong>0<\/strong> answers/);
    assert.doesNotMatch(home, /Every recent question has an answer/);
    assert.match(home, /data-testid="random-unanswered"/);
    // The question page: no answers yet, the panel's messages shown.
    const page = await (await t.request(`/questions/${q}`)).text();
    assert.match(page, /id="answers-heading">No answers yet</);
    assert.match(page, /AI expert · /);
    // Nobody heard of a new answer: not the asker, not a follower.
    assert.deepEqual(await answerNotifications(t, ada), []);
    assert.deepEqual(await answerNotifications(t, cat), []);

    // A person's answer counts, and notifies.
    const bob = await member(t, "Bob");
    await answer(t, bob, q, "Feed it flour and water daily.");
    const after = await json<Summary>(t.request(`/api/questions/${q}`));
    assert.equal(after.body.answerCount, 1);
    assert.ok(!(await listed(t, "filter=unanswered")).some((s) => s.id === q));
    assert.equal((await answerNotifications(t, ada)).length, 1);
    assert.equal((await answerNotifications(t, cat)).length, 1);
    const heading = await (await t.request(`/questions/${q}`)).text();
    assert.match(heading, /id="answers-heading">1 answer( ·|<)/);
    // The consistency check agrees: the panel's messages are counted apart, not as answers.
    const report = await check(t.kv);
    assert.ok(report.clean, report.lines().join("\n"));
  });
});

Deno.test("an agent answering for its person counts as that person's answer", async () => {
  await withPanel(async (t) => {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const res = await postAs(t, ada, "/api/questions", { title: "Tabs or spaces?", panel: false });
    const q = ((await res.json()) as { id: string }).id;
    const key = await agentKey(t, bob);
    const r = await agentCall(t, key, `/api/agent/questions/${q}/reply`, {
      body: { content: "Spaces, for diffs that read the same everywhere." },
    });
    assert.equal(r.status, 201);
    await r.body?.cancel();
    const view = await json<Summary>(t.request(`/api/questions/${q}`));
    assert.equal(view.body.answerCount, 1);
    assert.ok(!(await listed(t, "filter=unanswered")).some((s) => s.id === q));
    assert.equal((await answerNotifications(t, ada)).length, 1);
  });
});

Deno.test("the thread pages every top-level message, the panel's included, while answerCount counts people's", async () => {
  await withPanel(async (t) => {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const q = await ask(t, ada, { title: "Which bread flour for a beginner?" });
    await waitForJobs(undefined, "panel");
    const first = await json<{ messages: { replyTo?: string }[] }>(
      t.request(`/api/questions/${q}`),
    );
    const panelTop = first.body.messages.filter((m) => !m.replyTo).length;
    assert.ok(panelTop >= 1);
    const people = 31 - panelTop; // 31 top-level messages in all: two pages of 30
    for (let i = 0; i < people; i++) await answer(t, bob, q, `Answer number ${i}`);
    const p1 = await json<
      { answerCount: number; pageCount: number; messages: { replyTo?: string }[] }
    >(
      t.request(`/api/questions/${q}?sort=oldest`),
    );
    assert.equal(p1.body.answerCount, people);
    assert.equal(p1.body.pageCount, 2);
    const p2 = await json<{ messages: { content: string; replyTo?: string }[] }>(
      t.request(`/api/questions/${q}?sort=oldest&page=2`),
    );
    const top2 = p2.body.messages.filter((m) => !m.replyTo);
    assert.deepEqual(top2.map((m) => m.content), [`Answer number ${people - 1}`]);
  });
});

Deno.test("the answers heading counts people's replies, not the panel's replies to each other or to people", async () => {
  await withPanel(async (t) => {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const cat = await member(t, "Cat");
    const q = await ask(t, ada, { title: "How long should bread dough rest?" });
    await waitForJobs(undefined, "panel");
    type Msg = { id: string; replyTo?: string; authorType: string };
    const panel = await json<{ messages: Msg[] }>(t.request(`/api/questions/${q}`));
    const aiReplies = panel.body.messages.filter((m) => m.replyTo && m.authorType === "ai");
    assert.ok(aiReplies.length >= 1, "the panel's second round replies to the first");

    // One answer by a person, two replies to it, and a person's reply to an expert, which
    // the expert answers: 3 people's replies, however many the panel wrote.
    const a = await answer(t, bob, q, "An hour at room temperature.");
    await answer(t, cat, q, "Longer in a cold kitchen.", a);
    await answer(t, ada, q, "Thanks, that helped.", a);
    const expertRoot = panel.body.messages.find((m) => !m.replyTo)!;
    await answer(t, cat, q, "Why measure first?", expertRoot.id);
    await waitForJobs(undefined, "panel");
    const after = await json<{ messages: Msg[]; messageCount: number }>(
      t.request(`/api/questions/${q}`),
    );
    const aiAfter = after.body.messages.filter((m) => m.authorType === "ai");
    assert.ok(aiAfter.length > panel.body.messages.length, "the expert answered Cat");
    const page = await (await t.request(`/questions/${q}`)).text();
    assert.match(page, /id="answers-heading">1 answer · 3 replies</);

    // The panel's reply counter is one fsck keeps: dropped, the repair restores it.
    assert.ok((await check(t.kv)).clean);
    await t.kv.delete(["ai_reply_counts", q]);
    const found = await repairClean(t.kv);
    assert.ok(found.problems >= 1, "the missing counter is a problem the check finds");
    const counter = await t.kv.get<Deno.KvU64>(["ai_reply_counts", q]);
    assert.equal(Number(counter.value?.value), aiAfter.filter((m) => m.replyTo).length);
  });
});
