/** GET/PATCH /api/profile/me and /api/profile/settings through the real app. */
import assert from "node:assert/strict";
import { createTestApp, jsonWrite, signInAs } from "../helpers/app.ts";
import { isOffensiveName } from "@/lib/profile/profiles.ts";
import { keys } from "@/lib/kv/keys.ts";
import { appWithFakeProviders, signInThrough } from "../helpers/oauth.ts";

Deno.test("GET /api/profile/me defaults to the provider data until customized", async () => {
  const t = await createTestApp();
  try {
    assert.equal((await t.request("/api/profile/me")).status, 401);
    assert.deepEqual(await (await t.request("/api/profile/me")).json(), { error: "Unauthorized" });
    const { user, cookie } = await signInAs(t, "Ada Lovelace", "provider_b");
    const res = await t.request("/api/profile/me", { headers: { cookie } });
    const body = await res.json();
    assert.equal(body.userId, user.id);
    assert.equal(body.displayName, "Ada Lovelace");
    assert.equal(body.avatarUrl, "");
    assert.equal(body.provider, "provider_b");
    assert.equal(body.customized, false);
    assert.match(body.updatedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal("email" in body, false);
  } finally {
    await t.close();
  }
});

Deno.test("PATCH /api/profile/me stores the edit, sets customized and provider", async () => {
  let clock = 1_800_000_000_000;
  const t = await createTestApp({ now: () => clock });
  try {
    const { cookie } = await signInAs(t, "Grace", "provider_c");
    clock += 5000;
    const res = await t.request("/api/profile/me", {
      method: "PATCH",
      headers: jsonWrite(t, cookie),
      body: JSON.stringify({
        displayName: "  Grace Hopper-2.0 ",
        bio: "Compilers",
        avatarUrl: "https://img.example/g.png",
        coverUrl: "http://img.example/c.jpg",
      }),
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { ok: true });
    const me = await (await t.request("/api/profile/me", { headers: { cookie } })).json();
    assert.equal(me.displayName, "Grace Hopper-2.0");
    assert.equal(me.bio, "Compilers");
    assert.equal(me.avatarUrl, "https://img.example/g.png");
    assert.equal(me.coverUrl, "http://img.example/c.jpg");
    assert.equal(me.customized, true);
    assert.equal(me.provider, "provider_c");
    assert.equal(me.updatedAt, new Date(clock).toISOString());
    // A partial edit keeps the other fields; an empty avatar clears it.
    await t.request("/api/profile/me", {
      method: "PATCH",
      headers: jsonWrite(t, cookie),
      body: JSON.stringify({ avatarUrl: "" }),
    });
    const after = await (await t.request("/api/profile/me", { headers: { cookie } })).json();
    assert.equal(after.avatarUrl, "");
    assert.equal(after.bio, "Compilers");
  } finally {
    await t.close();
  }
});

Deno.test("PATCH /api/profile/me refuses each invalid field with 400 naming it", async () => {
  const t = await createTestApp({ env: { OFFENSIVE_WORDS: "badword" } });
  try {
    const { cookie } = await signInAs(t, "Ada");
    const cases: [unknown, string][] = [
      [{ displayName: "" }, "displayName"],
      [{ displayName: "   " }, "displayName"],
      [{ displayName: "x".repeat(41) }, "displayName"],
      [{ displayName: "Ada <script>" }, "displayName"],
      [{ displayName: "Ada!" }, "displayName"],
      [{ displayName: "Bad Word badword" }, "displayName"],
      [{ displayName: "shit" }, "displayName"],
      [{ avatarUrl: "javascript:alert(1)" }, "avatarUrl"],
      [{ avatarUrl: "ftp://x.example/a.png" }, "avatarUrl"],
      [{ coverUrl: "not a url" }, "coverUrl"],
      [{ bio: "b".repeat(201) }, "bio"],
      [{ email: "a@b.c" }, "(body)"],
      [{ displayName: 42 }, "displayName"],
    ];
    for (const [body, field] of cases) {
      const res = await t.request("/api/profile/me", {
        method: "PATCH",
        headers: jsonWrite(t, cookie),
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 400, JSON.stringify(body));
      const json = await res.json();
      assert.equal(json.error, "Invalid profile");
      assert.ok(
        json.issues.some((i: { path: string }) => i.path === field),
        `${JSON.stringify(body)} → ${JSON.stringify(json.issues)}`,
      );
    }
    const bad = await t.request("/api/profile/me", {
      method: "PATCH",
      headers: jsonWrite(t, cookie),
      body: "{not json",
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(await bad.json(), { error: "Invalid JSON body" });
    // Nothing was written by the refused edits.
    const me = await (await t.request("/api/profile/me", { headers: { cookie } })).json();
    assert.equal(me.customized, false);
    // Names in other scripts and with the allowed punctuation pass.
    for (const displayName of ["Zoë_O.Brien-3", "山田 太郎", "Анна", "Scunthorpe fan"]) {
      const ok = await t.request("/api/profile/me", {
        method: "PATCH",
        headers: jsonWrite(t, cookie),
        body: JSON.stringify({ displayName }),
      });
      assert.equal(ok.status, 200, displayName);
    }
  } finally {
    await t.close();
  }
});

Deno.test("offensive names are matched by whole words and compacted spellings", () => {
  assert.equal(isOffensiveName("Scunthorpe", ["cunt"]), false);
  assert.equal(isOffensiveName("big.Cunt", ["cunt"]), true);
  assert.equal(isOffensiveName("s h i t", ["shit"]), true);
});

Deno.test("settings: defaults, partial update, validation, avatar roster", async () => {
  const t = await createTestApp();
  try {
    assert.equal((await t.request("/api/profile/settings")).status, 401);
    const { user, cookie } = await signInAs(t, "Ada");
    const defaults = await (await t.request("/api/profile/settings", { headers: { cookie } }))
      .json();
    assert.deepEqual(defaults, {
      activityVisibility: "public",
      voteHistory: "private",
      debateArchive: "public",
      aiAvatar: false,
      expertPanel: true,
    });
    const put = await t.request("/api/profile/settings", {
      method: "PUT",
      headers: jsonWrite(t, cookie),
      body: JSON.stringify({ aiAvatar: true, voteHistory: "public" }),
    });
    assert.equal(put.status, 200);
    assert.deepEqual(await put.json(), { ...defaults, aiAvatar: true, voteHistory: "public" });
    assert.equal((await t.kv.get(keys.avatarRoster(user.id))).value, true);
    for (const body of [{ aiAvatar: "yes" }, { debateArchive: "friends" }, { extra: 1 }]) {
      const res = await t.request("/api/profile/settings", {
        method: "PUT",
        headers: jsonWrite(t, cookie),
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 400, JSON.stringify(body));
    }
    await t.request("/api/profile/settings", {
      method: "PUT",
      headers: jsonWrite(t, cookie),
      body: JSON.stringify({ aiAvatar: false }),
    });
    assert.equal((await t.kv.get(keys.avatarRoster(user.id))).value, null);
  } finally {
    await t.close();
  }
});

Deno.test("a later sign-in never overwrites a customized profile", async () => {
  const { t, fake, close } = await appWithFakeProviders();
  try {
    const first = await signInThrough(t, "provider_a");
    const cookie = first.jar.header();
    const before = await (await t.request("/api/profile/me", { headers: { cookie } })).json();
    assert.equal(before.displayName, "Ada from A");
    assert.equal(before.bio, "Bio from provider A");
    assert.equal(before.customized, false);
    const edit = await t.request("/api/profile/me", {
      method: "PATCH",
      headers: jsonWrite(t, cookie),
      body: JSON.stringify({ displayName: "Countess", bio: "Mine" }),
    });
    assert.equal(edit.status, 200);
    // The provider now reports other data; signing in again must not touch the profile.
    const data = (fake.answers.provider_a.profile.body as { data: Record<string, string> }).data;
    data.name = "Renamed at provider";
    data.bio = "New provider bio";
    const again = await signInThrough(t, "provider_a");
    const after = await (await t.request("/api/profile/me", {
      headers: { cookie: again.jar.header() },
    })).json();
    assert.equal(after.userId, before.userId, "the same user signed in");
    assert.equal(after.displayName, "Countess");
    assert.equal(after.bio, "Mine");
    assert.equal(after.customized, true);
  } finally {
    await close();
  }
});
