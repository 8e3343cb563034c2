import assert from "node:assert/strict";
const assertEquals = (a: unknown, b: unknown) => assert.deepEqual(a, b);
import { createTestApp, type TestApp, waitForJobs } from "../helpers/app.ts";
import { answer, ask, getAs, json, member, postAs } from "../helpers/community.ts";
import { type FakeCall, startFakeLlm } from "../helpers/fake_llm.ts";
import { keys } from "@/lib/kv/keys.ts";
import { newPanelOps, panelJobKind } from "@/lib/panel/job.ts";
import { JobRunner, LEASE_MS } from "@/lib/jobs/runner.ts";

interface Msg {
  id: string;
  authorType: string;
  createdBy: string;
  expertId?: string;
  replyTo?: string;
  author: { id: string; name: string };
  content: string;
  draftedWithAi?: true;
}

/** Expert messages read as prose; selection JSON picks two named experts. */
function reply(call: FakeCall) {
  const all = call.messages.map((m) => m.content).join("\n");
  if (all.includes("Pick the 3 experts")) return { text: '{"experts":["omar","ada","mei"]}' };
  if (all.includes('{"ideas"')) {
    return {
      text: JSON.stringify({
        ideas: [1, 2, 3].map((i) => ({
          title: `Idea ${i} about bread?`,
          description: "d",
          tags: ["Bread"],
        })),
      }),
    };
  }
  const who = /You are ([^,]+),/.exec(all)?.[1] ?? "Helper";
  return { text: `${who} thinks the key point is to measure before changing anything.` };
}

async function panelApp(env: Record<string, string> = {}) {
  const llm = startFakeLlm(reply);
  const t = await createTestApp({ env: { ...llm.env, EXPERT_PANEL_PER_DAY: "50", ...env } });
  return { llm, t, close: async () => (await t.close(), await llm.close()) };
}

async function thread(t: TestApp, id: string): Promise<Msg[]> {
  await waitForJobs(undefined, "panel");
  const { body } = await json<{ messages: Msg[]; discussionRounds: number }>(
    t.request(`/api/questions/${id}`),
  );
  return body.messages;
}

Deno.test("a new question gets panel messages from at least two experts, labelled and never counted", async () => {
  const { t, close } = await panelApp();
  try {
    const ada = await member(t, "Ada");
    const id = await ask(t, ada, { title: "How do I store passwords safely?", tags: ["security"] });
    const msgs = await thread(t, id);
    const experts = msgs.filter((m) => m.authorType === "ai");
    assertEquals(experts.length, 6); // 3 experts × 2 rounds
    assert(new Set(experts.map((m) => m.expertId)).size >= 2);
    for (const m of experts) {
      assertEquals(m.createdBy, "system");
      assertEquals(m.author.id, `expert-${m.expertId}`);
    }
    assertEquals(experts.filter((m) => m.replyTo).length, 3); // round 2 answers round 1
    const { body: q } = await json<{ discussionRounds: number }>(t.request(`/api/questions/${id}`));
    assertEquals(q.discussionRounds, 2);
    // No statistic for an expert; no vote by one.
    const stats = await t.kv.get(keys.userStat("expert-omar", "answers"));
    assertEquals(stats.value, null);
    for await (const v of t.kv.list({ prefix: ["votes"] })) {
      assert(!String(v.key[3]).startsWith("expert-"), "an expert voted");
    }
    const page = await (await getAs(t, ada, `/questions/${id}`)).text();
    assert(page.includes("AI expert · "), "label on the page");
  } finally {
    await close();
  }
});

Deno.test("panel: false and the expertPanel setting opt out", async () => {
  const { t, close } = await panelApp();
  try {
    const ada = await member(t, "Ada");
    const a = await postAs(t, ada, "/api/questions", { title: "No panel please", panel: false });
    assertEquals(a.status, 201);
    const id1 = ((await a.json()) as { id: string }).id;
    assertEquals((await thread(t, id1)).length, 0);
    const s = await t.request("/api/profile/settings", {
      method: "PUT",
      headers: {
        cookie: ada.cookie,
        origin: t.services.config.appOrigin,
        "content-type": "application/json",
      },
      body: JSON.stringify({ expertPanel: false }),
    });
    assertEquals(s.status, 200);
    const id2 = await ask(t, ada, { title: "Also no panel" });
    assertEquals((await thread(t, id2)).length, 0);
  } finally {
    await close();
  }
});

