/**
 * Roundtables through the HTTP surface with a fake model: the stream's event order, a
 * host interjection answered by the directed expert in the next turn, minutes that
 * validate, the panel chosen by the model, privacy by the debate-archive setting, and the
 * refusals (bad input, non-owner, daily limit, the site's budget).
 */
import { keys } from "@/lib/kv/keys.ts";
import assert from "node:assert/strict";
import { createTestApp, jsonWrite, signInAs, type TestApp, waitForJobs } from "../helpers/app.ts";
import { startFakeLlm } from "../helpers/fake_llm.ts";
import { CHOSEN, roundtableReply } from "../helpers/roundtable_llm.ts";
import { parseResumable, readUntil, type SseEvent } from "../helpers/sse.ts";
import { minutesFor, RoundtableSchema } from "@/lib/schemas/roundtable.ts";

function start(t: TestApp, cookie: string, body: unknown): Promise<Response> {
  return t.request("/api/roundtables", {
    method: "POST",
    headers: jsonWrite(t, cookie),
    body: JSON.stringify(body),
  });
}

const TOPIC = "Should cities charge cars to enter the centre?";

/** The chunks of each turn spell its statement; returns the statements in order. */
function statementsOf(events: SseEvent[]) {
  const out: { expertId: string; round: number; replyTo?: string; id: string; content: string }[] =
    [];
  let text = "";
  for (const e of events) {
    if (e.type === "speaking") text = "";
    if (e.type === "chunk") text += e.data.content;
    if (e.type === "statement") {
      assert.equal(text, e.data.message.content, "the chunks spell the statement");
      out.push(e.data.message);
    }
  }
  return out;
}

