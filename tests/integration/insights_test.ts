/**
 * Opinion maps and thread summaries through the HTTP surface, with a fake model on
 * loopback that answers like the stand-in (plus junk the server must repair): null under
 * the thresholds, written by the job and validated against the contract's schema,
 * refreshed on growth and not before, never showing a hidden answer, refused or limited
 * without a 5xx, and one generation when two instances ask at once.
 */
import assert from "node:assert/strict";
import { addMessage } from "@/lib/community/messages/write.ts";
import { composeInsight } from "@/lib/llm/standin/insights.ts";
import {
  MAP_NODES_MAX,
  MapResponse,
  type MapResponseValue,
  SummaryResponse,
  type SummaryResponseValue,
  ThreadInsights,
} from "@/lib/schemas/insights.ts";
import { toolText, withMcp } from "../helpers/mcp.ts";
import { createTestApp, type TestApp, waitForJobs } from "../helpers/app.ts";
import { answer, ask, getAs, json, type Member, member, postAs } from "../helpers/community.ts";
import { type FakeCall, type FakeReply, startFakeLlm } from "../helpers/fake_llm.ts";

const VIEWS = [
  "Yes, you should use it because it saves time.",
  "No, avoid it: it is never worth the risk.",
  "It depends on the team size and the deadline.",
  "Yes, I recommend it too, and it is also cheaper.",
  "Never do that, it is a bad idea for beginners.",
  "Definitely yes, we use it every day.",
  "Only if you have tests, otherwise no.",
  "Agree with the others, it is worth it.",
  "I would not, because maintenance costs grow.",
  "Yes, go for it, the docs are good.",
  "It depends on your budget.",
  "No, stop: the old way works.",
  "Yes, also because hiring is easier.",
];

function taskOf(call: FakeCall): "map" | "summary" | null {
  const user = call.messages.filter((m) => m.role === "user").map((m) => m.content).join("\n");
  if (user.includes("Task: opinion map")) return "map";
  if (user.includes("Task: thread summary")) return "summary";
  return null;
}

/**
 * The stand-in's map and summary, with junk a careless model writes: a node for an answer
 * it was not shown, an edge to no node, a cluster naming an unknown label, a bad relation,
 * and a summary citing a label that does not exist.
 */
function modelReply(call: FakeCall): FakeReply {
  const user = call.messages.filter((m) => m.role === "user").map((m) => m.content).join("\n");
  const text = composeInsight(user);
  if (!text) return { text: "{}" };
  const value = JSON.parse(text);
  if (taskOf(call) === "map") {
    value.nodes.push({ id: "n77", answer: "A77", stance: "support", summary: "ghost" });
    value.edges.push({ source: "n1", target: "n99", relation: "support", reason: "nobody" });
    value.edges.push({ source: "n1", target: "n2", relation: "loves", reason: "bad relation" });
    value.clusters.push({ label: "Ghosts", stance: "oppose", nodeIds: ["A77"], summary: "" });
  } else {
    value.text += " Someone else disagrees [A99].";
  }
  return { text: JSON.stringify(value) };
}

interface World {
  t: TestApp;
  llm: ReturnType<typeof startFakeLlm>;
  asker: Member;
  people: Member[];
  close(): Promise<void>;
}

async function world(
  env: Record<string, string> = {},
  reply: (call: FakeCall) => FakeReply = modelReply,
): Promise<World> {
  const llm = startFakeLlm(reply);
  const t = await createTestApp({ env: { ...llm.env, ...env } });
  const asker = await member(t, "Asker");
  const people = await Promise.all(VIEWS.map((_, i) => member(t, `Person ${i + 1}`)));
  return {
    t,
    llm,
    asker,
    people,
    close: async () => {
      await t.close();
      await llm.close();
    },
  };
}

async function answers(w: World, qid: string, from: number, to: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = from; i < to; i++) ids.push(await answer(w.t, w.people[i], qid, VIEWS[i]));
  return ids;
}

async function getMap(t: TestApp, qid: string, who: Member | null = null) {
  const res = await json<MapResponseValue>(getAs(t, who, `/api/questions/${qid}/map`));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return MapResponse.parse(res.body);
}

