/**
 * POST /api/agent/participate through the real app, with the real `openai` client
 * talking to a fake OpenAI-compatible server on loopback: each trigger and forced
 * action, the preferred question, heat, replies that refer to the discussion, the
 * response shapes and ids, one atomic write (nothing written when the model fails),
 * the rate limit, API-key refusal and bad input.
 */
import assert from "node:assert/strict";
import { keys } from "@/lib/kv/keys.ts";
import { ParticipateResult } from "@/lib/schemas/participation.ts";
import type { QuestionRecord } from "@/lib/community/questions/model.ts";
import { readUserStats } from "@/lib/profile/user_stats.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  agentKey,
  answer,
  ask,
  getAs,
  json,
  type Member,
  member,
  postAs,
} from "../helpers/community.ts";
import { type FakeCall, type FakeReply, startFakeLlm } from "../helpers/fake_llm.ts";

const PATH = "/api/agent/participate";
const FAILED = { error: "Agent participation failed" };

/** Which of the participation prompts a call carries. */
type Kind = "plan" | "pick" | "ask" | "reply" | "other";

function kindOf(call: FakeCall): Kind {
  const system = call.messages[0]?.content ?? "";
  const prompt = call.messages[1]?.content ?? "";
  if (system.includes("deciding how to take part")) {
    return prompt.includes('"action"') ? "plan" : "pick";
  }
  if (system.includes("asking a new question")) return "ask";
  if (system.includes("replying in a discussion")) return "reply";
  return "other";
}

const ASKED = {
  title: "How do you keep a KV schema readable as it grows?",
  description: "After the cycling and coffee threads, I wonder how people document key layouts.",
};
const REPLY_TEXT = "Building on Bob's point about bike lanes: measured trials beat opinions here.";

type Script = Partial<Record<Kind, FakeReply | string | ((call: FakeCall) => FakeReply)>>;

/** A fake model answering each participation prompt as `script` says (defaults: valid). */
function fakeModel(script: Script = {}) {
  const defaults: Record<Kind, FakeReply> = {
    plan: { text: JSON.stringify({ action: "reply_existing", question: 1, reason: "Busy." }) },
    pick: { text: JSON.stringify({ question: 1, reason: "Most active." }) },
    ask: { text: JSON.stringify(ASKED) },
    reply: { text: REPLY_TEXT },
    other: { status: 400 },
  };
  return startFakeLlm((call) => {
    const kind = kindOf(call);
    const r = script[kind];
    if (r === undefined) return defaults[kind];
    if (typeof r === "string") return { text: r };
    if (typeof r === "function") return r(call);
    return r;
  });
}

function participate(t: TestApp, who: Member, body: unknown = {}) {
  return postAs(t, who, PATH, body);
}

type Result = {
  action: string;
  trigger: string;
  reason: string;
  question: (QuestionRecord & Record<string, unknown>) | null;
  questionMessage: Record<string, unknown> | null;
  replyMessage: Record<string, unknown> | null;
  replyQuestionId: string | null;
};

/** A community: a cold question, a hot one (votes and a thread), and a lukewarm one. */
async function community(t: TestApp) {
  const ada = await member(t, "Ada");
  const bob = await member(t, "Bob");
  const cat = await member(t, "Cat");
  const cold = await ask(t, bob, { title: "Is tea better than coffee?" });
  const hot = await ask(t, bob, {
    title: "Should cities build more bike lanes?",
    description: "Our council is debating it.",
  });
  const first = await answer(t, cat, hot, "Yes: Copenhagen shows bike lanes cut car trips.");
  const latest = await answer(t, bob, hot, "Bike lanes only work with winter maintenance.");
  await postAs(t, cat, "/api/likes", { targetId: hot, targetType: "question" });
  const warm = await ask(t, cat, { title: "Which editor do you use?" });
  await answer(t, bob, warm, "Helix, lately.");
  return { ada, bob, cat, cold, hot, warm, first, latest };
}

