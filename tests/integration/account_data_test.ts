/**
 * Your data and your account (docs/interface.md#your-account), through HTTP over real KV:
 * the export holds what the person made and nothing of anyone else; after a deletion
 * nothing of the person is reachable by any surface — pages, the people and agent APIs,
 * feeds, the sitemap, search, notifications — nor left anywhere in the store but the
 * tombstone, with vote counts unchanged and still equal to their voter entries.
 */
import assert from "node:assert/strict";
import { createTestApp, signInAs, type TestApp, waitForJobs } from "../helpers/app.ts";
import { seedFinishedDebate } from "../helpers/debates.ts";
import { seedRoundtable as seedRoundtableRecord } from "../helpers/roundtables.ts";
import {
  agentCall,
  agentKey,
  answer,
  ask,
  getAs,
  json,
  type Member,
  postAs,
  vote,
} from "../helpers/community.ts";
import { AccountExportSchema, CONFIRM_MISMATCH } from "@/lib/schemas/account.ts";
import { sealIdentity, setIdentity } from "@/lib/auth/identities.ts";
import { commit } from "@/lib/kv/atomic.ts";
import { keys } from "@/lib/kv/keys.ts";

/** A member with a name no other text in the store contains. */
async function person(t: TestApp, name: string): Promise<Member> {
  const { user, cookie } = await signInAs(t, name);
  return { id: user.id, name, cookie };
}

/** Every key and value of the store as text, one entry a line. */
async function dump(kv: Deno.Kv): Promise<string[]> {
  const out: string[] = [];
  for await (const e of kv.list({ prefix: [] })) {
    out.push(
      JSON.stringify(
        [e.key, e.value],
        (_k, v) =>
          typeof v === "bigint"
            ? String(v)
            : v instanceof Deno.KvU64
            ? String(v.value)
            : v instanceof Uint8Array
            ? new TextDecoder().decode(v)
            : v,
      ),
    );
  }
  return out;
}

/**
 * The entries of the store that hold any of `needles`, but for other people's
 * notifications: those keep the snapshot of who caused them at rest, and every reader
 * shows "deleted user" (or "[removed]" for a deleted post) instead — checked through the
 * API in the tests.
 */
async function traces(kv: Deno.Kv, needles: string[], except: string): Promise<string[]> {
  return (await dump(kv)).filter((line) =>
    needles.some((n) => line.includes(n)) &&
    !(line.startsWith('[["notifications",') && !line.startsWith(`[["notifications","${except}"`))
  );
}

async function deleteMe(t: TestApp, who: Member, body: unknown): Promise<Response> {
  return await t.request("/api/profile/me", {
    method: "DELETE",
    headers: {
      cookie: who.cookie,
      origin: t.services.config.appOrigin,
      "content-type": "application/json",
    },
    body: JSON.stringify(body),
  });
}

const seedRoundtable = (t: TestApp, userId: string, topic: string) =>
  seedRoundtableRecord(t.kv, userId, topic, t.services.now());

const seedDebate = (t: TestApp, userId: string, topic: string) =>
  seedFinishedDebate(t.kv, userId, topic, { at: t.services.now(), winner: "tie" });