async function getSummary(t: TestApp, qid: string, who: Member | null = null) {
  const res = await json<SummaryResponseValue>(getAs(t, who, `/api/questions/${qid}/summary`));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return SummaryResponse.parse(res.body);
}

const calls = (w: World, task: "map" | "summary") =>
  w.llm.calls.filter((c) => taskOf(c) === task).length;

Deno.test("map: null under 3 answers; written by the job at 3 and valid against the contract; kept at +1; rewritten at +2", async () => {
  const w = await world();
  try {
    const qid = await ask(w.t, w.asker, { title: "Should we adopt the new framework" });
    const first = await answers(w, qid, 0, 2);
    const few = await getMap(w.t, qid);
    assert.equal(few.map, null);
    assert.equal(few.status, "too_few_answers");
    assert.equal(few.messageCount, 2);
    assert.equal(few.aiGenerated, true);
    await waitForJobs();
    assert.equal(calls(w, "map"), 0, "no model call under 3 answers");

    const third = await answers(w, qid, 2, 3);
    const pending = await getMap(w.t, qid);
    assert.equal(pending.status, "generating");
    assert.equal(pending.map, null);
    await waitForJobs();
    const made = await getMap(w.t, qid);
    assert.equal(made.status, "ready");
    assert.ok(made.map);
    assert.equal(made.messageCount, 3);
    assert.equal(typeof made.generatedAt, "number");
    const ids = [...first, ...third];
    assert.deepEqual(made.map.nodes.map((n) => n.messageId).sort(), [...ids].sort());
    // The stand-in's stances from the answers' words; the junk is gone.
    const stance = new Map(made.map.nodes.map((n) => [n.messageId, n.stance]));
    assert.equal(stance.get(ids[0]), "support");
    assert.equal(stance.get(ids[1]), "oppose");
    assert.equal(stance.get(ids[2]), "conditional");
    const nodeIds = new Set(made.map.nodes.map((n) => n.id));
    for (const e of made.map.edges) assert.ok(nodeIds.has(e.source) && nodeIds.has(e.target));
    assert.ok(!made.map.clusters.some((c) => c.label === "Ghosts"), "the unknown cluster dropped");
    assert.ok(!made.map.edges.some((e) => e.reason === "bad relation"));
    assert.equal(calls(w, "map"), 1);

    // One more answer: not enough growth, the same map, no job.
    await answers(w, qid, 3, 4);
    const kept = await getMap(w.t, qid);
    assert.equal(kept.status, "ready");
    assert.equal(kept.messageCount, 3);
    assert.equal(kept.generatedAt, made.generatedAt);
    await waitForJobs();
    assert.equal(calls(w, "map"), 1, "growth by 1 does not rewrite the map");

    // A second one: rewritten, the old map served meanwhile.
    await answers(w, qid, 4, 5);
    const stale = await getMap(w.t, qid);
    assert.equal(stale.status, "generating");
    assert.equal(stale.map?.nodes.length, 3, "the cached map is served while a new one is written");
    await waitForJobs();
    const grown = await getMap(w.t, qid);
    assert.equal(grown.status, "ready");
    assert.equal(grown.messageCount, 5);
    assert.equal(grown.map?.nodes.length, 5);
    assert.equal(calls(w, "map"), 2);
  } finally {
    await w.close();
  }
});