/** Every key and its versionstamp, except rate-limit windows and sliding sessions. */
async function dump(kv: Deno.Kv): Promise<string[]> {
  const out: string[] = [];
  for await (const e of kv.list({ prefix: [] })) {
    if (e.key[0] === "ratelimit_log" || e.key[0] === "sessions") continue;
    out.push(
      `${JSON.stringify(e.key, (_k, v) => typeof v === "bigint" ? `${v}n` : v)}@${e.versionstamp}`,
    );
  }
  return out;
}

async function withApp(
  script: Script,
  fn: (t: TestApp, fake: ReturnType<typeof fakeModel>) => Promise<void>,
  opts: { now?: () => number; env?: Record<string, string> } = {},
) {
  const fake = fakeModel(script);
  const t = await createTestApp({
    env: { ...fake.env, ...opts.env },
    now: opts.now,
    llmTimeoutMs: 5_000,
  });
  try {
    await fn(t, fake);
  } finally {
    await t.close();
    await fake.close();
  }
}

Deno.test("manual: the model's plan picks a reply; the reply answers the discussion and counts a round", async () => {
  await withApp({
    plan: { text: JSON.stringify({ action: "reply_existing", question: 1, reason: "Lively." }) },
  }, async (t, fake) => {
    const c = await community(t);
    const res = await json<Result>(participate(t, c.ada));
    assert.equal(res.status, 200);
    assert.ok(ParticipateResult.safeParse(res.body).success, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), [
      "action",
      "question",
      "questionMessage",
      "reason",
      "replyMessage",
      "replyQuestionId",
      "trigger",
    ]);
    const r = res.body;
    assert.equal(r.action, "reply_existing");
    assert.equal(r.trigger, "manual");
    assert.equal(r.replyQuestionId, c.hot, "the hottest question is number 1");
    assert.match(r.reason, /Lively\./);
    assert.match(r.reason, /bike lanes/);
    assert.equal(r.question, null);
    assert.equal(r.questionMessage, null);
    const m = r.replyMessage!;
    assert.match(m.id as string, /^msg-agent-reply-[a-z0-9]+$/);
    assert.equal(m.questionId, c.hot);
    assert.equal(m.authorType, "user");
    assert.equal(m.createdBy, "agent");
    assert.deepEqual(m.author, { id: c.ada.id, name: "Ada", avatar: "" });
    assert.equal(m.content, REPLY_TEXT);
    assert.equal(m.replyTo, c.latest, "it answers the newest message");
    assert.deepEqual([m.upvotes, m.downvotes, m.likedBy, m.dislikedBy], [0, 0, [], []]);

    // The plan saw the recent questions, hottest first, with their heat.
    const plan = fake.calls.find((call) => kindOf(call) === "plan")!;
    const listing = plan.messages[1].content;
    assert.match(
      listing,
      /1\. \[heat 3: 1 upvotes, 2 messages\] Should cities build more bike lanes\?/,
    );
    assert.match(listing, /2\. \[heat 1: 0 upvotes, 1 messages\] Which editor do you use\?/);
    assert.match(listing, /3\. \[heat 0: 0 upvotes, 0 messages\] Is tea better than coffee\?/);
    assert.equal(plan.temperature, 0.3);
    // The reply prompt carries the question and the recent messages.
    const reply = fake.calls.find((call) => kindOf(call) === "reply")!;
    const prompt = reply.messages.map((x) => x.content).join("\n");
    assert.match(prompt, /Topic: Should cities build more bike lanes\?/);
    assert.match(prompt, /Our council is debating it\./);
    assert.match(prompt, /Cat: Yes: Copenhagen shows bike lanes cut car trips\./);
    assert.match(prompt, /Bob: Bike lanes only work with winter maintenance\./);

    // Stored: in the thread, counted, and one more discussion round.
    const q = await json<
      { discussionRounds: number; messageCount: number; messages: { id: string }[] }
    >(
      getAs(t, null, `/api/questions/${c.hot}`),
    );
    assert.equal(q.body.discussionRounds, 1);
    assert.equal(q.body.messageCount, 3);
    assert.equal(q.body.messages.at(-1)?.id, m.id);
    assert.equal((await readUserStats(t.kv, c.ada.id)).answers, 1);

    // A second reply counts a second round.
    await participate(t, c.ada, { forceAction: "reply_existing", preferredQuestionId: c.hot });
    const again = (await t.kv.get<QuestionRecord>(keys.question(c.hot))).value!;
    assert.equal(again.discussionRounds, 2);
  });
});

