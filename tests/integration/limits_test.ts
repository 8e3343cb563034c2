/**
 * Posting limits (docs/interface.md#limits) through the real HTTP surface, with an injected clock:
 * each limit refuses at its stated count with 429, `Retry-After` and a sentence that says
 * when to retry; people, agents and pages spend the same budget; the agent API's 60 a
 * minute is a sliding window.
 */
import assert from "node:assert/strict";
import { createTestApp, jsonWrite, type TestApp } from "../helpers/app.ts";
import { agentCall, agentKey, answer, ask, json, member, postAs } from "../helpers/community.ts";

const T0 = Date.UTC(2031, 0, 1, 12, 0, 0);

async function withClock(
  env: Record<string, string>,
  fn: (t: TestApp, clock: { t: number }) => Promise<void>,
) {
  const clock = { t: T0 };
  const t = await createTestApp({ now: () => clock.t, env });
  try {
    await fn(t, clock);
  } finally {
    await t.close();
  }
}

Deno.test("questions: the 11th in an hour is 429 with Retry-After and says when to retry; agents share the budget", async () => {
  await withClock({}, async (t, clock) => {
    const ada = await member(t, "Ada");
    const key = await agentKey(t, ada);
    for (let i = 0; i < 9; i++) {
      await ask(t, ada, { title: `Question number ${i}` });
      clock.t += 60_000;
    }
    // The 10th through the agent API: the same user, the same budget.
    const tenth = await agentCall(t, key, "/api/agent/questions", {
      body: { title: "Question number 9" },
    });
    assert.equal(tenth.status, 201);
    const refused = await json(postAs(t, ada, "/api/questions", { title: "One too many here" }));
    assert.equal(refused.status, 429);
    // Nine minutes in: the first question leaves the hour 51 minutes from now.
    assert.equal(refused.headers.get("retry-after"), "3060");
    assert.deepEqual(refused.body, {
      error: "Too many questions: you can ask 10 per hour. Try again in 51 minutes.",
      retryAfter: 3060,
    });
    const viaAgent = await agentCall(t, key, "/api/agent/questions", {
      body: { title: "One too many here" },
    });
    assert.equal(viaAgent.status, 429);
    assert.equal(viaAgent.headers.get("retry-after"), "3060");
    await viaAgent.body?.cancel();
    // Another user has their own budget; an hour after the first, one slot frees.
    const bob = await member(t, "Bob");
    await ask(t, bob, { title: "Bob asks something" });
    clock.t = T0 + 3_600_000;
    await ask(t, ada, { title: "Back after an hour" });
    assert.equal(
      (await postAs(t, ada, "/api/questions", { title: "And one more now" })).status,
      429,
    );
  });
});

Deno.test("messages: the 61st answer or reply in an hour is 429; the agent reply spends the same budget", async () => {
  await withClock({ LIMIT_QUESTIONS_PER_HOUR: "0" }, async (t, clock) => {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const key = await agentKey(t, bob);
    const q = await ask(t, ada, { title: "A question to answer" });
    // A write that fails spends nothing (the hit commits with the message).
    for (let i = 0; i < 3; i++) {
      const missing = await postAs(t, bob, "/api/questions/q-missing/messages", { content: "x" });
      assert.equal(missing.status, 404);
      await missing.body?.cancel();
    }
    for (let i = 0; i < 59; i++) {
      await answer(t, bob, q, `Answer ${i}`);
      clock.t += 1000;
    }
    const sixtieth = await agentCall(t, key, `/api/agent/questions/${q}/reply`, {
      body: { content: "Answer 59" },
    });
    assert.equal(sixtieth.status, 201);
    await sixtieth.body?.cancel();
    const refused = await json(postAs(t, bob, `/api/questions/${q}/messages`, { content: "61" }));
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get("retry-after"), String(3600 - 59));
    assert.equal(
      refused.body.error,
      "Too many answers and replies: you can post 60 per hour. Try again in 60 minutes.",
    );
    const agentRefused = await agentCall(t, key, `/api/agent/questions/${q}/reply`, {
      body: { content: "61" },
    });
    assert.equal(agentRefused.status, 429);
    await agentRefused.body?.cancel();
  });
});