Deno.test("summary: null under 8 answers (the AI panel's messages do not count); cached; rewritten after 3 more and when an answer is accepted; cites link to answers", async () => {
  const w = await world();
  try {
    const qid = await ask(w.t, w.asker, { title: "Is the framework worth it for a small team" });
    const ids = await answers(w, qid, 0, 7);
    // An AI expert's message is not an answer.
    const ai = await addMessage(w.t.kv, {
      questionId: qid,
      author: { id: "expert:omar", name: "Omar (AI)", avatar: null },
      content: "Yes, as an AI expert I agree.",
      createdBy: "system",
      authorType: "ai",
      expertId: "omar",
    });
    assert.ok(ai.ok);
    const few = await getSummary(w.t, qid);
    assert.equal(few.summary, null);
    assert.equal(few.status, "too_few_answers");
    await waitForJobs();
    assert.equal(calls(w, "summary"), 0);

    ids.push(...await answers(w, qid, 7, 8));
    assert.equal((await getSummary(w.t, qid)).status, "generating");
    await waitForJobs();
    const made = await getSummary(w.t, qid);
    assert.equal(made.status, "ready");
    assert.ok(made.summary);
    assert.equal(made.messageCount, 8);
    assert.ok(made.summary.cites.length > 0);
    for (const c of made.summary.cites) assert.ok(ids.includes(c), `cites an answer: ${c}`);
    assert.ok(!/\[A\d+\]/.test(made.summary.text), "labels became [n] markers");
    const markers = [...made.summary.text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    assert.ok(markers.every((n) => n >= 1 && n <= made.summary!.cites.length));
    assert.ok(!made.summary.text.includes("A99"), "the unknown citation dropped");
    assert.equal(calls(w, "summary"), 1);

    // Two more: cached.
    await answers(w, qid, 8, 10);
    const kept = await getSummary(w.t, qid);
    assert.equal(kept.status, "ready");
    assert.equal(kept.generatedAt, made.generatedAt);
    await waitForJobs();
    assert.equal(calls(w, "summary"), 1);
    // A third: rewritten.
    await answers(w, qid, 10, 11);
    assert.equal((await getSummary(w.t, qid)).status, "generating");
    await waitForJobs();
    const grown = await getSummary(w.t, qid);
    assert.equal(grown.messageCount, 11);
    assert.equal(calls(w, "summary"), 2);
    // Accepting an answer rewrites it with that answer's point.
    const accept = await postAs(w.t, w.asker, `/api/questions/${qid}/accept`, {
      messageId: ids[2],
    });
    assert.equal(accept.status, 200, await accept.text());
    assert.equal((await getSummary(w.t, qid)).status, "generating");
    await waitForJobs();
    const accepted = await getSummary(w.t, qid);
    assert.ok(accepted.summary?.text.includes("accepted answer"));
    assert.ok(accepted.summary?.cites.includes(ids[2]));
    assert.equal(calls(w, "summary"), 3);
  } finally {
    await w.close();
  }
});

Deno.test("insights: a hidden answer leaves the map at once and the summary until rewritten; neither shows its text", async () => {
  const w = await world();
  try {
    const mod = await member(w.t, "Mo");
    w.t.services.config.moderators = [mod.id];
    const qid = await ask(w.t, w.asker, { title: "Should we adopt the framework now" });
    const ids = await answers(w, qid, 0, 9);
    await getMap(w.t, qid);
    await waitForJobs();
    const before = await getMap(w.t, qid);
    assert.ok(before.map?.nodes.some((n) => n.messageId === ids[4]));
    assert.ok((await getSummary(w.t, qid)).summary);
    const hide = await postAs(w.t, mod, "/api/mod/actions", {
      targetType: "message",
      targetId: ids[4],
      action: "hide",
    });
    assert.equal(hide.status, 200, await hide.text());
    const secret = "bad idea for beginners"; // the hidden answer's words
    const mapBody = await (await getAs(w.t, null, `/api/questions/${qid}/map`)).text();
    const map = MapResponse.parse(JSON.parse(mapBody));
    assert.ok(map.map, "the rest of the map is still served");
    assert.ok(!map.map.nodes.some((n) => n.messageId === ids[4]));
    assert.ok(!mapBody.includes(secret));
    assert.equal(map.status, "generating");
    const summary = await getSummary(w.t, qid);
    assert.equal(summary.summary, null, "a summary made from a hidden answer is not served");
    await waitForJobs();
    const after = await getMap(w.t, qid);
    assert.equal(after.status, "ready");
    assert.equal(after.messageCount, 8);
    assert.ok(!JSON.stringify(after).includes(secret));
    const rewritten = await getSummary(w.t, qid);
    assert.ok(rewritten.summary);
    assert.ok(!rewritten.summary.cites.includes(ids[4]));
    // The page says nothing of it either.
    const page = await (await getAs(w.t, null, `/questions/${qid}`)).text();
    assert.ok(!page.includes(secret));
  } finally {
    await w.close();
  }
});

Deno.test("insights: unknown question 404; a hidden question 404 to others, served to its author; a bad id 404", async () => {
  const w = await world();
  try {
    for (const path of ["map", "summary"]) {
      const res = await getAs(w.t, null, `/api/questions/q-nope/${path}`);
      assert.equal(res.status, 404);
      assert.deepEqual(await res.json(), { error: "Question not found" });
      const bad = await getAs(w.t, null, `/api/questions/${"x".repeat(600)}/${path}`);
      assert.equal(bad.status, 404);
      await bad.body?.cancel();
    }
    const mod = await member(w.t, "Mo");
    w.t.services.config.moderators = [mod.id];
    const qid = await ask(w.t, w.asker, { title: "A question about to be hidden" });
    await answers(w, qid, 0, 3);
    const hide = await postAs(w.t, mod, "/api/mod/actions", {
      targetType: "question",
      targetId: qid,
      action: "hide",
    });
    assert.equal(hide.status, 200, await hide.text());
    for (const who of [null, w.people[0]]) {
      const res = await getAs(w.t, who, `/api/questions/${qid}/map`);
      assert.equal(res.status, 404);
      await res.body?.cancel();
    }
    const own = await getMap(w.t, qid, w.asker);
    assert.equal(own.map, null);
    await waitForJobs();
    assert.equal(calls(w, "map"), 0, "nothing is generated about a hidden question");
  } finally {
    await w.close();
  }
});

Deno.test("insights: with the day's budget spent the cached map (or null) is served, 200 and 'unavailable', and no job is started per request", async () => {
  const w = await world({ INSIGHTS_PER_DAY: "1" });
  try {
    const qid = await ask(w.t, w.asker, { title: "Budget question for the framework" });
    await answers(w, qid, 0, 8);
    await getMap(w.t, qid);
    await waitForJobs();
    // One call left for today: the map or the summary got it, the other did not.
    const [map, summary] = [await getMap(w.t, qid), await getSummary(w.t, qid)];
    assert.equal(w.llm.calls.length, 1);
    const served = [map.map, summary.summary].filter((v) => v !== null);
    assert.equal(served.length, 1);
    const statuses = [map.status, summary.status].sort();
    assert.deepEqual(statuses, ["ready", "unavailable"]);
    // More answers: the spent budget holds; nothing new is scheduled.
    await answers(w, qid, 8, 13);
    const later = [await getMap(w.t, qid), await getSummary(w.t, qid)];
    await waitForJobs();
    assert.equal(w.llm.calls.length, 1);
    assert.ok(later.some((r) => r.status === "unavailable"));
  } finally {
    await w.close();
  }
});

Deno.test("insights: a failing model leaves the last map served and answers 'unavailable', never a 5xx", async () => {
  let fail = false;
  const w = await world({}, (call) => fail ? { status: 500 } : modelReply(call));
  try {
    const qid = await ask(w.t, w.asker, { title: "Failing model question" });
    await answers(w, qid, 0, 3);
    await getMap(w.t, qid);
    await waitForJobs();
    const first = await getMap(w.t, qid);
    assert.ok(first.map);
    fail = true;
    await answers(w, qid, 3, 5);
    await getMap(w.t, qid);
    await waitForJobs();
    const after = await getMap(w.t, qid);
    assert.equal(after.status, "unavailable");
    assert.deepEqual(after.map, first.map);
    const page = await getAs(w.t, null, `/questions/${qid}`);
    assert.equal(page.status, 200);
    await page.body?.cancel();
  } finally {
    await w.close();
  }
});

Deno.test("insights: two instances on one store asked at once start one job and one model call", async () => {
  const path = await Deno.makeTempFile({ prefix: "mapsum-insights-", suffix: ".db" });
  const llm = startFakeLlm(modelReply);
  const a = await createTestApp({ env: llm.env, kvPath: path });
  const b = await createTestApp({ env: llm.env, kvPath: path });
  try {
    const asker = await member(a, "Asker");
    const qid = await ask(a, asker, { title: "Two instances one map" });
    for (let i = 0; i < 3; i++) await answer(a, await member(a, `P${i}`), qid, VIEWS[i]);
    const got = await Promise.all([
      getAs(a, null, `/api/questions/${qid}/map`),
      getAs(b, null, `/api/questions/${qid}/map`),
      getAs(a, null, `/api/questions/${qid}/map`),
      getAs(b, null, `/api/questions/${qid}/map`),
    ]);
    const statuses: string[] = [];
    for (const r of got) {
      assert.equal(r.status, 200);
      statuses.push(MapResponse.parse(await r.json()).status);
    }
    // The first read starts the job; on a busy machine it may be done before a later read
    // is answered, which then sees the map itself.
    assert.ok(statuses.includes("generating"), statuses.join());
    assert.ok(statuses.every((s) => s === "generating" || s === "ready"), statuses.join());
    await waitForJobs();
    const done = MapResponse.parse(
      await (await getAs(b, null, `/api/questions/${qid}/map`)).json(),
    );
    assert.equal(done.status, "ready");
    assert.equal(llm.calls.filter((c) => taskOf(c) === "map").length, 1);
  } finally {
    await a.close();
    await b.close();
    await llm.close();
    await Deno.remove(path).catch(() => {});
  }
});

Deno.test("MCP get_thread_summary: the summary and the map in one call, scheduled like the REST reads; unknown question a tool error", async () => {
  const llm = startFakeLlm(modelReply);
  try {
    await withMcp(
      async ({ t, client }) => {
        const asker = await member(t, "Asker");
        const qid = await ask(t, asker, { title: "Read this long thread in one call" });
        for (let i = 0; i < 8; i++) await answer(t, await member(t, `P${i}`), qid, VIEWS[i]);
        const first = await client.callTool({ name: "get_thread_summary", arguments: { id: qid } });
        const pending = ThreadInsights.parse(first.structuredContent);
        assert.equal(pending.summary.status, "generating");
        assert.equal(pending.map.status, "generating");
        await waitForJobs();
        const done = ThreadInsights.parse(
          (await client.callTool({ name: "get_thread_summary", arguments: { id: qid } }))
            .structuredContent,
        );
        assert.equal(done.questionId, qid);
        assert.ok(done.summary.summary && done.map.map);
        assert.equal(done.map.map.nodes.length, 8);
        assert.equal(done.summary.aiGenerated, true);
        const missing = await client.callTool({
          name: "get_thread_summary",
          arguments: { id: "q-nope" },
        });
        assert.equal(missing.isError, true);
        assert.match(toolText(missing), /Question not found/);
      },
      undefined,
      { env: llm.env },
    );
  } finally {
    await llm.close();
  }
});

Deno.test("insights on a long thread: the page counts the answers the map and summary were made from, not the thread's", async () => {
  const w = await world({ LIMIT_MESSAGES_PER_HOUR: "0" });
  try {
    const qid = await ask(w.t, w.asker, { title: "Should a small team adopt the framework" });
    const total = MAP_NODES_MAX + 6;
    for (let i = 0; i < total; i++) {
      const n = i % VIEWS.length;
      await answer(w.t, w.people[n], qid, `${VIEWS[n]} (take ${i + 1})`);
    }
    await getMap(w.t, qid); // schedules both
    await waitForJobs();
    const map = await getMap(w.t, qid);
    const summary = await getSummary(w.t, qid);
    assert.equal(map.status, "ready");
    assert.equal(summary.status, "ready");
    // The JSON keeps counting every answer there was; the model was shown a sample.
    assert.equal(map.messageCount, total);
    assert.equal(summary.messageCount, total);
    assert.ok(map.map && map.map.nodes.length <= MAP_NODES_MAX);
    const page = await (await w.t.request(`/questions/${qid}`)).text();
    const text = page.replace(/<!--.*?-->/g, "").replace(/\s+/g, " ");
    assert.match(text, new RegExp(`How ${map.map.nodes.length} answers line up`));
    assert.match(text, new RegExp(`Written by a model from ${MAP_NODES_MAX} answers`));
    assert.doesNotMatch(text, new RegExp(`(How|from) ${total} answers`));
  } finally {
    await w.close();
  }
});
