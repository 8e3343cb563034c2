/**
 * `POST /api/likes` reads the session itself, with the voter's own keys in the same read
 * (routes/api/likes.ts, `sessionRead: "handler"`): cookies with the user id and older ones
 * without it both sign in, a session record that names someone other than the id its
 * token carries signs nobody in, the 401-before-400 order holds, cross-site posts are still
 * refused, and a session due for renewal still sends its cookie again.
 */
import assert from "node:assert/strict";
import { keys } from "@/lib/kv/keys.ts";
import { counterValue } from "@/lib/kv/atomic.ts";
import { randomToken, sha256Hex } from "@/lib/ids.ts";
import {
  SESSION_RENEW_AFTER_MS,
  SESSION_TTL_MS,
  sessionCookieName,
  writeSession,
} from "@/lib/auth/sessions.ts";
import { type HitLog, loggedTimes } from "@/lib/limits/window.ts";
import { createTestApp, jsonWrite, type TestApp } from "../helpers/app.ts";
import { ask, type Member, member } from "../helpers/community.ts";

const NOW = 1_800_000_000_000;

/** A session record under the hash of `token`, naming `userId`, as sign-in writes one. */
async function storeSession(t: TestApp, token: string, userId: string, now: number) {
  const hash = await sha256Hex(token);
  const op = writeSession(t.kv.atomic(), {
    key: keys.session(hash),
    indexKey: keys.sessionByUser(userId, hash),
    session: {
      userId,
      provider: "provider_a",
      createdAt: now,
      renewedAt: now,
      expiresAt: now + SESSION_TTL_MS,
    },
  });
  assert.ok((await op.commit()).ok);
  return `${sessionCookieName(t.services.config.appOrigin)}=${token}`;
}