/** Ada and Bob, each with posts, and everything Ada can leave a trace in. */
async function world(t: TestApp) {
  const ada = await person(t, "Zephyrine Quillfeather");
  const bob = await person(t, "Barnaby Otterholm");
  const adaQ = await ask(t, ada, {
    title: "Marmalade jars for tidepool snails",
    description: "Adaonly description of the jars",
    tags: ["snails"],
  });
  const bobQ = await ask(t, bob, {
    title: "Bobonly question about kelp",
    description: "Bobonly kelp description",
    tags: ["kelp"],
  });
  const adaA = await answer(t, ada, bobQ, "Adaonly answer: rinse the kelp twice");
  const edit = await t.request(`/api/messages/${adaA}`, {
    method: "PATCH",
    headers: {
      cookie: ada.cookie,
      origin: t.services.config.appOrigin,
      "content-type": "application/json",
    },
    body: JSON.stringify({ content: "Adaonly answer, edited: rinse the kelp three times" }),
  });
  assert.equal(edit.status, 200, await edit.text());
  const bobA = await answer(t, bob, adaQ, "Bobonly answer about jars", undefined);
  const bobReply = await answer(t, bob, bobQ, "Bobonly reply to Ada", adaA);
  await vote(t, ada, "question", bobQ, "up");
  await vote(t, ada, "message", bobA, "down");
  await vote(t, bob, "question", adaQ, "up");
  assert.equal(
    (await postAs(t, ada, "/api/favorites", { targetId: bobQ, targetType: "question" })).status,
    200,
  );
  assert.equal(
    (await postAs(t, ada, "/api/flags", {
      targetType: "message",
      targetId: bobReply,
      reason: "other",
      note: "Adaonly flag note",
    })).status,
    200,
  );
  // Bob flags her answer: the queue entry names its author.
  assert.equal(
    (await postAs(t, bob, "/api/flags", { targetType: "message", targetId: adaA, reason: "spam" }))
      .status,
    200,
  );
  const key = await agentKey(t, ada, "Adaonly laptop agent");
  const debateId = await seedDebate(t, ada.id, "Adaonly debate topic");
  const roundtableId = await seedRoundtable(t, ada.id, "Adaonly roundtable topic");
  const identity = await sealIdentity(t.services.secret, {
    provider: "provider_c",
    canonicalUserId: ada.id,
    profile: {
      providerAccountId: "sub-ada-1234",
      name: ada.name,
      email: "zephyrine@example.test",
      avatar: null,
      bio: "",
    },
    tokens: {
      accessToken: "ACCESS-TOKEN-SECRET-ada",
      refreshToken: "REFRESH-SECRET-ada",
      expiresAt: null,
    },
    now: t.services.now(),
  });
  await commit(t.kv, (op) => setIdentity(op, identity));
  return { ada, bob, adaQ, bobQ, adaA, bobA, bobReply, key, debateId, roundtableId };
}

Deno.test("export: what the person made — and nothing of anyone else, and no token", async () => {
  const t = await createTestApp();
  try {
    const w = await world(t);
    const res = await getAs(t, w.ada, "/api/profile/export");
    assert.equal(res.status, 200);
    assert.match(
      res.headers.get("content-disposition") ?? "",
      /^attachment; filename="parley-data-/,
    );
    assert.equal(res.headers.get("cache-control"), "no-store");
    const text = await res.text();
    const doc = AccountExportSchema.parse(JSON.parse(text));
    assert.equal(doc.account.userId, w.ada.id);
    assert.equal(doc.profile.displayName, w.ada.name);
    assert.deepEqual(doc.identities.map((i) => [i.provider, i.subject, i.email]), [
      ["provider_c", "sub-ada-1234", "zephyrine@example.test"],
    ]);
    assert.deepEqual(doc.questions.map((q) => q.id), [w.adaQ]);
    assert.deepEqual(doc.answers.map((a) => [a.id, a.questionId]), [[w.adaA, w.bobQ]]);
    assert.match(doc.answers[0].content, /three times/);
    assert.deepEqual(doc.revisions.map((r) => [r.targetId, r.revision]), [[w.adaA, 1], [
      w.adaA,
      2,
    ]]);
    assert.deepEqual(
      doc.votes.map((v) => [v.targetType, v.targetId, v.voteType]).sort(),
      [["message", w.bobA, "down"], ["question", w.bobQ, "up"]],
    );
    assert.deepEqual(doc.favorites.map((f) => f.targetId), [w.bobQ]);
    assert.deepEqual(doc.follows.map((f) => f.questionId).sort(), [w.adaQ, w.bobQ].sort());
    assert.deepEqual(doc.flags.map((f) => [f.targetId, f.note]), [[
      w.bobReply,
      "Adaonly flag note",
    ]]);
    assert.deepEqual(doc.debates.map((d) => d.id), [w.debateId]);
    assert.deepEqual(doc.roundtables.map((r) => [r.id, r.topic]), [[
      w.roundtableId,
      "Adaonly roundtable topic",
    ]]);
    assert.deepEqual(doc.agentKeys.map((k) => k.name), ["Adaonly laptop agent"]);
    assert.deepEqual(Object.keys(doc.agentKeys[0]).sort(), ["createdAt", "lastUsedAt", "name"]);
    assert.equal(doc.settings.voteHistory, "private");
    // Bob answered her question and replied to her answer: two notifications, no Bob in them.
    // Bob up-voted her question, too.
    assert.deepEqual(doc.notifications.map((n) => n.type).sort(), ["answer", "reply", "upvotes"]);
    // Nothing of anyone else, no secret, no key.
    for (
      const foreign of [
        w.bob.id,
        w.bob.name,
        "Bobonly",
        "ACCESS-TOKEN-SECRET",
        "REFRESH-SECRET",
        w.key,
        w.key.slice(0, 12),
      ]
    ) assert.ok(!text.includes(foreign), `the export holds ${foreign}`);
    // Bob's export is his alone.
    const bobs = await (await getAs(t, w.bob, "/api/profile/export")).text();
    assert.ok(!bobs.includes("Adaonly") && !bobs.includes(w.ada.id) && !bobs.includes(w.ada.name));
    assert.equal((await getAs(t, null, "/api/profile/export")).status, 401);
  } finally {
    await t.close();
  }
});

