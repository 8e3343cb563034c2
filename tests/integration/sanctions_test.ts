/**
 * Sanctions (docs/interface.md#sanctions), through HTTP over real KV: a moderator silences,
 * suspends and lifts; each surface — pages and their forms, the people API, agent keys,
 * MCP, agent participation, debates, expert invitations, the AI avatar, sign-in — honours
 * it with the person's reason and end; each action is in the moderation log; lifting
 * restores everything.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createTestApp, jsonWrite, serveAppOnLoopback, type TestApp } from "../helpers/app.ts";
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
  sendAs,
} from "../helpers/community.ts";
import { seedRoundtable } from "../helpers/roundtables.ts";
import { deleteAccount } from "@/lib/account/delete.ts";
import { getProfile } from "@/lib/profile/profiles.ts";
import { appWithFakeProviders, CookieJar, sessionOf, signInThrough } from "../helpers/oauth.ts";
import { saveSettings } from "@/lib/profile/settings.ts";
import { runAvatarTick } from "@/lib/avatar/tick.ts";
import { AccountStandingSchema, RestrictedBody } from "@/lib/schemas/moderation.ts";
import { MODERATOR_SANCTION, SELF_SANCTION } from "@/lib/http/sanction.ts";

const REASON = "Posted the same link in twelve answers";

async function sanction(t: TestApp, mod: Member, userId: string, body: unknown) {
  return await json(postAs(t, mod, `/api/mod/users/${userId}`, body));
}

/** A 403 of a sanctioned person: its code, reason and sentence. */
async function refused(res: Response | Promise<Response>, code: "silenced" | "suspended") {
  const r = await res;
  const text = await r.text();
  assert.equal(r.status, 403, `${r.url}: ${text}`);
  const body = RestrictedBody.parse(JSON.parse(text));
  assert.equal(body.code, code);
  assert.equal(body.reason, REASON);
  assert.ok(body.error.includes(REASON), body.error);
  return body;
}