Deno.test("replying to an expert gets that expert's reply, at most 3 per thread per hour", async () => {
  const { t, close } = await panelApp();
  try {
    const ada = await member(t, "Ada");
    const id = await ask(t, ada, { title: "Is sourdough healthier?" });
    const first = (await thread(t, id)).find((m) => m.authorType === "ai")!;
    const mine = await answer(t, ada, id, "Why do you say so?", first.id);
    const after = await thread(t, id);
    const back = after.find((m) => m.replyTo === mine)!;
    assertEquals(back.expertId, first.expertId);
    for (let i = 0; i < 3; i++) await answer(t, ada, id, `Again ${i}?`, first.id);
    const last = await thread(t, id);
    const answersToAda = last.filter((m) =>
      m.authorType === "ai" && m.replyTo &&
      last.find((p) => p.id === m.replyTo)?.author.id === ada.id
    );
    assertEquals(answersToAda.length, 3);
  } finally {
    await close();
  }
});

Deno.test("invite an expert: 202, then 409 on a repeat; unknown expert 400", async () => {
  const { t, close } = await panelApp();
  try {
    const ada = await member(t, "Ada");
    const id = await ask(t, ada, { title: "Which law covers this contract?", tags: [] });
    await waitForJobs(undefined, "panel");
    const r = await postAs(t, ada, `/api/questions/${id}/invite`, { expertId: "sofia" });
    assertEquals(r.status, 202);
    assertEquals(
      (await postAs(t, ada, `/api/questions/${id}/invite`, { expertId: "sofia" })).status,
      409,
    );
    assertEquals(
      (await postAs(t, ada, `/api/questions/${id}/invite`, { expertId: "nobody" })).status,
      400,
    );
    assert((await thread(t, id)).some((m) => m.expertId === "sofia" && !m.replyTo));
    const { body } = await json<{ experts: unknown[] }>(t.request("/api/experts"));
    assert(body.experts.length >= 12);
  } finally {
    await close();
  }
});

Deno.test("invite an expert: one already in the thread is refused (409) and left out of the page's list", async () => {
  const { t, close } = await panelApp();
  try {
    const ada = await member(t, "Ada");
    const id = await ask(t, ada, { title: "How should I rotate API keys?", tags: ["security"] });
    const inThread = [...new Set((await thread(t, id)).flatMap((m) => m.expertId ?? []))];
    assertEquals(inThread.sort(), ["ada", "mei", "omar"]);
    for (const expertId of inThread) {
      const r = await postAs(t, ada, `/api/questions/${id}/invite`, { expertId });
      assertEquals(r.status, 409);
      assertEquals(await r.json(), { error: "This expert is already in this question's thread" });
    }
    // The page hands the invite list the experts in the thread; they are not offered.
    const html = await (await getAs(t, ada, `/questions/${id}`)).text();
    const props = html.match(/"inThread":\[([^\]]*)\]/);
    assert(props, "the panel island gets the experts in the thread");
    assertEquals(JSON.parse(`[${props[1]}]`).sort(), inThread);
    assertEquals(
      (await postAs(t, ada, `/api/questions/${id}/invite`, { expertId: "sofia" })).status,
      202,
    );
  } finally {
    await close();
  }
});

Deno.test("drafts and ideas: shapes, drafted-with-AI label, 15 a minute", async () => {
  const { t, close } = await panelApp({ EXPERT_PANEL_PER_DAY: "0" });
  try {
    const ada = await member(t, "Ada");
    const id = await ask(t, ada, { title: "How to bake bread?" });
    const d = await json<{ content: string }>(postAs(t, ada, "/api/ai/draft", { questionId: id }));
    assertEquals(d.status, 200);
    assert(d.body.content.length > 0);
    const posted = await json<Msg>(postAs(t, ada, `/api/questions/${id}/messages`, {
      content: d.body.content + " (edited)",
      aiDraft: d.body.content,
    }));
    assertEquals(posted.body.draftedWithAi, true);
    const rewritten = await json<Msg>(postAs(t, ada, `/api/questions/${id}/messages`, {
      content: "Completely different words written by me alone today.",
      aiDraft: d.body.content,
    }));
    assertEquals(rewritten.body.draftedWithAi, undefined);
    const ideas = await json<{ ideas: { title: string; tags: string[] }[] }>(
      postAs(t, ada, "/api/ai/question-ideas", { keyword: "bread" }),
    );
    assertEquals(ideas.status, 200);
    assertEquals(ideas.body.ideas.length, 3);
    assertEquals((await postAs(t, ada, "/api/ai/question-ideas", { keyword: "x" })).status, 400);
    for (let i = 0; i < 14; i++) {
      await postAs(t, ada, "/api/ai/question-ideas", { keyword: "bread" });
    }
    assertEquals(
      (await postAs(t, ada, "/api/ai/question-ideas", { keyword: "bread" })).status,
      429,
    );
    assertEquals((await postAs(t, null, "/api/ai/draft", { questionId: id })).status, 401);
  } finally {
    await close();
  }
});

