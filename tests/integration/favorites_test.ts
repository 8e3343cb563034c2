/**
 * Favorites through /api/favorites: docs/interface.md#favorites's favorite table on questions and messages,
 * the status lookup and its limits, races, and the activity and statistics rows.
 */
import assert from "node:assert/strict";
import { type FavoriteRecord, type UserFavoriteEntry } from "@/lib/community/favorites.ts";
import { counterValue } from "@/lib/kv/atomic.ts";
import { keys } from "@/lib/kv/keys.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { answer, ask, getAs, json, member, postAs } from "../helpers/community.ts";

async function setup(t: TestApp) {
  const author = await member(t, "Author");
  const fan = await member(t, "Fan");
  const questionId = await ask(t, author, { title: "What should I keep?" });
  const messageId = await answer(t, author, questionId, "Everything useful.");
  return { author, fan, questionId, messageId };
}

for (const targetType of ["question", "message"] as const) {
  Deno.test(`favorite table on a ${targetType}: favorited, then unfavorited, record as docs/interface.md#favorites`, async () => {
    const t = await createTestApp({ now: () => 1_700_000_000_000 });
    try {
      const { author, fan, questionId, messageId } = await setup(t);
      const targetId = targetType === "question" ? questionId : messageId;
      const key = keys.favorite(fan.id, targetType, targetId);

      let r = await json(postAs(t, fan, "/api/favorites", { targetId, targetType }));
      assert.deepEqual([r.status, r.body], [200, { favorited: true, action: "favorited" }]);
      const record = (await t.kv.get<FavoriteRecord>(key)).value;
      assert.deepEqual(record, {
        userId: fan.id,
        targetType,
        targetId,
        questionId, // a message favorite stores its owning question
        createdAt: 1_700_000_000_000,
        updatedAt: 1_700_000_000_000,
      });
      const st = await json(
        getAs(t, fan, `/api/favorites?targetType=${targetType}&targetIds=${targetId},other`),
      );
      assert.deepEqual(st.body, { statuses: { [targetId]: true, other: false } });
      const received = async () =>
        counterValue((await t.kv.get(keys.userStat(author.id, "favorites_received"))).value);
      assert.equal(await received(), 1);
      const entries = await Array.fromAsync(
        t.kv.list<UserFavoriteEntry>({ prefix: keys.userFavoritesPrefix(fan.id) }),
      );
      assert.deepEqual(entries.map((e) => e.value), [{
        targetType,
        targetId,
        questionId,
        createdAt: 1_700_000_000_000,
      }]);

      r = await json(postAs(t, fan, "/api/favorites", { targetId, targetType }));
      assert.deepEqual([r.status, r.body], [200, { favorited: false, action: "unfavorited" }]);
      assert.equal((await t.kv.get(key)).value, null);
      assert.equal(await received(), 0);
      assert.equal(
        (await Array.fromAsync(t.kv.list({ prefix: keys.userFavoritesPrefix(fan.id) }))).length,
        0,
      );
      const st2 = await json(
        getAs(t, fan, `/api/favorites?targetType=${targetType}&targetIds=${targetId}`),
      );
      assert.deepEqual(st2.body, { statuses: { [targetId]: false } });
    } finally {
      await t.close();
    }
  });
}

Deno.test("favorites are per user: another user's favorite is not mine", async () => {
  const t = await createTestApp();
  try {
    const { author, fan, questionId } = await setup(t);
    await postAs(t, fan, "/api/favorites", { targetId: questionId, targetType: "question" });
    const mine = await json(
      getAs(t, author, `/api/favorites?targetType=question&targetIds=${questionId}`),
    );
    assert.deepEqual(mine.body, { statuses: { [questionId]: false } });
  } finally {
    await t.close();
  }
});

