/**
 * docs/interface.md#profiles types a profile's `avatarUrl` and `coverUrl` as strings: unset ones answer `""`,
 * never null — in the own profile, the public profile and new author snapshots.
 */
import assert from "node:assert/strict";
import { keys } from "@/lib/kv/keys.ts";
import { ProfileSchema, PublicProfileSchema } from "@/lib/schemas/profile.ts";
import { createTestApp, jsonWrite } from "../helpers/app.ts";
import { answer, ask, getAs, json, member } from "../helpers/community.ts";

Deno.test('unset avatarUrl and coverUrl answer "" in /api/profile/me, the public profile and author snapshots', async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada"); // a provider account without an image
    const me = await json<Record<string, unknown>>(getAs(t, ada, "/api/profile/me"));
    assert.equal(me.status, 200);
    assert.equal(me.body.avatarUrl, "");
    assert.equal(me.body.coverUrl, "");
    ProfileSchema.parse(me.body);
    const pub = await json<Record<string, unknown>>(
      getAs(t, null, `/api/profile/public/${ada.id}`),
    );
    assert.equal(pub.body.avatarUrl, "");
    assert.equal(pub.body.coverUrl, "");
    PublicProfileSchema.parse(pub.body);

    const qid = await ask(t, ada, { title: "Why strings?", description: "d" });
    await answer(t, ada, qid, "Because SPEC.md says so.");
    const thread = await json<
      { author: { avatar: unknown }; messages: { author: { avatar: unknown } }[] }
    >(
      getAs(t, null, `/api/questions/${qid}`),
    );
    assert.equal(thread.body.author.avatar, "");
    assert.equal(thread.body.messages[0].author.avatar, "");
  } finally {
    await t.close();
  }
});

Deno.test('clearing avatarUrl or coverUrl ("" or null) answers "", and so do profiles stored with null', async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const patch = async (body: unknown) => {
      const res = await t.request("/api/profile/me", {
        method: "PATCH",
        headers: jsonWrite(t, ada.cookie),
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 200, await res.text());
      return await json<Record<string, unknown>>(getAs(t, ada, "/api/profile/me"));
    };
    const set = await patch({
      coverUrl: "https://example.com/c.png",
      avatarUrl: "https://example.com/a.png",
    });
    assert.equal(set.body.coverUrl, "https://example.com/c.png");
    const cleared = await patch({ coverUrl: null, avatarUrl: "" });
    assert.equal(cleared.body.coverUrl, "");
    assert.equal(cleared.body.avatarUrl, "");
    // A record written before the rule, with nulls.
    const key = keys.profile(ada.id);
    const rec = (await t.kv.get<Record<string, unknown>>(key)).value!;
    await t.kv.set(key, { ...rec, avatarUrl: null, coverUrl: null });
    const me = await json<Record<string, unknown>>(getAs(t, ada, "/api/profile/me"));
    assert.equal(me.body.avatarUrl, "");
    assert.equal(me.body.coverUrl, "");
  } finally {
    await t.close();
  }
});