Deno.test("budget exhaustion: the panel does not join and says so quietly", async () => {
  const { t, llm, close } = await panelApp({ EXPERT_PANEL_PER_DAY: "1" });
  try {
    const ada = await member(t, "Ada");
    const id1 = await ask(t, ada, { title: "First question today" });
    assert((await thread(t, id1)).length > 0);
    const calls = llm.calls.length;
    const id2 = await ask(t, ada, { title: "Second question today" });
    assertEquals((await thread(t, id2)).length, 0);
    assertEquals(llm.calls.length, calls);
    const res = await t.request(`/api/questions/${id2}/panel/events`);
    const text = await res.text();
    assert(text.includes("event: skipped") && text.includes("event: done"), text);
  } finally {
    await close();
  }
});

Deno.test("a burst of new questions starts exactly the day's budget of panels, no more", async () => {
  const { t, close } = await panelApp({ EXPERT_PANEL_PER_DAY: "4" });
  try {
    const askers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => member(t, `Asker ${i}`)),
    );
    const ids = await Promise.all(
      askers.map((a, i) => ask(t, a, { title: `Burst question number ${i}` })),
    );
    let withPanel = 0;
    for (const id of ids) if ((await thread(t, id)).length > 0) withPanel++;
    assertEquals(withPanel, 4);
    // The day stays spent: one more question gets none.
    const late = await ask(t, askers[0], { title: "After the burst" });
    assertEquals((await thread(t, late)).length, 0);
  } finally {
    await close();
  }
});

Deno.test("two instances on one store share the day's budget exactly under a burst", async () => {
  const dir = await Deno.makeTempDir();
  const kvPath = `${dir}/kv.sqlite3`;
  const llm = startFakeLlm(reply);
  const env = { ...llm.env, EXPERT_PANEL_PER_DAY: "5" };
  const a = await createTestApp({ env, kvPath });
  const b = await createTestApp({ env, kvPath });
  try {
    const ids = await Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        const t = i % 2 ? a : b;
        return { t, id: await ask(t, await member(t, `Asker ${i}`), { title: `Shared ${i}` }) };
      }),
    );
    let withPanel = 0;
    for (const { t, id } of ids) if ((await thread(t, id)).length > 0) withPanel++;
    assertEquals(withPanel, 5);
  } finally {
    await a.close();
    await b.close();
    await llm.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a killed process's panel completes after restart (its job's lease lapses, a resume pass continues it)", async () => {
  const dir = await Deno.makeTempDir();
  const kvPath = `${dir}/kv.sqlite3`;
  const llm = startFakeLlm(reply);
  try {
    const env = { ...llm.env, EXPERT_PANEL_PER_DAY: "50" };
    let t = await createTestApp({ env: { ...env, EXPERT_PANEL_PER_DAY: "0" }, kvPath });
    const ada = await member(t, "Ada");
    const id = await ask(t, ada, {
      title: "What breaks when a process dies?",
      description: "crash",
    });
    await waitForJobs(undefined, "panel");
    // A panel that a dead instance holds, its lease long lapsed.
    const dead = new JobRunner(t.kv, { owner: "dead-instance", now: () => Date.now() - 120_000 });
    const op = t.kv.atomic();
    newPanelOps(op, id, dead);
    assert((await op.commit()).ok);
    await t.close();
    t = await createTestApp({ env, kvPath });
    const runner = new JobRunner(t.kv, { owner: "restarted" }).register(
      panelJobKind(t.services),
    );
    const taken = await runner.pass();
    assertEquals(taken, [`panel/${id}`]);
    await runner.waitIdle(10_000);
    await runner.shutdown();
    assert(LEASE_MS < 120_000);
    const msgs = await thread(t, id);
    assertEquals(msgs.filter((m) => m.authorType === "ai").length, 6);
    await t.close();
  } finally {
    await llm.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the /ask form starts the panel when its box is ticked, none when unticked or off in settings", async () => {
  const { t, close } = await panelApp();
  try {
    const ada = await member(t, "Ada");
    const submit = async (fields: Record<string, string>) => {
      const res = await t.request("/ask", {
        method: "POST",
        headers: {
          cookie: ada.cookie,
          origin: t.services.config.appOrigin,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ idempotencyKey: crypto.randomUUID(), ...fields }),
        redirect: "manual",
      });
      assertEquals(res.status, 303);
      return decodeURIComponent(/\/questions\/([^?]+)/.exec(res.headers.get("location")!)![1]);
    };
    const page = await (await getAs(t, ada, "/ask")).text();
    assert(page.includes('name="panel"') && page.includes("checked"), "the box, ticked");
    const on = await submit({
      title: "How long should bread proof?",
      panelChoice: "1",
      panel: "1",
    });
    assert((await thread(t, on)).filter((m) => m.authorType === "ai").length >= 2);
    const off = await submit({ title: "How warm should bread proof?", panelChoice: "1" });
    assertEquals((await thread(t, off)).length, 0);
    await t.request("/api/profile/settings", {
      method: "PUT",
      headers: {
        cookie: ada.cookie,
        origin: t.services.config.appOrigin,
        "content-type": "application/json",
      },
      body: JSON.stringify({ expertPanel: false }),
    });
    const again = await (await getAs(t, ada, "/ask")).text();
    assert(again.includes("Turned off (in your settings"));
    const blocked = await submit({
      title: "How cold should bread proof?",
      panelChoice: "1",
      panel: "1",
    });
    assertEquals((await thread(t, blocked)).length, 0);
  } finally {
    await close();
  }
});