Deno.test("manual: the model may ask; the question and its initial message are written together", async () => {
  await withApp({
    plan: { text: JSON.stringify({ action: "ask_new", reason: "A gap in the topics." }) },
  }, async (t, fake) => {
    const c = await community(t);
    const res = await json<Result>(participate(t, c.ada, { trigger: "manual" }));
    assert.equal(res.status, 200);
    assert.ok(ParticipateResult.safeParse(res.body).success);
    const r = res.body;
    assert.equal(r.action, "ask_new");
    assert.equal(r.reason, "A gap in the topics.");
    assert.equal(r.replyMessage, null);
    assert.equal(r.replyQuestionId, null);
    const q = r.question!;
    assert.match(q.id, /^q-agent-[a-z0-9]+$/);
    assert.equal(q.title, ASKED.title);
    assert.equal(q.description, ASKED.description);
    assert.equal(q.status, "active");
    assert.equal(q.discussionRounds, 1);
    assert.equal(q.createdBy, "agent");
    assert.deepEqual(q.author, { id: c.ada.id, name: "Ada", avatar: "" });
    assert.deepEqual([q.upvotes, q.downvotes, q.messageCount], [0, 0, 1]);
    const m = r.questionMessage!;
    assert.match(m.id as string, /^msg-agent-ask-[a-z0-9]+$/);
    assert.equal(m.questionId, q.id);
    assert.equal(m.content, ASKED.description);
    assert.equal(m.authorType, "user");
    assert.equal(m.createdBy, "agent");
    assert.equal(m.replyTo, undefined);

    // The ask prompt refers to the community's recent topics.
    const askCall = fake.calls.find((call) => kindOf(call) === "ask")!;
    const prompt = askCall.messages[1].content;
    for (const title of ["Which editor do you use?", "Should cities build more bike lanes?"]) {
      assert.ok(prompt.includes(title), title);
    }
    // Stored like any question: feed, thread, author index, counters.
    const stored = await json<{ messages: { id: string }[]; messageCount: number }>(
      getAs(t, null, `/api/questions/${q.id}`),
    );
    assert.deepEqual(stored.body.messages.map((x) => x.id), [m.id]);
    const feed = await json<{ questions: { id: string }[] }>(getAs(t, null, "/api/questions"));
    assert.equal(feed.body.questions[0].id, q.id);
    const stats = await readUserStats(t.kv, c.ada.id);
    assert.deepEqual([stats.questions, stats.answers], [1, 1]);
    const byAuthor = await Array.fromAsync(
      t.kv.list({ prefix: keys.questionsByAuthorPrefix(c.ada.id) }),
    );
    assert.deepEqual(byAuthor.map((e) => e.value), [q.id]);
  });
});

Deno.test("manual: an unreadable plan falls back to replying where there is activity, else asking", async () => {
  await withApp({ plan: "I think you should probably reply, honestly." }, async (t, fake) => {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    await ask(t, bob, { title: "A quiet question" });
    const quiet = await json<Result>(participate(t, ada));
    assert.equal(quiet.body.action, "ask_new", "nothing is active: ask");
    assert.equal(fake.calls.filter((c) => kindOf(c) === "plan").length, 2, "one repair attempt");

    const busy = await ask(t, bob, { title: "A busy question" });
    await answer(t, bob, busy, "First!");
    const active = await json<Result>(participate(t, ada));
    assert.equal(active.body.action, "reply_existing");
    assert.equal(active.body.replyQuestionId, busy);
  });
});

