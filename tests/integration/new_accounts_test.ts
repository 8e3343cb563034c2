/**
 * New accounts (docs/interface.md#new-accounts), through HTTP over real KV: an account
 * younger than NEW_ACCOUNT_HOURS with nothing up-voted or accepted asks and answers under
 * stricter daily limits — one budget for every way in and every instance — is told how
 * to earn the usual ones, and its links carry rel="ugc nofollow"; an up-vote or an
 * accepted answer lifts all of it.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../helpers/app.ts";
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
  vote,
} from "../helpers/community.ts";
import { createUser } from "@/lib/auth/users.ts";
import { createSession, sessionCookieName } from "@/lib/auth/sessions.ts";
import { parseConfig } from "@/lib/config.ts";

/** The defaults of production (tests turn the new-account limits off unless asked). */
const NEW_ACCOUNT_ENV = {
  LIMIT_NEW_ACCOUNT_QUESTIONS_PER_DAY: "3",
  LIMIT_NEW_ACCOUNT_MESSAGES_PER_DAY: "10",
};

/** A member whose account is two days old: established. */
async function veteran(t: TestApp, name: string): Promise<Member> {
  const user = await createUser(t.kv, {
    provider: "provider_a",
    name,
    image: null,
    bio: "",
    email: null,
  }, Date.now() - 48 * 3_600_000);
  const { token } = await createSession(t.kv, user.id, "provider_a");
  return {
    id: user.id,
    name,
    cookie: `${sessionCookieName(t.services.config.appOrigin)}=${token}`,
  };
}

const LINK = "See [the guide](https://guide.example/otters) first.";

Deno.test("new account: the 4th question of the day is refused with how to earn the usual limits; an up-vote lifts it", async () => {
  const t = await createTestApp({ env: NEW_ACCOUNT_ENV });
  try {
    const nina = await member(t, "Nina");
    const olga = await veteran(t, "Olga");
    const key = await agentKey(t, nina);
    const first = await ask(t, nina, { title: "Question one" });
    await ask(t, nina, { title: "Question two" });
    // The agent API spends the same budget.
    const viaAgent = await agentCall(t, key, "/api/agent/questions", {
      body: { title: "Question three" },
    });
    assert.equal(viaAgent.status, 201);
    const fourth = await json<{ error: string; retryAfter: number }>(
      postAs(t, nina, "/api/questions", { title: "Question four" }),
    );
    assert.equal(fourth.status, 429);
    assert.equal(
      fourth.body.error.replace(/Try again in .*$/, ""),
      "Too many questions for a new account: you can ask 3 per day until something you wrote is up-voted or accepted as an answer, or your account is 24 hours old; then the usual limits apply. ",
    );
    assert.ok(fourth.body.retryAfter > 23 * 3600, String(fourth.body.retryAfter));
    assert.equal(fourth.headers.get("retry-after"), String(fourth.body.retryAfter));
    const viaAgentAgain = await agentCall(t, key, "/api/agent/questions", {
      body: { title: "Four" },
    });
    assert.equal(viaAgentAgain.status, 429);
    // An established account asks on.
    for (let i = 0; i < 4; i++) await ask(t, olga, { title: `Olga asks ${i}` });
    // Someone up-votes her first question: she is established, the usual limits apply.
    await vote(t, olga, "question", first, "up");
    assert.equal((await postAs(t, nina, "/api/questions", { title: "Question four" })).status, 201);
  } finally {
    await t.close();
  }
});

Deno.test("new account: answers and replies too — the 11th of the day is refused, an accepted answer lifts it", async () => {
  const t = await createTestApp({ env: NEW_ACCOUNT_ENV });
  try {
    const nina = await member(t, "Nina");
    const olga = await veteran(t, "Olga");
    const q = await ask(t, olga, { title: "Where do otters sleep?" });
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await answer(t, nina, q, `Answer ${i}`));
    const eleventh = await json<{ error: string }>(
      postAs(t, nina, `/api/questions/${q}/messages`, { content: "Answer 10" }),
    );
    assert.equal(eleventh.status, 429);
    assert.match(
      eleventh.body.error,
      /^Too many answers and replies for a new account: you can post 10 per day until/,
    );
    // Nothing was written by the refused one.
    const thread =
      (await json<{ messageCount: number }>(getAs(t, null, `/api/questions/${q}`))).body;
    assert.equal(thread.messageCount, 10);
    assert.equal(
      (await postAs(t, olga, `/api/questions/${q}/accept`, { messageId: ids[0] })).status,
      200,
    );
    assert.equal(
      (await postAs(t, nina, `/api/questions/${q}/messages`, { content: "Answer 10" })).status,
      201,
    );
  } finally {
    await t.close();
  }
});