Deno.test("votes, favorites and a moderator's delete of an expert message move no expert-… statistic, badge or activity", async () => {
  const { t, close } = await panelApp();
  try {
    const ada = await member(t, "Ada");
    const mod = await member(t, "Mod");
    t.services.config.moderators = [mod.id];
    const id = await ask(t, ada, { title: "How do I store passwords safely?" });
    const experts = (await thread(t, id)).filter((m) => m.authorType === "ai");
    const [first, second] = experts;
    const like = await postAs(t, ada, "/api/likes", {
      targetId: first.id,
      targetType: "message",
      voteType: "up",
    });
    assertEquals(like.status, 200);
    const fav = await postAs(t, ada, "/api/favorites", {
      targetId: first.id,
      targetType: "message",
    });
    assert(fav.status === 200 || fav.status === 201, String(fav.status));
    const del = await t.request(`/api/messages/${second.id}`, {
      method: "DELETE",
      headers: { cookie: mod.cookie, origin: t.services.config.appOrigin },
    });
    assertEquals(del.status, 200);
    const { body } = await json<{ messages: Msg[] }>(t.request(`/api/questions/${id}`));
    const liked = body.messages.find((m) => m.id === first.id) as Msg & { upvotes: number };
    assertEquals(liked.upvotes, 1); // the count on the message moves
    for (const prefix of [["user_stats"], ["badges"], ["messages_by_author"]]) {
      for await (const e of t.kv.list({ prefix })) {
        assert(!String(e.key[1]).startsWith("expert-"), `${e.key.join("/")} for an expert`);
      }
    }
    const stats = await json<Record<string, unknown>>(
      t.request(`/api/profile/public/${first.author.id}`),
    );
    assert(
      stats.status === 404 || stats.status === 400,
      `no profile for an expert: ${stats.status}`,
    );
  } finally {
    await close();
  }
});

Deno.test("the asker cannot accept an AI expert's message: 400, no Accept button, still unanswered", async () => {
  const { t, close } = await panelApp();
  try {
    const ada = await member(t, "Ada");
    const id = await ask(t, ada, { title: "Can an expert's message be accepted?" });
    const expert = (await thread(t, id)).find((m) => m.authorType === "ai" && !m.replyTo)!;
    const refused = await json<{ error: string }>(
      postAs(t, ada, `/api/questions/${id}/accept`, { messageId: expert.id }),
    );
    assertEquals([refused.status, refused.body.error], [
      400,
      "An AI expert's message is not an answer: accept an answer by a person or their agent",
    ]);
    const { body: q } = await json<{ acceptedMessageId: string | null }>(
      t.request(`/api/questions/${id}`),
    );
    assertEquals(q.acceptedMessageId, null);
    const unanswered = await json<{ questions: { id: string }[] }>(
      t.request("/api/questions?filter=unanswered"),
    );
    assert(unanswered.body.questions.some((x) => x.id === id), "still unanswered");
    // The page offers Accept on a person's answer only.
    const bob = await member(t, "Bob");
    await answer(t, bob, id, "A person's answer");
    const html = await (await getAs(t, ada, `/questions/${id}`)).text();
    assertEquals(html.match(/accept-btn(" | is-accepted")/g)?.length, 1);
  } finally {
    await close();
  }
});
