/**
 * Moderators withdraw and restore debates and roundtables (docs/interface.md#moderation),
 * through HTTP over real KV: only moderators may; while withdrawn the item answers 404 to
 * everyone but its owner and moderators — its page, its API read and events, the public
 * lists and the sitemap — and those two see it with the reason; each action is logged;
 * restoring brings it all back.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { getAs, json, type Member, member, postAs } from "../helpers/community.ts";
import { seedFinishedDebate } from "../helpers/debates.ts";
import { seedRoundtable } from "../helpers/roundtables.ts";
import { saveSettings } from "@/lib/profile/settings.ts";
import { advanceRolls } from "@/lib/seo/sitemap_rolls.ts";
import { ModLogEntry, WithdrawalStateSchema } from "@/lib/schemas/moderation.ts";
import { MODERATORS_ONLY } from "@/lib/http/auth.ts";

const REASON = "The topic names a private person";

interface Cast {
  owner: Member;
  mod: Member;
  other: Member;
}

async function cast(t: TestApp): Promise<Cast> {
  const [owner, mod, other] = await Promise.all(["Olga", "Mo", "Sam"].map((n) => member(t, n)));
  t.services.config.moderators = [mod.id];
  await saveSettings(t.kv, owner.id, { debateArchive: "public" });
  return { owner, mod, other };
}

async function status(t: TestApp, who: Member | null, path: string): Promise<number> {
  const res = await getAs(t, who, path);
  await res.body?.cancel();
  return res.status;
}

async function text(t: TestApp, who: Member | null, path: string): Promise<string> {
  const res = await getAs(t, who, path);
  const body = await res.text();
  assert.equal(res.status, 200, `${path}: ${res.status}`);
  return body;
}

/** Withdraw or restore through the API as `who`. */
function decide(t: TestApp, who: Member | null, path: string, body: unknown) {
  return json(postAs(t, who, path, body));
}

/** The newest moderation-log entry, as a moderator reads it. */
async function newestLogEntry(t: TestApp, mod: Member) {
  const { status, body } = await json<{ entries: unknown[] }>(getAs(t, mod, "/api/mod/log"));
  assert.equal(status, 200);
  return ModLogEntry.parse(body.entries[0]);
}

Deno.test("withdrawals: only moderators, with a strict body and a reason; an unknown id is 404", async () => {
  const t = await createTestApp();
  try {
    const { owner, mod, other } = await cast(t);
    const id = await seedFinishedDebate(t.kv, owner.id, "Should cities ban cars?");
    const path = `/api/mod/debates/${id}`;
    const ok = { action: "withdraw", reason: REASON };
    assert.equal((await decide(t, null, path, ok)).status, 401);
    const refused = await decide(t, other, path, ok);
    assert.deepEqual([refused.status, refused.body.error], [403, MODERATORS_ONLY]);
    assert.equal((await decide(t, owner, path, ok)).status, 403);
    assert.equal((await decide(t, mod, path, { action: "withdraw" })).status, 400);
    assert.equal((await decide(t, mod, path, { action: "withdraw", reason: " " })).status, 400);
    assert.equal((await decide(t, mod, path, { ...ok, reason: "x".repeat(501) })).status, 400);
    assert.equal((await decide(t, mod, path, { action: "hide", reason: REASON })).status, 400);
    assert.equal((await decide(t, mod, path, { ...ok, extra: 1 })).status, 400);
    const missing = await decide(t, mod, "/api/mod/debates/debate_1_nothere", ok);
    assert.deepEqual([missing.status, missing.body.error], [404, "Debate not found"]);
    const rtMissing = await decide(t, mod, "/api/mod/roundtables/rt_1_nothere", ok);
    assert.deepEqual([rtMissing.status, rtMissing.body.error], [404, "Roundtable not found"]);
    // Nothing was withdrawn by the refusals: everyone still reads it.
    assert.equal(await status(t, null, `/debates/${id}`), 200);
  } finally {
    await t.close();
  }
});