async function mcp(url: string, key: string): Promise<Client> {
  const client = new Client({ name: "sanctions-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

Deno.test("sanctions: only moderators, with a reason; never oneself or another moderator; a past end is refused", async () => {
  const t = await createTestApp();
  try {
    const [mod, mod2, sam, olga] = await Promise.all(
      ["Mo", "Mia", "Sam", "Olga"].map((n) => member(t, n)),
    );
    t.services.config.moderators = [mod.id, mod2.id];
    const ok = { action: "silence", reason: REASON };
    assert.equal((await sanction(t, olga, sam.id, ok)).status, 403);
    assert.equal((await json(postAs(t, null, `/api/mod/users/${sam.id}`, ok))).status, 401);
    assert.equal((await sanction(t, mod, sam.id, { action: "silence" })).status, 400);
    assert.equal((await sanction(t, mod, sam.id, { action: "ban", reason: "x" })).status, 400);
    assert.equal((await sanction(t, mod, sam.id, { ...ok, reason: "x".repeat(501) })).status, 400);
    assert.equal((await sanction(t, mod, sam.id, { ...ok, until: "next week" })).status, 400);
    const past = await sanction(t, mod, sam.id, { ...ok, until: "2001-01-01" });
    assert.deepEqual([past.status, past.body.error], [400, "until must be in the future"]);
    const local = await sanction(t, mod, sam.id, { ...ok, until: "2099-06-01T12:00:00" });
    assert.equal(local.status, 400);
    assert.match(String(local.body.error), /with its offset \(2026-06-01T12:00:00Z\)/);
    // null is "until lifted", the standing's own word for it.
    const open = await sanction(t, mod, sam.id, { ...ok, until: null });
    assert.equal(open.status, 200, JSON.stringify(open.body));
    assert.equal(AccountStandingSchema.parse(open.body).sanction?.until, null);
    assert.equal((await sanction(t, mod, sam.id, { action: "lift", reason: "ok" })).status, 200);
    assert.deepEqual((await sanction(t, mod, mod.id, ok)).body.error, SELF_SANCTION);
    const other = await sanction(t, mod, mod2.id, ok);
    assert.deepEqual([other.status, other.body.error], [403, MODERATOR_SANCTION]);
    assert.equal((await sanction(t, mod, "u_nobody", ok)).status, 404);
  } finally {
    await t.close();
  }
});

Deno.test("silence: Sam reads but cannot post, edit, vote, favorite, flag, accept, invite or debate — on pages, the API, an agent key, MCP, participation or the avatar; lift restores", async () => {
  const t = await createTestApp({ env: { NEW_ACCOUNT_HOURS: "0" } });
  const srv = serveAppOnLoopback(t);
  try {
    const [mod, sam, olga] = await Promise.all(["Mo", "Sam", "Olga"].map((n) => member(t, n)));
    t.services.config.moderators = [mod.id];
    const olgaQ = await ask(t, olga, { title: "Where do otters sleep?" });
    const samA = await answer(t, sam, olgaQ, "In holts along the river.");
    const samQ = await ask(t, sam, { title: "What do otters eat?" });
    const olgaA = await answer(t, olga, samQ, "Fish, mostly.");
    const key = await agentKey(t, sam);
    await saveSettings(t.kv, sam.id, { aiAvatar: true });

    const until = new Date(t.services.now() + 3 * 86_400_000).toISOString();
    const res = await sanction(t, mod, sam.id, { action: "silence", until, reason: REASON });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const standing = AccountStandingSchema.parse(res.body);
    assert.equal(standing.userId, sam.id);
    assert.deepEqual(
      [standing.sanction?.action, standing.sanction?.until, standing.sanction?.by.id],
      ["silence", Date.parse(until), mod.id],
    );

    // Reading is fine, and every page says why and until when.
    const page = await getAs(t, sam, `/questions/${olgaQ}`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /data-testid="sanction-banner"/);
    assert.ok(html.includes(REASON));
    assert.ok(html.includes(until.slice(0, 10)));
    assert.equal((await getAs(t, sam, "/api/questions")).status, 200);

    // The people API.
    const b = await refused(
      postAs(t, sam, "/api/questions", { title: "Another otter question" }),
      "silenced",
    );
    assert.equal(b.until, Date.parse(until));
    await refused(
      postAs(t, sam, `/api/questions/${olgaQ}/messages`, { content: "More." }),
      "silenced",
    );
    await refused(
      postAs(t, sam, "/api/likes", { targetId: olgaQ, targetType: "question" }),
      "silenced",
    );
    await refused(
      postAs(t, sam, "/api/favorites", { targetId: olgaQ, targetType: "question" }),
      "silenced",
    );
    await refused(
      postAs(t, sam, "/api/flags", { targetType: "question", targetId: olgaQ, reason: "spam" }),
      "silenced",
    );
    await refused(
      t.request(`/api/messages/${samA}`, {
        method: "PATCH",
        headers: jsonWrite(t, sam.cookie),
        body: JSON.stringify({ content: "Edited." }),
      }),
      "silenced",
    );
    await refused(
      postAs(t, sam, `/api/questions/${samQ}/accept`, { messageId: olgaA }),
      "silenced",
    );
    await refused(
      postAs(t, sam, `/api/questions/${olgaQ}/invite`, { expertId: "omar" }),
      "silenced",
    );
    await refused(postAs(t, sam, "/api/agent/participate", {}), "silenced");
    await refused(
      postAs(t, sam, "/api/debate", {
        topic: "Otters",
        userProfile: {
          name: "Sam",
          avatar: "",
          bio: "",
          softMemory: { traits: [], interests: [] },
        },
      }),
      "silenced",
    );
    // Pages' forms.
    const form = await t.request("/ask", {
      method: "POST",
      headers: {
        cookie: sam.cookie,
        origin: t.services.config.appOrigin,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ title: "Otters again", description: "", tags: "" }),
    });
    assert.equal(form.status, 403);
    assert.ok((await form.text()).includes(REASON));
    // The agent API reads, but writes nothing.
    assert.equal((await agentCall(t, key, "/api/agent/me")).status, 200);
    await refused(
      agentCall(t, key, "/api/agent/questions", { body: { title: "Agent otters" } }),
      "silenced",
    );
    await refused(
      agentCall(t, key, `/api/agent/questions/${olgaQ}/reply`, {
        body: { content: "Agent reply" },
      }),
      "silenced",
    );
    await refused(
      agentCall(t, key, `/api/agent/questions/${olgaQ}/vote`, { body: { voteType: "up" } }),
      "silenced",
    );
    // MCP: reading works, a write is a tool error with the sentence.
    const client = await mcp(srv.url, key);
    try {
      const read = await client.callTool({ name: "get_question", arguments: { id: olgaQ } });
      assert.ok(!read.isError);
      const wrote = await client.callTool({
        name: "ask_question",
        arguments: { title: "MCP otters" },
      });
      assert.equal(wrote.isError, true);
      assert.ok(JSON.stringify(wrote.content).includes(REASON));
    } finally {
      await client.close();
    }
    // The AI avatar writes nothing for a silenced person.
    const tick = await runAvatarTick(t.services, t.services.now() + 120_000);
    assert.deepEqual(tick.answers, []);
    assert.ok(tick.skipped.some((s) => s.userId === sam.id && s.reason === "restricted"));
    // Nothing was written.
    const thread =
      (await json<{ messages: unknown[] }>(getAs(t, null, `/api/questions/${olgaQ}`))).body;
    assert.equal(thread.messages.length, 1);

    // The log has it.
    const log = (await json<
      { entries: { action: string; targetType: string; targetId: string; reason?: string }[] }
    >(
      getAs(t, mod, "/api/mod/log"),
    )).body;
    assert.deepEqual(
      [
        log.entries[0].action,
        log.entries[0].targetType,
        log.entries[0].targetId,
        log.entries[0].reason,
      ],
      ["silence", "user", sam.id, REASON],
    );

    // Lift: everything works again, the key included (no wait: this instance forgot it).
    const lifted = await sanction(t, mod, sam.id, { action: "lift", reason: "Promised to stop" });
    assert.equal(lifted.status, 200);
    assert.equal(AccountStandingSchema.parse(lifted.body).sanction, null);
    assert.equal(
      (await postAs(t, sam, "/api/questions", { title: "Otters at night" })).status,
      201,
    );
    assert.equal(
      (await agentCall(t, key, `/api/agent/questions/${olgaQ}/reply`, {
        body: { content: "Back." },
      })).status,
      201,
    );
    const after = await (await getAs(t, sam, `/questions/${olgaQ}`)).text();
    assert.ok(!after.includes('data-testid="sanction-banner"'));
    assert.equal(
      (await json<{ entries: { action: string }[] }>(getAs(t, mod, "/api/mod/log"))).body.entries[0]
        .action,
      "lift",
    );
  } finally {
    await srv.close();
    await t.close();
  }
});

Deno.test("suspend: signed out everywhere, agent key and MCP refused with the reason; a silence past its end is void", async () => {
  const t = await createTestApp();
  const srv = serveAppOnLoopback(t);
  try {
    const [mod, sam] = await Promise.all(["Mo", "Sam"].map((n) => member(t, n)));
    t.services.config.moderators = [mod.id];
    const key = await agentKey(t, sam);
    const res = await sanction(t, mod, sam.id, { action: "suspend", reason: REASON });
    assert.equal(res.status, 200);
    assert.equal(AccountStandingSchema.parse(res.body).sanction?.until, null);
    assert.equal((await getAs(t, sam, "/api/auth/session")).status, 401);
    const profile = await getAs(t, sam, "/profile");
    assert.equal(profile.status, 302);
    await refused(agentCall(t, key, "/api/agent/me"), "suspended");
    await refused(agentCall(t, key, "/api/agent/questions"), "suspended");
    // An MCP call of a suspended person: refused at the door, with the reason.
    await refused(
      fetch(`${srv.url}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "search_questions", arguments: {} },
        }),
      }),
      "suspended",
    );
    // The moderator sees the standing on the person's profile.
    const view = await (await getAs(t, mod, `/u/${sam.id}`)).text();
    assert.match(view, /data-testid="standing"/);
    assert.ok(view.includes("suspended") && view.includes(REASON));
    // Lifted through the profile's form: the key works again.
    const form = await t.request(`/u/${sam.id}`, {
      method: "POST",
      headers: {
        cookie: mod.cookie,
        origin: t.services.config.appOrigin,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ action: "lift", reason: "Appeal accepted", until: "" }),
    });
    assert.equal(form.status, 303);
    assert.equal(form.headers.get("location"), `/u/${sam.id}?sanction=lift`);
    assert.equal((await agentCall(t, key, "/api/agent/me")).status, 200);

    // A silence whose end has passed stops nothing.
    const soon = new Date(t.services.now() + 60_000).toISOString();
    assert.equal(
      (await sanction(t, mod, sam.id, { action: "silence", until: soon, reason: REASON })).status,
      200,
    );
    await refused(
      agentCall(t, key, "/api/agent/questions", { body: { title: "Too soon" } }),
      "silenced",
    );
    t.services.now = () => Date.now() + 120_000;
    assert.equal(
      (await agentCall(t, key, "/api/agent/questions", { body: { title: "Later on" } })).status,
      201,
    );
  } finally {
    await srv.close();
    await t.close();
  }
});

Deno.test("suspend: the person may not sign in; the sign-in page says why and until when; lift lets them back in", async () => {
  const { t, close } = await appWithFakeProviders();
  try {
    const mod = await member(t, "Mo");
    t.services.config.moderators = [mod.id];
    const first = await signInThrough(t, "provider_c");
    const me = (await (await sessionOf(t, first.jar)).json()).user.id as string;
    const until = "2099-01-01";
    assert.equal(
      (await sanction(t, mod, me, { action: "suspend", until, reason: REASON })).status,
      200,
    );
    assert.equal((await sessionOf(t, first.jar)).status, 401, "signed out");
    const again = await signInThrough(t, "provider_c", { jar: new CookieJar() });
    assert.match(again.app.location, /^\/signin\?error=suspended&notice=/);
    assert.equal((await sessionOf(t, again.jar)).status, 401, "no session");
    const page = await t.request(again.app.location);
    const html = await page.text();
    assert.match(html, /data-testid="signin-suspended"/);
    assert.ok(html.includes(REASON) && html.includes("2099-01-01 00:00 UTC"));
    // The notice is the person's own: forged or altered, it shows nothing.
    const forged = again.app.location.replace(/notice=[^.]+/, `notice=${mod.id}`);
    assert.ok(!(await (await t.request(forged)).text()).includes(REASON));
    assert.equal((await sanction(t, mod, me, { action: "lift", reason: "ok" })).status, 200);
    const back = await signInThrough(t, "provider_c", { jar: new CookieJar() });
    assert.equal((await sessionOf(t, back.jar)).status, 200);
  } finally {
    await close();
  }
});

Deno.test("silence: a new name, bio or picture and a roundtable interjection are refused; clearing a bio is not; lift restores", async () => {
  const t = await createTestApp();
  try {
    const [mod, sam] = await Promise.all(["Mo", "Sam"].map((n) => member(t, n)));
    t.services.config.moderators = [mod.id];
    assert.equal(
      (await sendAs(t, sam, "PATCH", "/api/profile/me", { bio: "Otters, mostly." })).status,
      200,
    );
    // A roundtable Sam hosts, running.
    const rt = { id: await seedRoundtable(t.kv, sam.id, "Otters in cities", t.services.now()) };
    const interject = () =>
      postAs(t, sam, `/api/roundtables/${rt.id}/interject`, { text: "Visit my shop" });

    const res = await sanction(t, mod, sam.id, { action: "silence", reason: REASON });
    assert.equal(res.status, 200);
    await refused(interject(), "silenced");
    for (
      const edit of [
        { bio: "Buy cheap pills at spam.example" },
        { displayName: "Spam King" },
        { avatarUrl: "https://spam.example/a.png" },
        { coverUrl: "https://spam.example/c.png" },
      ]
    ) {
      await refused(sendAs(t, sam, "PATCH", "/api/profile/me", edit), "silenced");
    }
    // Taking text down, or sending what is already there, stays open.
    assert.equal(
      (await sendAs(t, sam, "PATCH", "/api/profile/me", { displayName: "Sam", bio: "" })).status,
      200,
    );
    const profile = (await json<{ bio: string; displayName: string }>(
      getAs(t, sam, "/api/profile/me"),
    )).body;
    assert.deepEqual([profile.displayName, profile.bio], ["Sam", ""]);

    await sanction(t, mod, sam.id, { action: "lift", reason: "Promised to stop" });
    assert.equal((await interject()).status, 202);
    assert.equal(
      (await sendAs(t, sam, "PATCH", "/api/profile/me", { bio: "Back to otters." })).status,
      200,
    );
  } finally {
    await t.close();
  }
});

Deno.test("a sanction outlives the account: deleted and signed in again with the same provider account, the person is still silenced (or still suspended), and the log says from which account", async () => {
  const { t, close } = await appWithFakeProviders();
  try {
    const mod = await member(t, "Mo");
    t.services.config.moderators = [mod.id];
    const first = await signInThrough(t, "provider_c");
    const me = (await (await sessionOf(t, first.jar)).json()).user as { id: string; name: string };
    const until = "2099-01-01";
    const silenced = await sanction(t, mod, me.id, { action: "silence", until, reason: REASON });
    assert.equal(silenced.status, 200);
    const gone = await t.request("/api/profile/me", {
      method: "DELETE",
      headers: jsonWrite(t, first.jar.header()),
      body: JSON.stringify({ confirm: me.name, content: "keep" }),
    });
    assert.equal(gone.status, 200, await gone.text());

    const again = await signInThrough(t, "provider_c", { jar: new CookieJar() });
    const session = await sessionOf(t, again.jar);
    assert.equal(session.status, 200, "silence still lets them sign in");
    const newId = (await session.json()).user.id as string;
    assert.notEqual(newId, me.id, "a new person");
    const cookie = again.jar.header();
    await refused(
      t.request("/api/questions", {
        method: "POST",
        headers: jsonWrite(t, cookie),
        body: JSON.stringify({ title: "A fresh start, then" }),
      }),
      "silenced",
    );
    const log = (await json<{ entries: { action: string; targetId: string; reason?: string }[] }>(
      getAs(t, mod, "/api/mod/log"),
    )).body.entries;
    assert.equal(log[0].action, "silence");
    assert.equal(log[0].targetId, newId);
    assert.equal(log[0].reason, `Carried over from deleted account ${me.id}: ${REASON}`);

    // Used up: lifted on the new account, it does not come back on a later sign-in.
    await sanction(t, mod, newId, { action: "lift", reason: "Fresh start granted" });
    assert.equal(
      (await t.request("/api/questions", {
        method: "POST",
        headers: jsonWrite(t, cookie),
        body: JSON.stringify({ title: "A fresh start, then" }),
      })).status,
      201,
    );

    // A suspension carried the same way (deleted by the domain call: a suspended person has
    // no session to delete with) still keeps them out.
    const other = await signInThrough(t, "provider_a");
    const otherId = (await (await sessionOf(t, other.jar)).json()).user.id as string;
    const otherName = (await getProfile(t.kv, otherId))!.displayName;
    await sanction(t, mod, otherId, { action: "suspend", until, reason: REASON });
    assert.deepEqual(
      await deleteAccount(t.kv, { userId: otherId, confirm: otherName, content: "keep" }, {
        now: t.services.now(),
      }),
      { ok: true, content: "keep" },
    );
    const back = await signInThrough(t, "provider_a", { jar: new CookieJar() });
    assert.match(back.app.location, /^\/signin\?error=suspended&notice=/);
    assert.equal((await sessionOf(t, back.jar)).status, 401, "no session");
    assert.ok((await (await t.request(back.app.location)).text()).includes(REASON));
  } finally {
    await close();
  }
});