Deno.test("favorites: errors and limits, each with its status and body", async () => {
  const t = await createTestApp();
  try {
    const { fan, questionId } = await setup(t);
    const post = (body: unknown) => json(postAs(t, fan, "/api/favorites", body));
    let r = await post({ targetId: "q-missing", targetType: "question" });
    assert.deepEqual([r.status, r.body.error], [404, "The question was not found"]);
    r = await post({ targetId: "msg-missing", targetType: "message" });
    assert.deepEqual([r.status, r.body.error], [404, "The message was not found"]);
    r = await post({ targetId: questionId, targetType: "answer" });
    assert.deepEqual([r.status, r.body.error], [400, 'targetType must be "question" or "message"']);
    r = await post({ targetType: "question" });
    assert.deepEqual([r.status, r.body.error], [400, "targetId is required"]);
    r = await json(postAs(t, fan, "/api/favorites", "[1,"));
    assert.deepEqual([r.status, r.body], [400, { error: "Invalid JSON body" }]);
    r = await json(
      postAs(t, null, "/api/favorites", { targetId: questionId, targetType: "question" }),
    );
    assert.deepEqual([r.status, r.body], [401, { error: "Unauthorized" }]);

    // GET: no ids → empty statuses; >200 ids → 400; bad type → 400; signed out → 401.
    r = await json(getAs(t, fan, "/api/favorites?targetType=question"));
    assert.deepEqual([r.status, r.body], [200, { statuses: {} }]);
    r = await json(getAs(t, fan, "/api/favorites?targetType=question&targetIds="));
    assert.deepEqual([r.status, r.body], [200, { statuses: {} }]);
    r = await json(getAs(t, fan, "/api/favorites"));
    assert.deepEqual([r.status, r.body], [200, { statuses: {} }]);
    const ids200 = Array.from({ length: 200 }, (_, i) => `q-${i}`).join(",");
    r = await json(getAs(t, fan, `/api/favorites?targetType=question&targetIds=${ids200}`));
    assert.equal(r.status, 200);
    assert.equal(Object.keys(r.body.statuses as object).length, 200);
    r = await json(getAs(t, fan, `/api/favorites?targetType=question&targetIds=${ids200},q-200`));
    assert.deepEqual([r.status, r.body], [400, { error: "At most 200 targetIds per request" }]);
    r = await json(getAs(t, fan, `/api/favorites?targetType=thing&targetIds=a`));
    assert.deepEqual([r.status, r.body.error], [400, 'targetType must be "question" or "message"']);
    r = await json(getAs(t, fan, `/api/favorites?targetIds=a`));
    assert.equal(r.status, 400);
    r = await json(getAs(t, null, `/api/favorites?targetType=question&targetIds=a`));
    assert.deepEqual([r.status, r.body], [401, { error: "Unauthorized" }]);
  } finally {
    await t.close();
  }
});

Deno.test("50 racing favorite toggles by one user leave zero or one record, and all succeed", async () => {
  const t = await createTestApp();
  try {
    const { author, fan, questionId } = await setup(t);
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        json<{ favorited: boolean; action: string }>(
          postAs(t, fan, "/api/favorites", { targetId: questionId, targetType: "question" }),
        )),
    );
    assert.ok(results.every((r) => r.status === 200));
    assert.ok(
      results.every((r) => r.body.action === (r.body.favorited ? "favorited" : "unfavorited")),
    );
    const records = await Array.fromAsync(t.kv.list({ prefix: ["favorites", fan.id] }));
    assert.ok(records.length <= 1, `${records.length} records`);
    const index = await Array.fromAsync(t.kv.list({ prefix: keys.userFavoritesPrefix(fan.id) }));
    assert.equal(index.length, records.length, "the activity index agrees with the record");
    const [count, received] = await Promise.all([
      t.kv.get(keys.favoriteCount("question", questionId)),
      t.kv.get(keys.userStat(author.id, "favorites_received")),
    ]);
    assert.equal(counterValue(count.value), records.length);
    assert.equal(counterValue(received.value), records.length);
  } finally {
    await t.close();
  }
});
