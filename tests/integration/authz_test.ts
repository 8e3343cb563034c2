/**
 * Authorization: user B, signed in or with B's own agent key, can never act on or read
 * user A's private data. One test per question of the security review.
 */
import assert from "node:assert/strict";
import { bindIdentity } from "@/lib/auth/identities.ts";
import { saveSettings } from "@/lib/profile/settings.ts";
import { createTestApp, jsonWrite, type TestApp } from "../helpers/app.ts";
import {
  agentCall,
  agentKey,
  ask,
  getAs,
  json,
  postAs,
  publicVoter,
} from "../helpers/community.ts";
import { seedOwner } from "../helpers/seed.ts";

async function withApp(fn: (t: TestApp) => Promise<void>) {
  const t = await createTestApp();
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

Deno.test("authz: B cannot revoke A's agent key by its id", () =>
  withApp(async (t) => {
    const a = await seedOwner(t, "Alice");
    const b = await publicVoter(t, "Bob");
    const res = await t.request(`/api/profile/agent-keys?id=${a.agentKeyId}`, {
      method: "DELETE",
      headers: jsonWrite(t, b.cookie),
    });
    assert.equal(res.status, 404);
    assert.equal((await res.json()).error, "No such API key");
    assert.equal((await agentCall(t, a.agentKey, "/api/agent/me")).status, 200);
    // B's key list does not show A's key either.
    const list = await json<{ keys: { id: string }[] }>(getAs(t, b, "/api/profile/agent-keys"));
    assert.deepEqual(list.body.keys, []);
  }));

Deno.test("authz: B cannot unbind A's identity; unbind only ever touches the caller's own", () =>
  withApp(async (t) => {
    const a = await seedOwner(t, "Alice");
    const b = await publicVoter(t, "Bob");
    for (const provider of ["provider_a", "provider_b"] as const) {
      const outcome = await bindIdentity(t.kv, t.services.secret, {
        userId: a.owner.id,
        provider,
        profile: {
          providerAccountId: `alice-${provider}`,
          name: "Alice",
          email: null,
          avatar: null,
          bio: "",
        },
        tokens: { accessToken: "tok", refreshToken: null, expiresAt: null },
        now: t.services.now(),
      });
      assert.equal(outcome, "bound");
    }
    const del = await t.request("/api/profile/identities?provider=provider_b", {
      method: "DELETE",
      headers: jsonWrite(t, b.cookie),
    });
    assert.equal(del.status, 404);
    const form = await t.request("/api/profile/identities", {
      method: "POST",
      headers: {
        cookie: b.cookie,
        origin: t.services.config.appOrigin,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: `provider=provider_b&userId=${a.owner.id}`,
    });
    assert.equal(form.status, 303);
    assert.match(form.headers.get("location") ?? "", /unbind=failed/);
    const mine = await json<{ identities: unknown[] }>(
      getAs(t, a.owner, "/api/profile/identities"),
    );
    assert.equal(mine.body.identities.length, 2);
  }));

Deno.test("authz: A's private debate is a 404 for B and signed-out visitors, API and page", () =>
  withApp(async (t) => {
    const a = await seedOwner(t, "Alice");
    const b = await publicVoter(t, "Bob");
    for (const who of [b, null]) {
      const api = await getAs(t, who, `/api/debates/${a.debateId}`);
      assert.equal(api.status, 404);
      assert.deepEqual(await api.json(), { error: "Debate not found" });
      const page = await getAs(t, who, `/debates/${a.debateId}`);
      assert.equal(page.status, 404);
      assert.doesNotMatch(await page.text(), /Alice's private debate/);
    }
    const history = await json<unknown[]>(getAs(t, b, "/api/debate/history"));
    assert.deepEqual(history.body, []);
    // The owner reads it; once the archive is public, so does B.
    assert.equal((await getAs(t, a.owner, `/api/debates/${a.debateId}`)).status, 200);
    await saveSettings(t.kv, a.owner.id, { debateArchive: "public" });
    assert.equal((await getAs(t, b, `/api/debates/${a.debateId}`)).status, 200);
  }));

Deno.test("authz: A's private activity is hidden from B (API and page), A's questions stay public on their pages", () =>
  withApp(async (t) => {
    const a = await seedOwner(t, "Alice");
    const b = await publicVoter(t, "Bob");
    // A votes and favorites something, so there is private metadata to leak (a vote on
    // someone else's post: one's own cannot be voted on).
    const other = await ask(t, b, { title: "Bob's question" });
    assert.equal(
      (await postAs(t, a.owner, "/api/likes", {
        targetId: other,
        targetType: "question",
      })).status,
      200,
    );
    assert.equal(
      (await postAs(t, a.owner, "/api/favorites", {
        targetId: a.questionId,
        targetType: "question",
      })).status,
      200,
    );
    for (const type of ["likes", "favorites", "debates"]) {
      const res = await getAs(t, b, `/api/profile/public/${a.owner.id}/activity?type=${type}`);
      assert.equal(res.status, 403, type);
      assert.equal((await res.json()).error, "This activity is private");
      const page = await (await getAs(t, b, `/u/${a.owner.id}?tab=${type}`)).text();
      // The activity feed is private too: no activity section at all.
      assert.match(page, /Alice keeps their activity private\./, type);
      assert.doesNotMatch(page, /Alice's private debate/);
    }
    const own = await json<{ activities: unknown[] }>(
      getAs(t, a.owner, `/api/profile/public/${a.owner.id}/activity?type=likes`),
    );
    assert.equal(own.body.activities.length, 1);
    // B's own activity endpoint never answers for someone else, whatever the query says.
    const mine = await json<{ activities: unknown[] }>(
      getAs(t, b, `/api/profile/activity?type=likes&userId=${a.owner.id}`),
    );
    assert.equal(mine.status, 200);
    assert.deepEqual(mine.body.activities, []);
    // The list of A's questions is private with the rest of the feed; the questions are not.
    const questions = await getAs(
      t,
      b,
      `/api/profile/public/${a.owner.id}/activity?type=questions`,
    );
    assert.equal(questions.status, 403);
    await questions.body?.cancel();
    const question = await getAs(t, b, `/api/questions/${a.questionId}`);
    assert.equal(question.status, 200);
    await question.body?.cancel();
  }));

Deno.test("authz: votes and favorites are always the caller's, whatever the body claims", () =>
  withApp(async (t) => {
    const a = await seedOwner(t, "Alice");
    const b = await publicVoter(t, "Bob");
    const forged = { targetId: a.questionId, targetType: "question", userId: a.owner.id };
    const like = await json<{ liked: boolean; upvotes: number }>(
      postAs(t, b, "/api/likes", forged),
    );
    assert.equal(like.status, 200);
    const fav = await postAs(t, b, "/api/favorites", forged);
    assert.equal(fav.status, 200);
    const q = await json<{ likedBy: string[] }>(getAs(t, null, `/api/questions/${a.questionId}`));
    assert.deepEqual(q.body.likedBy, [b.id]);
    const aFavs = await json<{ statuses: Record<string, boolean> }>(
      getAs(t, a.owner, `/api/favorites?targetType=question&targetIds=${a.questionId}`),
    );
    assert.deepEqual(aFavs.body.statuses, { [a.questionId]: false });
    // The agent vote acts as the key's owner too.
    const bKey = await agentKey(t, b);
    const vote = await agentCall(t, bKey, `/api/agent/questions/${a.questionId}/vote`, {
      body: { voteType: "down", userId: a.owner.id },
    });
    assert.equal(vote.status, 200);
    const after = await json<{ likedBy: string[]; dislikedBy: string[] }>(
      getAs(t, null, `/api/questions/${a.questionId}`),
    );
    assert.deepEqual(after.body.likedBy, []);
    assert.deepEqual(after.body.dislikedBy, [b.id]);
  }));

Deno.test("authz: B's agent key (even with A's cookie alongside) replies and asks as B", () =>
  withApp(async (t) => {
    const a = await seedOwner(t, "Alice");
    const b = await publicVoter(t, "Bob");
    const bKey = await agentKey(t, b);
    const reply = await agentCall(t, bKey, `/api/agent/questions/${a.questionId}/reply`, {
      body: { content: "Hello", author: { id: a.owner.id, name: "Alice" }, userId: a.owner.id },
      headers: { cookie: a.owner.cookie },
    });
    assert.equal(reply.status, 201);
    const msg = await reply.json();
    assert.equal(msg.author.id, b.id);
    assert.equal(msg.author.name, "Bob");
    const asked = await agentCall(t, bKey, "/api/agent/questions", {
      body: { title: "Who asks this?", author: { id: a.owner.id } },
      headers: { cookie: a.owner.cookie },
    });
    assert.equal(asked.status, 201);
    const q = await json<{ author: { id: string } }>(
      getAs(t, null, `/api/questions/${(await asked.json()).id}`),
    );
    assert.equal(q.body.author.id, b.id);
    // A cookie write riding on a bearer header never becomes A's session write.
    const cookieWrite = await t.request("/api/questions", {
      method: "POST",
      headers: {
        authorization: `Bearer ${bKey}`,
        cookie: a.owner.cookie,
        "content-type": "application/json",
        origin: "https://evil.example",
      },
      body: JSON.stringify({ title: "Cross-site as Alice" }),
    });
    assert.equal(cookieWrite.status, 401);
  }));

Deno.test("authz: 20 racing key creations leave exactly 5 keys", () =>
  withApp(async (t) => {
    const b = await publicVoter(t, "Bob");
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        postAs(t, b, "/api/profile/agent-keys", { name: `k${i}` }).then(async (r) => {
          await r.body?.cancel();
          return r.status;
        })),
    );
    assert.equal(
      results.filter((s) =>
        s === 201
      ).length,
      5,
    );
    assert.equal(results.filter((s) => s === 409).length, 15);
    const list = await json<{ keys: unknown[] }>(getAs(t, b, "/api/profile/agent-keys"));
    assert.equal(list.body.keys.length, 5);
  }));