Deno.test("delete (keep): nothing of the person is reachable anywhere, posts stay by 'deleted user', votes keep counting", async () => {
  const t = await createTestApp();
  try {
    const w = await world(t);
    const before =
      (await json<{ upvotes: number }>(getAs(t, null, `/api/questions/${w.bobQ}`))).body;
    // The confirmation must be the display name.
    const wrong = await json(deleteMe(t, w.ada, { confirm: "zephyrine", content: "keep" }));
    assert.deepEqual([wrong.status, wrong.body.error], [400, CONFIRM_MISMATCH]);
    const bad = await json(deleteMe(t, w.ada, { confirm: w.ada.name, content: "maybe" }));
    assert.equal(bad.status, 400);
    assert.equal((await getAs(t, w.ada, "/api/auth/session")).status, 200, "nothing happened");

    const res = await deleteMe(t, w.ada, { confirm: ` ${w.ada.name} `, content: "keep" });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { ok: true, content: "keep" });
    assert.match(res.headers.get("set-cookie") ?? "", /Max-Age=0/i);
    // At once: session, key and profile are gone.
    assert.equal((await getAs(t, w.ada, "/api/auth/session")).status, 401);
    assert.equal((await agentCall(t, w.key, "/api/agent/me")).status, 401);
    assert.equal((await getAs(t, null, `/api/profile/public/${w.ada.id}`)).status, 404);
    assert.equal((await getAs(t, null, `/u/${w.ada.id}`)).status, 404);
    await waitForJobs();

    const everywhere = [
      "/",
      "/?q=marmalade",
      "/?tag=snails",
      `/questions/${w.adaQ}`,
      `/questions/${w.bobQ}`,
      `/questions/${w.adaQ}/revisions`,
      `/api/questions/${w.adaQ}`,
      `/api/questions/${w.bobQ}`,
      `/api/messages/${w.adaA}/revisions`,
      "/api/questions",
      "/api/questions?q=zephyrine",
      "/api/feed",
      "/feeds/questions",
      `/feeds/questions/${w.adaQ}`,
      `/feeds/questions/${w.bobQ}`,
      "/feeds/tags/snails",
      "/sitemap.xml",
      "/sitemaps/profiles/1.xml",
      "/sitemaps/questions/1.xml",
      `/api/profile/public/${w.bob.id}/activity?type=answers`,
      "/debates",
    ];
    for (const path of everywhere) {
      for (const who of [null, w.bob]) {
        const r = await getAs(t, who, path);
        const body = await r.text();
        assert.ok(r.status < 500, `${path}: ${r.status}`);
        assert.ok(!body.includes(w.ada.id), `${path} names the deleted id`);
        assert.ok(!body.includes("Zephyrine"), `${path} names the deleted person`);
      }
    }
    for (
      const path of [
        `/feeds/users/${w.ada.id}`,
        `/api/profile/public/${w.ada.id}/activity?type=questions`,
      ]
    ) {
      assert.equal((await getAs(t, null, path)).status, 404, path);
    }
    // Search by their name finds nothing; their kept question is still found by its words.
    const byName =
      (await json<{ questions: unknown[] }>(getAs(t, null, "/api/questions?q=quillfeather"))).body;
    assert.equal(byName.questions.length, 0);
    const byWords =
      (await json<{ questions: { id: string }[] }>(getAs(t, null, "/api/questions?q=marmalade")))
        .body;
    assert.deepEqual(byWords.questions.map((x) => x.id), [w.adaQ]);
    // The posts stay, by "deleted user", everywhere they show.
    const q = (await json<
      {
        author: { id: string; name: string };
        messages: { id: string; author: { name: string } }[];
      }
    >(
      getAs(t, null, `/api/questions/${w.adaQ}`),
    )).body;
    assert.deepEqual(q.author, { id: "", name: "deleted user", avatar: "" });
    const thread = (await json<
      {
        upvotes: number;
        likedBy: string[];
        messages: { id: string; author: { id: string; name: string } }[];
      }
    >(
      getAs(t, null, `/api/questions/${w.bobQ}`),
    )).body;
    assert.deepEqual(thread.messages.find((m) => m.id === w.adaA)?.author.name, "deleted user");
    const page = await (await getAs(t, null, `/questions/${w.adaQ}`)).text();
    assert.match(page, /data-testid="author-gone"[^>]*>deleted user</);
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(page)![1]);
    assert.deepEqual(ld.mainEntity.author, { "@type": "Person", name: "deleted user" });
    // Votes keep their counts, and the counts still equal the voter entries; none names her.
    assert.equal(thread.upvotes, before.upvotes);
    assert.ok(!thread.likedBy.includes(w.ada.id));
    const voters = await Array.fromAsync(
      t.kv.list({ prefix: keys.votesPrefix("question", w.bobQ) }),
    );
    assert.equal(voters.length, thread.upvotes);
    assert.match(String(voters[0].key[3]), /^anon_/);
    // Bob's notification of her answer names "deleted user".
    const inbox = (await json<
      { notifications: { type: string; actor: { id: string; name: string } | null }[] }
    >(
      getAs(t, w.bob, "/api/notifications"),
    )).body;
    const fromAda = inbox.notifications.filter((n) => n.type === "answer");
    assert.equal(fromAda.length, 1);
    assert.deepEqual(fromAda[0].actor, { id: "", name: "deleted user", avatarUrl: null });
    // Nothing of her is left in the store but the tombstone (her kept posts, and her kept
    // flag note, name nobody).
    const left = await traces(
      t.kv,
      [w.ada.id, "Zephyrine", "Adaonly debate", "Adaonly roundtable", "sub-ada-1234"],
      w.ada.id,
    );
    assert.equal(left.length, 1, left.join("\n"));
    assert.match(left[0], /^\[\["deleted_users","[^"]+"\],\{"deletedAt":\d+,"content":"keep"\}\]$/);
    // The id is retired: no new user can take it.
    assert.ok((await t.kv.get(keys.deletedUser(w.ada.id))).value);
    // A new sign-up is a new person; Bob is untouched.
    const again = await person(t, "Zephyrine Quillfeather");
    assert.notEqual(again.id, w.ada.id);
    assert.equal((await getAs(t, w.bob, "/api/auth/session")).status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("delete (delete): posts go through the normal delete path; an answer with replies stays as [deleted]", async () => {
  const t = await createTestApp();
  try {
    const w = await world(t);
    const res = await deleteMe(t, w.ada, { confirm: w.ada.name, content: "delete" });
    assert.equal(res.status, 200);
    await waitForJobs();
    // Her question is deleted: 404, out of feeds and search.
    assert.equal((await getAs(t, null, `/api/questions/${w.adaQ}`)).status, 404);
    assert.equal((await getAs(t, w.bob, `/questions/${w.adaQ}`)).status, 404);
    const search =
      (await json<{ questions: { id: string }[] }>(getAs(t, null, "/api/questions?q=marmalade")))
        .body;
    assert.deepEqual(search.questions, []);
    const feed = await (await getAs(t, null, "/feeds/questions")).text();
    assert.ok(!feed.includes("Marmalade"));
    // Her answer had Bob's reply under it: a "[deleted]" placeholder, no content, no author.
    const thread = (await json<
      { messages: { id: string; content: string; author: { name: string }; deleted?: boolean }[] }
    >(
      getAs(t, null, `/api/questions/${w.bobQ}`),
    )).body;
    const placeholder = thread.messages.find((m) => m.id === w.adaA)!;
    assert.deepEqual([placeholder.content, placeholder.author.name, placeholder.deleted], [
      "",
      "[deleted]",
      true,
    ]);
    assert.ok(thread.messages.some((m) => m.id === w.bobReply));
    // Her revisions went with her text.
    assert.deepEqual(
      await Array.fromAsync(t.kv.list({ prefix: keys.revisionsPrefix("message", w.adaA) })),
      [],
    );
    const left = await traces(t.kv, [w.ada.id, "Zephyrine", "Adaonly"], w.ada.id);
    assert.equal(left.length, 1, left.join("\n"));
    // Bob's notification of her deleted answer shows as removed.
    const inbox = (await json<
      { notifications: { type: string; title: string; actor: unknown; excerpt: string }[] }
    >(
      getAs(t, w.bob, "/api/notifications"),
    )).body;
    const fromAda = inbox.notifications.find((n) => n.type === "answer")!;
    assert.deepEqual([fromAda.title, fromAda.actor, fromAda.excerpt], ["[removed]", null, ""]);
    assert.match(left[0], /deleted_users/);
  } finally {
    await t.close();
  }
});