Deno.test("auto: a seeded coin decides — below one half asks, otherwise replies — without a plan call", async () => {
  await withApp({}, async (t, fake) => {
    const c = await community(t);
    const coin = [0.2, 0.7];
    t.services.random = () => coin.shift()!;
    const first = await json<Result>(participate(t, c.ada, { trigger: "auto" }));
    assert.equal(first.status, 200);
    assert.equal(first.body.trigger, "auto");
    assert.equal(first.body.action, "ask_new");
    assert.match(first.body.reason, /^Auto trigger: a coin flip chose to ask/);
    const second = await json<Result>(participate(t, c.ada, { trigger: "auto" }));
    assert.equal(second.body.action, "reply_existing");
    assert.match(second.body.reason, /^Auto trigger: a coin flip chose to reply/);
    assert.ok(second.body.replyMessage?.replyTo);
    assert.deepEqual(coin, [], "the coin was flipped once per request");
    const kinds = fake.calls.map(kindOf);
    assert.ok(!kinds.includes("plan"), kinds.join());
    assert.deepEqual(kinds, ["ask", "pick", "reply"]);
  });
});

Deno.test("forceAction overrides the model and the coin", async () => {
  await withApp({
    plan: { text: JSON.stringify({ action: "reply_existing", question: 1, reason: "x" }) },
  }, async (t, fake) => {
    const c = await community(t);
    t.services.random = () => 0.9; // the coin would reply
    const asked = await json<Result>(
      participate(t, c.ada, { trigger: "auto", forceAction: "ask_new" }),
    );
    assert.equal(asked.body.action, "ask_new");
    assert.match(asked.body.reason, /^You asked your agent to post a new question\./);
    assert.doesNotMatch(asked.body.reason, /forceAction/, "no field names in the reason");
    const manualAsk = await json<Result>(participate(t, c.ada, { forceAction: "ask_new" }));
    assert.equal(manualAsk.body.action, "ask_new");

    t.services.random = () => 0.1; // the coin would ask
    const replied = await json<Result>(
      participate(t, c.ada, { trigger: "auto", forceAction: "reply_existing" }),
    );
    assert.equal(replied.body.action, "reply_existing");
    assert.match(replied.body.reason, /^You asked your agent to reply to an existing question\./);
    assert.doesNotMatch(replied.body.reason, /forceAction/);
    assert.ok(!fake.calls.some((call) => kindOf(call) === "plan"), "no plan was asked for");
  });
});

Deno.test("forced reply: the model's pick among the recent questions, and the hottest when it is unreadable", async () => {
  await withApp({
    pick: (call) =>
      call.index < 2
        ? { text: JSON.stringify({ question: 2, reason: "Ada knows editors." }) }
        : { text: "no idea" },
  }, async (t, _fake) => {
    const c = await community(t);
    const picked = await json<Result>(participate(t, c.ada, { forceAction: "reply_existing" }));
    assert.equal(picked.body.replyQuestionId, c.warm, "number 2 by heat");
    assert.match(picked.body.reason, /Ada knows editors\./);
    const fallback = await json<Result>(participate(t, c.ada, { forceAction: "reply_existing" }));
    assert.equal(fallback.body.replyQuestionId, c.hot, "the hottest");
  });
});

Deno.test("with no question at all, asking is the only possible action", async () => {
  await withApp({}, async (t, fake) => {
    const ada = await member(t, "Ada");
    const res = await json<Result>(participate(t, ada, { forceAction: "reply_existing" }));
    assert.equal(res.status, 200);
    assert.equal(res.body.action, "ask_new");
    assert.match(res.body.reason, /No questions exist yet/);
    assert.match(fake.calls[0].messages[1].content, /Nobody has asked anything yet/);
  });
});