Deno.test("votes and favorites share one budget: the 601st in an hour is 429 (LIMIT_VOTES_PER_HOUR)", async () => {
  // The stated count is the variable's; a small one keeps the test fast (600 is the default).
  await withClock({ LIMIT_VOTES_PER_HOUR: "6" }, async (t) => {
    assert.equal(t.services.config.limits.votesPerHour, 6);
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const key = await agentKey(t, bob);
    const q = await ask(t, ada, { title: "Vote on this one" });
    const like = () => postAs(t, bob, "/api/likes", { targetId: q, targetType: "question" });
    const fav = () => postAs(t, bob, "/api/favorites", { targetId: q, targetType: "question" });
    for (const call of [like, like, fav, fav]) assert.equal((await call()).status, 200);
    const agentVote = () => agentCall(t, key, `/api/agent/questions/${q}/vote`, { body: {} });
    assert.equal((await agentVote()).status, 200);
    assert.equal((await fav()).status, 200);
    for (const call of [like, fav, agentVote]) {
      const r = await json(call());
      assert.equal(r.status, 429);
      assert.equal(r.headers.get("retry-after"), "3600");
      assert.match(
        String(r.body.error),
        /^Too many votes and favorites: you can cast 6 per hour\./,
      );
    }
  });
});

Deno.test("limits come from LIMIT_* (defaults 10/60/600/20); 0 turns one off", async () => {
  const t = await createTestApp({ env: { LIMIT_QUESTIONS_PER_HOUR: "0" } });
  try {
    const { limits } = t.services.config;
    assert.deepEqual(limits, {
      questionsPerHour: 0,
      messagesPerHour: 60,
      votesPerHour: 600,
      flagsPerDay: 20,
      // Tests turn new accounts' daily limits off unless they ask (tests/helpers/app.ts).
      newAccount: { hours: 24, questionsPerDay: 0, messagesPerDay: 0 },
    });
    const ada = await member(t, "Ada");
    for (let i = 0; i < 12; i++) await ask(t, ada, { title: `Unlimited ${i} question` });
  } finally {
    await t.close();
  }
});

Deno.test("the /ask form shows the limit message and keeps what was typed", async () => {
  await withClock({ LIMIT_QUESTIONS_PER_HOUR: "1" }, async (t) => {
    const ada = await member(t, "Ada");
    await ask(t, ada, { title: "The first question" });
    const headers = {
      ...jsonWrite(t, ada.cookie) as Record<string, string>,
      "content-type": "application/x-www-form-urlencoded",
    };
    const res = await t.request("/ask", {
      method: "POST",
      headers,
      body: new URLSearchParams({
        title: "My carefully typed title",
        description: "Details I do not want to lose",
        tags: "deno",
      }),
    });
    assert.equal(res.status, 429);
    assert.equal(res.headers.get("retry-after"), "3600");
    const html = await res.text();
    assert.match(html, /Too many questions: you can ask 1 per hour\. Try again in 60 minutes\./);
    assert.match(html, /value="My carefully typed title"/);
    assert.match(html, /Details I do not want to lose/);
  });
});

Deno.test("agent API: a sliding 60 per minute per key — a burst across the minute edge is refused", async () => {
  await withClock({}, async (t, clock) => {
    const ada = await member(t, "Ada");
    const key = await agentKey(t, ada);
    clock.t = T0 + 59_900;
    for (let i = 0; i < 60; i++) {
      const r = await agentCall(t, key, "/api/agent/me");
      assert.equal(r.status, 200, `request ${i + 1}`);
      await r.body?.cancel();
    }
    clock.t = T0 + 60_100; // a fixed window would have reset here
    const refused = await agentCall(t, key, "/api/agent/me");
    assert.equal(refused.status, 429);
    // Sliced (lib/limits/slices.ts): room again at most one sub-bucket (60 s / 9) after
    // an exact log would give it, never before.
    const retry = Number(refused.headers.get("retry-after"));
    assert.ok(retry >= 60 && retry <= 67, `retry-after ${retry}`);
    await refused.body?.cancel();
    clock.t = T0 + 119_950 + 6_667;
    const ok = await agentCall(t, key, "/api/agent/me");
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
  });
});