Deno.test("a roundtable streams init, then speaking/chunk/statement per turn with round_end after each round, then summarizing, minutes and done — every event with its id — and reads back complete", async () => {
  const llm = startFakeLlm(roundtableReply());
  const t = await createTestApp({ env: llm.env });
  try {
    const { cookie, user } = await signInAs(t, "Host");
    const res = await start(t, cookie, {
      topic: TOPIC,
      expertIds: ["ada", "omar", "mei"],
      rounds: 2,
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    const events = parseResumable(await res.text());
    assert.deepEqual(
      events.map((e) => e.id),
      events.map((_, i) => i + 1),
      "ids 1, 2, … on every event",
    );
    const order = events.map((e) => e.type).filter((t, i, all) =>
      t !== "chunk" || all[i - 1] !== "chunk"
    );
    const turn = ["speaking", "chunk", "statement"];
    assert.deepEqual(order, [
      "init",
      ...turn,
      ...turn,
      ...turn,
      "round_end",
      ...turn,
      ...turn,
      ...turn,
      "round_end",
      ...turn,
      ...turn,
      ...turn,
      "round_end",
      "summarizing",
      "minutes",
      "done",
    ]);
    const init = events[0].data;
    assert.deepEqual(init.experts.map((e: { id: string }) => e.id), ["ada", "omar", "mei"]);
    assert.equal(init.rounds, 2);
    assert.deepEqual(events.filter((e) => e.type === "round_end").map((e) => e.data.round), [
      0,
      1,
      2,
    ]);
    const said = statementsOf(events);
    assert.deepEqual(said.map((m) => m.expertId), [
      "ada",
      "omar",
      "mei",
      "ada",
      "omar",
      "mei",
      "ada",
      "omar",
      "mei",
    ]);
    assert.deepEqual(said.map((m) => m.round), [0, 0, 0, 1, 1, 1, 2, 2, 2]);
    // The opening round answers nobody; each later turn names the latest point by another.
    assert.deepEqual(said.map((m) => m.replyTo), [
      undefined,
      undefined,
      undefined,
      "m3",
      "m4",
      "m5",
      "m6",
      "m7",
      "m8",
    ]);
    assert.match(said[3].content, /^Ada Lindqvist in call \d+ answers Mei Tanaka/);
    const speaking = events.filter((e) => e.type === "speaking").map((e) => e.data.replyTo);
    assert.deepEqual(speaking, said.map((m) => m.replyTo), "speaking names the same message");
    assert.equal(events.at(-1)!.data.id, init.id);
    const minutes = events.find((e) => e.type === "minutes")!.data;
    assert.ok(
      minutesFor(["ada", "omar", "mei"]).safeParse(minutes).success,
      "the minutes validate",
    );
    // 9 statements and one minutes call; no choice asked for (the host named the experts).
    assert.equal(llm.calls.filter((c) => c.stream).length, 9);
    assert.equal(llm.calls.filter((c) => !c.stream).length, 1);

    const got = await t.request(`/api/roundtables/${init.id}`, { headers: { cookie } });
    assert.equal(got.status, 200);
    const rt = await got.json();
    assert.ok(RoundtableSchema.safeParse(rt).success, "the documented shape");
    assert.equal(rt.status, "completed");
    assert.equal(rt.userId, user.id);
    assert.deepEqual(
      rt.messages.map((m: { content: string }) => m.content),
      said.map((m) => m.content),
    );
    assert.deepEqual(rt.minutes, minutes);
    assert.deepEqual(rt.interjections, []);
    // The replay after an id gives exactly the rest.
    const replay = parseResumable(
      await (await t.request(`/api/roundtables/${init.id}/events`, {
        headers: { cookie, "last-event-id": "5" },
      })).text(),
    );
    assert.deepEqual(replay, events.slice(5));
    const mine = await (await t.request("/api/roundtables?mine=1", { headers: { cookie } })).json();
    assert.deepEqual(mine.roundtables.map((r: { id: string }) => r.id), [init.id]);
  } finally {
    await waitForJobs(10_000, "roundtable");
    await t.close();
    await llm.close();
  }
});

Deno.test("without expertIds the model chooses the panel: unknown and repeated ids are dropped", async () => {
  const llm = startFakeLlm(roundtableReply());
  const t = await createTestApp({ env: llm.env });
  try {
    const { cookie } = await signInAs(t, "Host");
    const res = await start(t, cookie, {
      topic: TOPIC,
      background: "A city of 300,000.",
      rounds: 2,
    });
    const events = parseResumable(await res.text());
    assert.deepEqual(
      events[0].data.experts.map((e: { id: string }) => e.id),
      [...new Set(CHOSEN)].filter((id) => id !== "ghost"),
    );
    assert.equal(events.at(-1)!.type, "done");
    const choice = llm.calls.find((c) => !c.stream)!;
    assert.match(
      choice.messages.map((m) => m.content).join("\n"),
      /Background: A city of 300,000\./,
    );
  } finally {
    await waitForJobs(10_000, "roundtable");
    await t.close();
    await llm.close();
  }
});

Deno.test("the host's interjection directed to an expert is announced and answered by that expert in the very next turn, which names it in replyTo", async () => {
  const llm = startFakeLlm(roundtableReply(4));
  const t = await createTestApp({ env: llm.env });
  try {
    const { cookie } = await signInAs(t, "Host");
    const res = await start(t, cookie, {
      topic: TOPIC,
      expertIds: ["ada", "omar", "mei"],
      rounds: 2,
    });
    const head = await readUntil(res, (e) => e.type === "statement", { resumable: true });
    const id = head[0].data.id;
    const question = "What would it cost a nurse on night shifts?";
    const post = await t.request(`/api/roundtables/${id}/interject`, {
      method: "POST",
      headers: jsonWrite(t, cookie),
      body: JSON.stringify({ text: question, directTo: "ada" }),
    });
    assert.equal(post.status, 202);
    assert.deepEqual(await post.json(), { ok: true, id: "h1" });
    const all = parseResumable(
      await (await t.request(`/api/roundtables/${id}/events`, { headers: { cookie } })).text(),
    );
    const at = all.findIndex((e) => e.type === "interjection");
    assert.ok(at > 0, "the interjection is announced");
    assert.deepEqual(all[at].data, { id: "h1", text: question, directTo: "ada" });
    const next = all.slice(at + 1).find((e) => e.type === "speaking")!;
    assert.equal(next.data.expertId, "ada", "the directed expert speaks next");
    assert.equal(next.data.replyTo, "h1");
    const answer = all.slice(at + 1).find((e) => e.type === "statement")!.data.message;
    assert.equal(answer.expertId, "ada");
    assert.equal(answer.replyTo, "h1");
    assert.match(answer.content, /answers the host about: What would it cost a nurse/);
    const rt = await (await t.request(`/api/roundtables/${id}`, { headers: { cookie } })).json();
    assert.equal(rt.status, "completed");
    assert.equal(rt.interjections.length, 1);
    const taken = rt.interjections[0];
    assert.equal(taken.text, question);
    assert.equal(taken.directTo, "ada");
    // Taken up after the last statement before it, and answered by the one after it.
    const before = rt.messages.findIndex((m: { id: string }) => m.id === taken.afterMessageId);
    assert.equal(rt.messages[before + 1].replyTo, "h1");
    // Every scheduled turn still happened (9), plus at most the directed one.
    assert.ok(rt.messages.length === 9 || rt.messages.length === 10, `${rt.messages.length}`);
    assert.ok(minutesFor(["ada", "omar", "mei"]).safeParse(rt.minutes).success);
    // The minutes' prompt saw the host's words.
    const minutesCall = llm.calls.filter((c) => !c.stream).at(-1)!;
    assert.match(minutesCall.messages.map((m) => m.content).join("\n"), /Host: What would it cost/);
  } finally {
    await waitForJobs(10_000, "roundtable");
    await t.close();
    await llm.close();
  }
});

Deno.test("refusals: bad input is a 400 with issues, never a 5xx; only the owner may interject; signed out is 401; a private archive hides the roundtable", async () => {
  const llm = startFakeLlm(roundtableReply());
  const t = await createTestApp({ env: llm.env });
  try {
    const { cookie } = await signInAs(t, "Host");
    const other = await signInAs(t, "Guest");
    for (
      const body of [
        {},
        { topic: "" },
        { topic: "x".repeat(301) },
        { topic: TOPIC, expertIds: ["ada", "omar"] },
        { topic: TOPIC, expertIds: ["ada", "omar", "mei", "noah", "sofia", "jonas"] },
        { topic: TOPIC, expertIds: ["ada", "omar", "nobody"] },
        { topic: TOPIC, expertIds: ["ada", "ada", "omar"] },
        { topic: TOPIC, rounds: 1 },
        { topic: TOPIC, rounds: 6 },
        { topic: TOPIC, rounds: "3" },
        { topic: TOPIC, background: "b".repeat(2001) },
        [],
      ]
    ) {
      const res = await start(t, cookie, body);
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
      assert.ok((await res.json()).error);
    }
    const bad = await t.request("/api/roundtables", {
      method: "POST",
      headers: jsonWrite(t, cookie),
      body: "{not json",
    });
    assert.equal(bad.status, 400);
    await bad.body?.cancel();
    const anon = await t.request("/api/roundtables", {
      method: "POST",
      headers: { "content-type": "application/json", origin: t.services.config.appOrigin },
      body: JSON.stringify({ topic: TOPIC }),
    });
    assert.equal(anon.status, 401);
    await anon.body?.cancel();
    assert.equal((await t.request("/api/roundtables")).status, 400);
    assert.equal((await t.request("/api/roundtables?mine=1")).status, 401);

    const res = await start(t, cookie, {
      topic: TOPIC,
      expertIds: ["ada", "omar", "mei"],
      rounds: 2,
    });
    const [init] = await readUntil(res, () => true, { resumable: true });
    const id = init.data.id;
    const interject = (c: string, body: unknown) =>
      t.request(`/api/roundtables/${id}/interject`, {
        method: "POST",
        headers: jsonWrite(t, c),
        body: JSON.stringify(body),
      });
    const notYours = await interject(other.cookie, { text: "Hello?" });
    assert.equal(notYours.status, 404);
    await notYours.body?.cancel();
    for (
      const body of [{}, { text: "" }, { text: "x".repeat(501) }, { text: "Hi", directTo: "noah" }]
    ) {
      const r = await interject(cookie, body);
      assert.equal(r.status, 400, JSON.stringify(body).slice(0, 60));
      await r.body?.cancel();
    }
    await waitForJobs(10_000, "roundtable");
    const late = await interject(cookie, { text: "One more thing" });
    assert.equal(late.status, 409, "a finished roundtable takes no interjection");
    await late.body?.cancel();

    // Public by default (the debate archive's default): anyone reads it, it is listed.
    const seen = await t.request(`/api/roundtables/${id}`);
    assert.equal(seen.status, 200);
    await seen.body?.cancel();
    const listed = await (await t.request("/api/roundtables?public=1")).json();
    assert.deepEqual(listed.roundtables.map((r: { id: string }) => r.id), [id]);
    const set = await t.request("/api/profile/settings", {
      method: "PUT",
      headers: jsonWrite(t, cookie),
      body: JSON.stringify({ debateArchive: "private" }),
    });
    assert.equal(set.status, 200);
    await set.body?.cancel();
    for (const path of [`/api/roundtables/${id}`, `/api/roundtables/${id}/events`]) {
      const hidden = await t.request(path, { headers: { cookie: other.cookie } });
      assert.equal(hidden.status, 404, path);
      await hidden.body?.cancel();
    }
    const page = await t.request(`/roundtables/${id}`, { headers: { cookie: other.cookie } });
    assert.equal(page.status, 404);
    assert.match(await page.text(), /This roundtable is private/);
    const ownPage = await t.request(`/roundtables/${id}`, { headers: { cookie } });
    assert.equal(ownPage.status, 200);
    const html = await ownPage.text();
    assert.match(html, /every statement and the minutes are AI-written/);
    assert.ok(!html.includes('data-testid="interject-form"'), "no interjection once it ended");
    const owner = await t.request(`/api/roundtables/${id}`, { headers: { cookie } });
    assert.equal(owner.status, 200);
    await owner.body?.cancel();
    assert.deepEqual((await (await t.request("/api/roundtables?public=1")).json()).roundtables, []);
  } finally {
    await waitForJobs(10_000, "roundtable");
    await t.close();
    await llm.close();
  }
});

Deno.test("over the limits: a user's daily roundtables (429 with Retry-After) and the site's daily budget (503), and no model call for a refused one", async () => {
  const llm = startFakeLlm(roundtableReply());
  const t = await createTestApp({
    env: { ...llm.env, ROUNDTABLES_PER_USER_PER_DAY: "1", ROUNDTABLES_PER_DAY: "2" },
  });
  try {
    const a = await signInAs(t, "Ada");
    const b = await signInAs(t, "Bo");
    const c = await signInAs(t, "Cy");
    const body = { topic: TOPIC, expertIds: ["ada", "omar", "mei"], rounds: 2 };
    const first = await start(t, a.cookie, body);
    assert.equal(first.status, 200);
    await first.text();
    const again = await start(t, a.cookie, body);
    assert.equal(again.status, 429);
    assert.ok(Number(again.headers.get("retry-after")) > 0);
    assert.match((await again.json()).error, /^Too many roundtables: you can start 1 per day/);
    const second = await start(t, b.cookie, body);
    assert.equal(second.status, 200);
    await second.text();
    const calls = llm.calls.length;
    const third = await start(t, c.cookie, body);
    assert.equal(third.status, 503, "the site's budget for today is spent");
    assert.ok(Number(third.headers.get("retry-after")) > 0);
    assert.match((await third.json()).error, /all the roundtables it can today/);
    assert.equal(llm.calls.length, calls, "a refused roundtable costs no model call");
    const boCount = await t.kv.get(keys.rateLimitLog("roundtables_daily", b.user.id));
    assert.notEqual(boCount.value, null, "a started roundtable counts against its host's day");
    const cyCount = await t.kv.get(keys.rateLimitLog("roundtables_daily", c.user.id));
    assert.equal(cyCount.value, null, "a refusal for the site's sake costs the host nothing");
  } finally {
    await waitForJobs(10_000, "roundtable");
    await t.close();
    await llm.close();
  }
});

Deno.test("minutes that fail validation are repaired once; when nothing usable comes back the roundtable fails cleanly with an error event and keeps its statements", async () => {
  const base = roundtableReply();
  const prompts: string[] = [];
  const llm = startFakeLlm((call) => {
    if (call.stream) return base(call);
    prompts.push(call.messages.at(-1)!.content);
    // One stance for an expert who is not at the table, twice.
    return { text: JSON.stringify({ stances: [{ expertId: "ghost", position: "x" }] }) };
  });
  const t = await createTestApp({ env: llm.env });
  try {
    const { cookie } = await signInAs(t, "Host");
    const res = await start(t, cookie, {
      topic: TOPIC,
      expertIds: ["ada", "omar", "mei"],
      rounds: 2,
    });
    const events = parseResumable(await res.text());
    assert.deepEqual(events.slice(-2).map((e) => e.type), ["summarizing", "error"]);
    assert.equal(events.at(-1)!.data.message, "The minutes could not be written.");
    assert.equal(prompts.length, 2, "asked, then asked to repair");
    assert.match(prompts[1], /not valid JSON for the requested shape/);
    const rt = await (await t.request(`/api/roundtables/${events[0].data.id}`, {
      headers: { cookie },
    })).json();
    assert.equal(rt.status, "failed");
    assert.equal(rt.error, "The minutes could not be written.");
    assert.equal(rt.messages.length, 9);
    assert.equal(rt.minutes, null);
  } finally {
    await waitForJobs(10_000, "roundtable");
    await t.close();
    await llm.close();
  }
});