Deno.test("new account: the daily limit is one budget for every instance sharing the store", async () => {
  const dir = await Deno.makeTempDir();
  const kvPath = `${dir}/shared.kv`;
  const a = await createTestApp({ env: NEW_ACCOUNT_ENV, kvPath });
  const b = await createTestApp({ env: NEW_ACCOUNT_ENV, kvPath });
  try {
    const nina = await member(a, "Nina");
    await ask(a, nina, { title: "Asked on instance A" });
    await ask(b, nina, { title: "Asked on instance B" });
    await ask(a, nina, { title: "Asked on instance A again" });
    assert.equal((await postAs(b, nina, "/api/questions", { title: "One more on B" })).status, 429);
    assert.equal((await postAs(a, nina, "/api/questions", { title: "One more on A" })).status, 429);
  } finally {
    await a.close();
    await b.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("new account: links in its posts carry rel=\"ugc nofollow\"; an established account's keep today's rel", async () => {
  const t = await createTestApp({ env: NEW_ACCOUNT_ENV });
  try {
    const nina = await member(t, "Nina");
    const olga = await veteran(t, "Olga");
    const newQ = await ask(t, nina, { title: "Otter guides by Nina", description: LINK });
    const oldQ = await ask(t, olga, { title: "Otter guides by Olga", description: LINK });
    const newA = await answer(t, nina, oldQ, `Nina says: ${LINK}`);
    const newPage = await (await getAs(t, null, `/questions/${newQ}`)).text();
    assert.match(
      newPage,
      /<a href="https:\/\/guide.example\/otters" rel="ugc nofollow">the guide<\/a>/,
    );
    const oldPage = await (await getAs(t, null, `/questions/${oldQ}`)).text();
    // Olga's own question keeps today's rel; Nina's answer on it is marked.
    assert.match(oldPage, /<a href="https:\/\/guide.example\/otters" rel="nofollow ugc noopener">/);
    assert.equal(oldPage.match(/rel="ugc nofollow"/g)?.length, 1, "only Nina's answer");
    const feed = await (await getAs(t, null, `/feeds/questions/${oldQ}`)).text();
    assert.ok(feed.includes("rel=&quot;ugc nofollow&quot;") || feed.includes('rel="ugc nofollow"'));
    const api = (await json<{ newAccount?: true; messages: { id: string; newAccount?: true }[] }>(
      getAs(t, null, `/api/questions/${oldQ}`),
    )).body;
    assert.equal(api.newAccount, undefined);
    assert.equal(api.messages.find((m) => m.id === newA)?.newAccount, true);
    // Once up-voted, Nina's new posts keep today's rel.
    await vote(t, olga, "message", newA, "up");
    const later = await answer(t, nina, oldQ, `Later: ${LINK}`);
    const after = await (await getAs(t, null, `/questions/${oldQ}`)).text();
    assert.equal(
      after.match(/rel="ugc nofollow"/g)?.length,
      1,
      `only the first answer, not ${later}`,
    );
  } finally {
    await t.close();
  }
});

Deno.test("new-account variables: defaults 3 and 10, validated with a message naming the variable", () => {
  const c = parseConfig({ KV_PATH: ":memory:" });
  assert.deepEqual(c.limits.newAccount, { hours: 24, questionsPerDay: 3, messagesPerDay: 10 });
  assert.deepEqual(
    parseConfig({
      KV_PATH: ":memory:",
      NEW_ACCOUNT_HOURS: "0",
      LIMIT_NEW_ACCOUNT_QUESTIONS_PER_DAY: "0",
    }).limits.newAccount,
    { hours: 0, questionsPerDay: 0, messagesPerDay: 10 },
  );
  assert.throws(
    () => parseConfig({ KV_PATH: ":memory:", LIMIT_NEW_ACCOUNT_MESSAGES_PER_DAY: "-1" }),
    { message: "LIMIT_NEW_ACCOUNT_MESSAGES_PER_DAY must be 0 (off) or more" },
  );
  assert.throws(
    () => parseConfig({ KV_PATH: ":memory:", LIMIT_NEW_ACCOUNT_QUESTIONS_PER_DAY: "many" }),
    { message: "LIMIT_NEW_ACCOUNT_QUESTIONS_PER_DAY must be a number" },
  );
});