Deno.test("preferredQuestionId is honoured when it exists and ignored when unknown", async () => {
  await withApp({}, async (t, fake) => {
    const c = await community(t);
    const preferred = await json<Result>(
      participate(t, c.ada, { forceAction: "reply_existing", preferredQuestionId: c.cold }),
    );
    assert.equal(preferred.body.replyQuestionId, c.cold, "the cold question, not the hottest");
    assert.match(preferred.body.reason, /the question you chose/);
    assert.equal(preferred.body.replyMessage?.replyTo, undefined, "no message to reply to yet");
    assert.ok(!fake.calls.some((call) => kindOf(call) === "pick"), "no pick needed");
    const prompt = fake.calls.find((call) => kindOf(call) === "reply")!.messages[1].content;
    assert.match(prompt, /Topic: Is tea better than coffee\?/);

    // Manual + preferred: the plan is told which question the person is viewing.
    const manual = await json<Result>(participate(t, c.ada, { preferredQuestionId: c.warm }));
    assert.equal(manual.body.replyQuestionId, c.warm);
    const plan = fake.calls.find((call) => kindOf(call) === "plan")!;
    assert.match(plan.messages[1].content, /Ada is looking at question \d+ right now/);

    const unknown = await json<Result>(
      participate(t, c.ada, { forceAction: "reply_existing", preferredQuestionId: "q-nope" }),
    );
    assert.equal(unknown.status, 200);
    assert.equal(unknown.body.replyQuestionId, c.hot);
  });
});

Deno.test("a reply answers the newest message by someone else, not the user's own", async () => {
  await withApp({}, async (t) => {
    const c = await community(t);
    const own = await answer(t, c.ada, c.hot, "My own earlier thought.");
    const r = await json<Result>(
      participate(t, c.ada, { forceAction: "reply_existing", preferredQuestionId: c.hot }),
    );
    assert.notEqual(r.body.replyMessage?.replyTo, own);
    assert.equal(r.body.replyMessage?.replyTo, c.latest);
  });
});

Deno.test("a failing model answers 500 and writes nothing (KV identical before and after)", async () => {
  const cases: [string, Script, unknown][] = [
    ["the plan call fails", { plan: { status: 500 } }, {}],
    ["the question call fails", { ask: { status: 503 } }, { forceAction: "ask_new" }],
    ["the question is invalid twice", {
      ask: { text: JSON.stringify({ title: "x", description: "too short" }) },
    }, { forceAction: "ask_new" }],
    ["the reply call fails", { reply: { status: 500 } }, { forceAction: "reply_existing" }],
    ["the reply is empty", { reply: { text: "   " } }, { forceAction: "reply_existing" }],
    ["the reply never comes", { reply: { hang: true } }, { forceAction: "reply_existing" }],
  ];
  for (const [name, script, body] of cases) {
    const fake = fakeModel(script);
    const t = await createTestApp({ env: fake.env, llmTimeoutMs: 500 });
    try {
      const c = await community(t);
      const before = await dump(t.kv);
      const res = await participate(t, c.ada, body);
      assert.equal(res.status, 500, name);
      assert.deepEqual(await res.json(), FAILED, name);
      assert.deepEqual(await dump(t.kv), before, `${name}: nothing was written`);
    } finally {
      await t.close();
      await fake.close();
    }
  }
});

Deno.test("without a language model the endpoint answers 500 and writes nothing", async () => {
  const t = await createTestApp({ llm: null });
  try {
    const ada = await member(t, "Ada");
    const before = await dump(t.kv);
    const res = await json(participate(t, ada));
    assert.deepEqual([res.status, res.body], [500, FAILED]);
    assert.deepEqual(await dump(t.kv), before);
  } finally {
    await t.close();
  }
});

Deno.test("rate limit: the 11th request in a minute per user and IP is refused with Retry-After", async () => {
  const clock = { t: Date.UTC(2030, 0, 1, 12, 0, 5) };
  await withApp({}, async (t) => {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    for (let i = 0; i < 10; i++) {
      const res = await participate(t, ada, { forceAction: "ask_new" });
      assert.equal(res.status, 200, `request ${i + 1}`);
      await res.body?.cancel();
    }
    clock.t += 5_000;
    const refused = await participate(t, ada, { forceAction: "ask_new" });
    assert.equal(refused.status, 429);
    // A sliding window: the first of the ten leaves it 60 s after it came, 55 s from now.
    assert.equal(refused.headers.get("retry-after"), "55");
    assert.deepEqual(await refused.json(), { error: "Rate limit exceeded", retryAfter: 55 });
    // Another user has their own budget; once the ten leave the window, room again.
    assert.equal((await participate(t, bob, { forceAction: "ask_new" })).status, 200);
    clock.t += 55_000;
    assert.equal((await participate(t, ada, { forceAction: "ask_new" })).status, 200);
    // (Questions are raised past their hourly posting limit here: this test is the minute's.)
  }, { now: () => clock.t, env: { LIMIT_QUESTIONS_PER_HOUR: "100" } });
});