Deno.test("withdrawals: a withdrawn debate is 404 to others on its page, API, events, the list and the sitemap; its owner and moderators see why; restore brings it back", async () => {
  const t = await createTestApp();
  try {
    const { owner, mod, other } = await cast(t);
    const topic = "Should cities ban cars from their centres?";
    const id = await seedFinishedDebate(t.kv, owner.id, topic);
    const page = `/debates/${id}`;
    const sitemap = "/sitemaps/debates/1.xml";
    await advanceRolls(t.kv);
    // Shown at first (and the signed-out page is now in the page cache).
    assert.ok((await text(t, null, page)).includes(topic));
    assert.ok((await text(t, null, "/debates")).includes(id));
    assert.ok((await text(t, null, sitemap)).includes(id));

    const done = await decide(t, mod, `/api/mod/debates/${id}`, {
      action: "withdraw",
      reason: ` ${REASON} `,
    });
    assert.equal(done.status, 200);
    const state = WithdrawalStateSchema.parse(done.body);
    assert.deepEqual([state.type, state.id, state.withdrawn?.reason], ["debate", id, REASON]);
    assert.deepEqual(state.withdrawn?.by, { id: mod.id, name: mod.name });

    for (const who of [null, other]) {
      assert.equal(await status(t, who, page), 404, "page");
      assert.equal(await status(t, who, `/api/debates/${id}`), 404, "API");
      assert.equal(await status(t, who, `/api/debates/${id}/events`), 404, "events");
      assert.ok(!(await text(t, who, "/debates")).includes(id), "public list");
    }
    assert.ok(!(await text(t, null, sitemap)).includes(id), "sitemap");

    for (const who of [owner, mod]) {
      const html = await text(t, who, page);
      assert.ok(html.includes(topic));
      assert.match(html, /data-testid="withdrawn-banner"/);
      assert.ok(html.includes(`Withdrawn by moderators:</strong> <span dir="auto">${REASON}`));
      assert.equal(await status(t, who, `/api/debates/${id}`), 200);
    }
    // Only the moderator gets the form, and it offers to restore.
    assert.ok((await text(t, mod, page)).includes("Restore this debate"));
    assert.ok(!(await text(t, owner, page)).includes('data-testid="withdrawal-form"'));

    const logged = await newestLogEntry(t, mod);
    assert.deepEqual(
      [logged.action, logged.targetType, logged.targetId, logged.reason, logged.moderator.id],
      ["withdraw", "debate", id, REASON, mod.id],
    );
    assert.ok((await text(t, mod, "/mod")).includes(`href="/debates/${id}"`));

    const restored = await decide(t, mod, `/api/mod/debates/${id}`, {
      action: "restore",
      reason: "Checked: a public figure",
    });
    assert.deepEqual(restored.body, { type: "debate", id, withdrawn: null });
    const html = await text(t, null, page);
    assert.ok(html.includes(topic) && !html.includes("withdrawn-banner"));
    assert.equal(await status(t, other, `/api/debates/${id}`), 200);
    assert.ok((await text(t, null, "/debates")).includes(id));
    assert.ok((await text(t, null, sitemap)).includes(id));
    assert.equal((await newestLogEntry(t, mod)).action, "restore");
  } finally {
    await t.close();
  }
});

Deno.test("withdrawals: a withdrawn roundtable is 404 to others on its page, API, events and the lists; the moderator's form withdraws and restores it", async () => {
  const t = await createTestApp();
  try {
    const { owner, mod, other } = await cast(t);
    const topic = "How should a city plan for heat waves";
    const id = await seedRoundtable(t.kv, owner.id, topic);
    const page = `/roundtables/${id}`;
    const lists = ["/api/roundtables?public=1", "/roundtables", "/debates"];
    assert.ok((await text(t, null, page)).includes(topic));
    for (const list of lists) assert.ok((await text(t, null, list)).includes(id), list);

    // The page's form, as a browser without script posts it.
    const form = (who: Member, body: Record<string, string>) =>
      t.request(page, {
        method: "POST",
        headers: {
          cookie: who.cookie,
          origin: t.services.config.appOrigin,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams(body).toString(),
      });
    const refused = await form(other, { action: "withdraw", reason: REASON });
    assert.equal(refused.status, 403);
    await refused.body?.cancel();
    assert.ok((await text(t, mod, page)).includes("Withdraw this roundtable"));
    const empty = await form(mod, { action: "withdraw", reason: "" });
    assert.equal(empty.status, 303);
    assert.match(empty.headers.get("location") ?? "", /withdrawalError=reason/);
    assert.equal(await status(t, null, page), 200, "a refused form withdrew nothing");
    const sent = await form(mod, { action: "withdraw", reason: REASON });
    assert.deepEqual([sent.status, sent.headers.get("location")], [303, page]);

    for (const who of [null, other]) {
      assert.equal(await status(t, who, page), 404, "page");
      assert.equal(await status(t, who, `/api/roundtables/${id}`), 404, "API");
      assert.equal(await status(t, who, `/api/roundtables/${id}/events`), 404, "events");
      for (const list of lists) assert.ok(!(await text(t, who, list)).includes(id), list);
    }
    for (const who of [owner, mod]) {
      const html = await text(t, who, page);
      assert.ok(html.includes(topic));
      assert.ok(html.includes(`Withdrawn by moderators:</strong> <span dir="auto">${REASON}`));
      assert.equal(await status(t, who, `/api/roundtables/${id}`), 200);
    }
    const logged = await newestLogEntry(t, mod);
    assert.deepEqual(
      [logged.action, logged.targetType, logged.targetId, logged.reason],
      ["withdraw", "roundtable", id, REASON],
    );

    // Restored through the API this time.
    const restored = await decide(t, mod, `/api/mod/roundtables/${id}`, {
      action: "restore",
      reason: "Reviewed",
    });
    assert.deepEqual(restored.body, { type: "roundtable", id, withdrawn: null });
    assert.ok((await text(t, null, page)).includes(topic));
    assert.equal(await status(t, other, `/api/roundtables/${id}`), 200);
    for (const list of lists) assert.ok((await text(t, null, list)).includes(id), list);
  } finally {
    await t.close();
  }
});