function likeWith(t: TestApp, cookie: string | null, body: unknown, origin?: string) {
  const headers: Record<string, string> = {
    origin: origin ?? t.services.config.appOrigin,
    "content-type": "application/json",
  };
  if (cookie) headers.cookie = cookie;
  return t.request("/api/likes", {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function upvotes(t: TestApp, questionId: string): Promise<number> {
  return counterValue((await t.kv.get(keys.voteCount("question", questionId, "up"))).value);
}

async function setup(t: TestApp): Promise<{ author: Member; voter: Member; questionId: string }> {
  const author = await member(t, "Author");
  const voter = await member(t, "Voter");
  const questionId = await ask(t, author, { title: "Does a like read the session once?" });
  return { author, voter, questionId };
}

Deno.test("likes: a cookie with the user id and an older one without it both vote, budget spent", async () => {
  const t = await createTestApp();
  try {
    const { voter, questionId } = await setup(t);
    const like = { targetId: questionId, targetType: "question" };
    assert.match(voter.cookie, /=[^.]+\.u/, "sign-in writes the user id into the token");
    const res = await likeWith(t, voter.cookie, like);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      action: "liked",
      upvotes: 1,
      downvotes: 0,
      liked: true,
      downvoted: false,
    });
    // A token issued before the id part: no `.`, the same person.
    const old = await storeSession(t, randomToken(32), voter.id, t.services.now());
    const again = await likeWith(t, old, like);
    assert.equal(again.status, 200);
    assert.equal((await again.json()).action, "unliked", "the old cookie is the same voter");
    assert.equal(await upvotes(t, questionId), 0);
    const log = await t.kv.get<HitLog>(keys.rateLimitLog("post_votes", voter.id));
    assert.equal(loggedTimes(log.value).length, 2, "both votes spent from the voter's budget");
  } finally {
    await t.close();
  }
});

Deno.test("likes: a session whose token carries another person's id signs nobody in", async () => {
  const t = await createTestApp();
  try {
    const { voter, author, questionId } = await setup(t);
    const victim = await member(t, "Victim");
    // A record of the voter's session under a token whose id part names the victim: the id
    // part grants nothing, the record decides, and they disagree.
    const forged = await storeSession(t, `${randomToken(32)}.${victim.id}`, voter.id, NOW);
    const res = await likeWith(t, forged, { targetId: questionId, targetType: "question" });
    assert.equal(res.status, 401);
    assert.deepEqual(await res.json(), { error: "Unauthorized" });
    // An id part swapped on a real token: no such session at all.
    const real = voter.cookie.split("=")[1];
    const swapped = `${sessionCookieName(t.services.config.appOrigin)}=${
      real.slice(0, real.indexOf("."))
    }.${author.id}`;
    const res2 = await likeWith(t, swapped, { targetId: questionId, targetType: "question" });
    assert.equal(res2.status, 401);
    await res2.body?.cancel();
    assert.equal(await upvotes(t, questionId), 0);
    for (const id of [voter.id, victim.id, author.id]) {
      assert.equal((await t.kv.get(keys.vote("question", questionId, id))).value, null);
      assert.equal((await t.kv.get(keys.rateLimitLog("post_votes", id))).value, null);
    }
  } finally {
    await t.close();
  }
});

Deno.test("likes: 401 before 400 — signed out or a dead cookie with a bad body is 401, signed in 400", async () => {
  const t = await createTestApp();
  try {
    const { voter, questionId } = await setup(t);
    const bad = { targetId: questionId, targetType: "poll" };
    const none = await likeWith(t, null, bad);
    assert.equal(none.status, 401);
    await none.body?.cancel();
    const dead = await likeWith(t, `${sessionCookieName(t.services.config.appOrigin)}=x.u1`, "{");
    assert.equal(dead.status, 401);
    await dead.body?.cancel();
    const badJson = await likeWith(t, voter.cookie, "{");
    assert.equal(badJson.status, 400);
    assert.deepEqual(await badJson.json(), { error: "Invalid JSON body" });
    const badType = await likeWith(t, voter.cookie, bad);
    assert.equal(badType.status, 400);
    await badType.body?.cancel();
    const missing = await likeWith(t, voter.cookie, { targetId: "q-nope", targetType: "question" });
    assert.equal(missing.status, 404);
    await missing.body?.cancel();
    assert.equal(await upvotes(t, questionId), 0);
  } finally {
    await t.close();
  }
});

Deno.test("likes: a cross-site post with a session cookie is refused and writes nothing", async () => {
  const t = await createTestApp();
  try {
    const { voter, questionId } = await setup(t);
    const res = await likeWith(
      t,
      voter.cookie,
      { targetId: questionId, targetType: "question" },
      "https://evil.example",
    );
    assert.equal(res.status, 403);
    await res.body?.cancel();
    assert.equal(await upvotes(t, questionId), 0);
    assert.equal((await t.kv.get(keys.vote("question", questionId, voter.id))).value, null);
  } finally {
    await t.close();
  }
});

Deno.test("likes: a session due for renewal slides and sends its cookie again, on errors too", async () => {
  const clock = { now: NOW };
  const t = await createTestApp({ now: () => clock.now });
  try {
    const { voter, questionId } = await setup(t);
    clock.now += SESSION_RENEW_AFTER_MS + 1;
    const res = await t.request("/api/likes", {
      method: "POST",
      headers: jsonWrite(t, voter.cookie),
      body: JSON.stringify({ targetId: questionId, targetType: "question" }),
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("set-cookie") ?? "", /parley_session=.*Max-Age=2592000/);
    await res.body?.cancel();
    clock.now += SESSION_RENEW_AFTER_MS + 1;
    const missing = await likeWith(t, voter.cookie, { targetId: "q-nope", targetType: "question" });
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get("set-cookie") ?? "", /parley_session=/);
    await missing.body?.cancel();
    // Within the day after a renewal: no cookie again.
    const quiet = await likeWith(t, voter.cookie, { targetId: questionId, targetType: "question" });
    assert.equal(quiet.status, 200);
    assert.equal(quiet.headers.get("set-cookie"), null);
    await quiet.body?.cancel();
  } finally {
    await t.close();
  }
});