Deno.test("session only: an API key is refused with 401 even when valid, and so is no session", async () => {
  await withApp({}, async (t, fake) => {
    const ada = await member(t, "Ada");
    const key = await agentKey(t, ada);
    // A valid key works on the agent API …
    const me = await t.request("/api/agent/me", { headers: { authorization: `Bearer ${key}` } });
    assert.equal(me.status, 200);
    // … but not here, alone or riding along with a session cookie.
    const variants: Record<string, string>[] = [
      { authorization: `Bearer ${key}`, "content-type": "application/json" },
      {
        authorization: `Bearer ${key}`,
        cookie: ada.cookie,
        origin: t.services.config.appOrigin,
        "content-type": "application/json",
      },
      { origin: t.services.config.appOrigin, "content-type": "application/json" },
    ];
    for (const headers of variants) {
      const res = await t.request(PATH, { method: "POST", headers, body: "{}" });
      assert.equal(res.status, 401);
      assert.deepEqual(await res.json(), { error: "Unauthorized" });
    }
    assert.equal(fake.calls.length, 0);
  });
});

Deno.test("bad input is a 400 with the field named, never a 500; an empty body means defaults", async () => {
  await withApp({}, async (t, fake) => {
    const ada = await member(t, "Ada");
    const bad: [unknown, RegExp][] = [
      [{ trigger: "sometimes" }, /trigger/],
      [{ forceAction: "delete_all" }, /forceAction/],
      [{ preferredQuestionId: 42 }, /preferredQuestionId/],
      [{ actor: "Ada" }, /actor/],
      [{ actor: { name: 7 } }, /actor\.name/],
      [[], /object/],
      ["not json", /Invalid JSON body/],
      ['"a string"', /object/],
    ];
    for (const [body, pattern] of bad) {
      const res = await json<{ error: string; issues?: unknown }>(participate(t, ada, body));
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.body.error, pattern, JSON.stringify(body));
    }
    assert.equal(fake.calls.length, 0, "bad input never reaches the model");
    const empty = await t.request(PATH, {
      method: "POST",
      headers: { cookie: ada.cookie, origin: t.services.config.appOrigin },
    });
    assert.equal(empty.status, 200);
    const body = await empty.json() as Result;
    assert.equal(body.trigger, "manual");
    // An actor is accepted but never changes who the author is.
    const withActor = await json<Result>(participate(t, ada, {
      actor: { name: "Mallory", avatar: "https://evil.example/x.png" },
      forceAction: "ask_new",
    }));
    assert.equal(withActor.status, 200);
    assert.deepEqual(withActor.body.question?.author, { id: ada.id, name: "Ada", avatar: "" });
  });
});

Deno.test("local mode: the stand-in model plans, asks and replies; its output is marked", async () => {
  const t = await createTestApp();
  try {
    assert.equal(t.services.llm?.standIn, true);
    const ada = await member(t, "Ada");
    const asked = await json<Result>(participate(t, ada, {}));
    assert.equal(asked.status, 200);
    assert.equal(asked.body.action, "ask_new");
    const q = asked.body.question!;
    assert.ok(q.title.length >= 2 && q.title.length <= 120, q.title);
    assert.match(q.title, /\?$/);
    assert.equal(q.standIn, true);
    assert.equal(asked.body.questionMessage?.standIn, true);

    const bob = await member(t, "Bob");
    const other = await ask(t, bob, { title: "Should cities build more bike lanes?" });
    const said = await answer(t, bob, other, "Protected lanes changed my commute completely.");
    const replied = await json<Result>(
      participate(t, ada, { forceAction: "reply_existing", preferredQuestionId: other }),
    );
    assert.equal(replied.status, 200);
    const m = replied.body.replyMessage!;
    assert.equal(m.replyTo, said);
    assert.equal(m.standIn, true);
    assert.ok((m.content as string).length >= 100, m.content as string);
    for (const trigger of ["manual", "auto"]) {
      const r = await participate(t, ada, { trigger });
      assert.equal(r.status, 200, trigger);
      assert.ok(ParticipateResult.safeParse(await r.json()).success);
    }
  } finally {
    await t.close();
  }
});

Deno.test("the button is on the home and question pages for signed-in people, a prompt otherwise", async () => {
  await withApp({}, async (t) => {
    const c = await community(t);
    const button = /<button[^>]*>Ask my agent to take part<\/button>/;
    for (const path of ["/", `/questions/${c.hot}`]) {
      const signedIn = await (await getAs(t, c.ada, path)).text();
      assert.match(signedIn, button, path);
      const signedOut = await (await getAs(t, null, path)).text();
      assert.doesNotMatch(signedOut, button, path);
      assert.match(signedOut, /ask (your|their) agent to take part/, path);
    }
  });
});

Deno.test("the preview writes nothing but a draft; Post stores exactly that text once, as the agent's", () =>
  withApp({}, async (t) => {
    const c = await community(t);
    const before = (await dump(t.kv)).filter((k) => !k.includes("participation_drafts"));
    const preview = await json<{
      draftId: string;
      action: string;
      reply: { questionId: string; content: string; replyTo: string | null };
      question: null;
    }>(postAs(t, c.ada, `${PATH}/preview`, { forceAction: "reply_existing" }));
    assert.equal(preview.status, 200);
    assert.equal(preview.body.action, "reply_existing");
    assert.equal(preview.body.reply.content, REPLY_TEXT);
    assert.equal(preview.body.question, null);
    assert.match(preview.headers.get("x-ratelimit-limit") ?? "", /^10$/);
    const after = (await dump(t.kv)).filter((k) => !k.includes("participation_drafts"));
    assert.deepEqual(after, before, "a preview posts nothing");

    // Someone else cannot post (or see) Ada's draft.
    const stolen = await postAs(t, c.bob, `${PATH}/post`, { draftId: preview.body.draftId });
    assert.equal(stolen.status, 404);

    const posted = await json<Result>(
      postAs(t, c.ada, `${PATH}/post`, { draftId: preview.body.draftId }),
    );
    assert.equal(posted.status, 200);
    ParticipateResult.parse(posted.body);
    assert.equal(posted.body.replyMessage?.content, REPLY_TEXT);
    assert.equal(posted.body.replyMessage?.createdBy, "agent");
    assert.equal(posted.body.replyMessage?.replyTo, preview.body.reply.replyTo);
    assert.equal(posted.body.replyQuestionId, preview.body.reply.questionId);
    const again = await json(postAs(t, c.ada, `${PATH}/post`, { draftId: preview.body.draftId }));
    assert.equal(again.status, 404, "a draft posts once");
  }));

Deno.test("a discarded draft cannot be posted; bad draft ids are 400; API keys are refused", () =>
  withApp({}, async (t) => {
    const c = await community(t);
    const preview = await json<{ draftId: string; question: { title: string } | null }>(
      postAs(t, c.ada, `${PATH}/preview`, { forceAction: "ask_new" }),
    );
    assert.equal(preview.body.question?.title, ASKED.title);
    const discarded = await t.request(`${PATH}/preview?draftId=${preview.body.draftId}`, {
      method: "DELETE",
      headers: { cookie: c.ada.cookie, origin: t.services.config.appOrigin },
    });
    assert.equal(discarded.status, 200);
    const late = await postAs(t, c.ada, `${PATH}/post`, { draftId: preview.body.draftId });
    assert.equal(late.status, 404);
    assert.equal((await postAs(t, c.ada, `${PATH}/post`, { draftId: "../x" })).status, 400);
    assert.equal((await postAs(t, c.ada, `${PATH}/post`, "not json")).status, 400);
    const key = await agentKey(t, c.ada);
    const withKey = await t.request(`${PATH}/preview`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(withKey.status, 401);
  }));
