/**
 * Flags weighed by trust (docs/decisions.md#new-accounts-and-trust), through HTTP: a new
 * account's flag weighs half, so three brand-new accounts no longer hide a post; six do,
 * as do three established ones (by age, an up-voted post or an accepted answer); the
 * weight stays exact under concurrent flags; the queue shows each flagger's standing.
 */
import assert from "node:assert/strict";
import { parseConfig } from "@/lib/config.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  answer,
  ask,
  getAs,
  json,
  type Member,
  member,
  postAs,
  vote,
} from "../helpers/community.ts";

const HOUR = 3_600_000;

interface QueueItem {
  targetId: string;
  flags: number;
  weight: number;
  hidden: boolean;
  flaggers: { id: string; name: string; standing: string }[];
}

async function world(env: Record<string, string> = {}, now?: () => number) {
  const t = await createTestApp({ env, now });
  const author = await member(t, "Author");
  const mod = await member(t, "Mo");
  t.services.config.moderators = [mod.id];
  const qid = await ask(t, author, { title: "A perfectly fine question?" });
  return { t, author, mod, qid };
}

const flag = (t: TestApp, who: Member, qid: string) =>
  postAs(t, who, "/api/flags", { targetType: "question", targetId: qid, reason: "spam" });

async function queueItem(t: TestApp, mod: Member, qid: string): Promise<QueueItem | undefined> {
  const { body } = await json<{ queue: QueueItem[] }>(getAs(t, mod, "/api/mod/queue"));
  return body.queue.find((i) => i.targetId === qid);
}

async function visibleToOthers(t: TestApp, qid: string): Promise<boolean> {
  const res = await t.request(`/api/questions/${qid}`);
  await res.body?.cancel();
  return res.status === 200;
}

async function members(t: TestApp, prefix: string, n: number): Promise<Member[]> {
  const out: Member[] = [];
  for (let i = 0; i < n; i++) out.push(await member(t, `${prefix} ${i}`));
  return out;
}

Deno.test("three flags from brand-new accounts no longer hide a post; six do, and the queue shows them as new", async () => {
  const { t, mod, qid } = await world();
  try {
    const fresh = await members(t, "Fresh", 6);
    for (const who of fresh.slice(0, 5)) assert.equal((await flag(t, who, qid)).status, 200);
    assert.equal(await visibleToOthers(t, qid), true, "five new accounts weigh 2.5");
    let item = await queueItem(t, mod, qid);
    assert.deepEqual([item?.flags, item?.weight, item?.hidden], [5, 2.5, false]);
    assert.deepEqual(item?.flaggers.map((f) => f.standing), Array(5).fill("new"));
    assert.deepEqual(
      item?.flaggers.map((f) => f.name).sort(),
      fresh.slice(0, 5).map((m) => m.name).sort(),
    );
    assert.equal((await flag(t, fresh[5], qid)).status, 200);
    assert.equal(await visibleToOthers(t, qid), false, "the sixth new account's flag hides it");
    item = await queueItem(t, mod, qid);
    assert.deepEqual([item?.flags, item?.weight, item?.hidden], [6, 3, true]);
    // The moderators' page says who flagged and how far each is trusted.
    const page = await (await getAs(t, mod, "/mod")).text();
    assert.match(page, /Weight 3 of 3/);
    assert.equal(page.match(/data-standing="new"/g)?.length, 6);
    assert.match(page, /Fresh 0 <span class="badge" data-standing="new">new account<\/span>/);
  } finally {
    await t.close();
  }
});

Deno.test("established accounts (by age, an up-voted post or an accepted answer) weigh 1: three hide a post", async () => {
  let clock = Date.now();
  const { t, author, mod, qid } = await world({}, () => clock);
  try {
    // Old enough: created over NEW_ACCOUNT_HOURS (24) ago.
    const old = await member(t, "Old Timer");
    // Valued: a post of theirs was up-voted.
    const voted = await member(t, "Voted");
    const other = await ask(t, voted, { title: "Something people liked?" });
    await vote(t, author, "question", other);
    // Valued: an answer of theirs was accepted.
    const helpful = await member(t, "Helpful");
    const mine = await ask(t, author, { title: "Who can help me out?" });
    const aid = await answer(t, helpful, mine, "Here is how.");
    const accepted = await postAs(t, author, `/api/questions/${mine}/accept`, { messageId: aid });
    assert.equal(accepted.status, 200);
    await accepted.body?.cancel();
    // A new account for contrast.
    const fresh = await member(t, "Fresh");
    clock += 12 * HOUR; // the members above (but "Old Timer") are still under 24 h old…
    const oldUser = await t.kv.get<{ createdAt: number }>(["users", old.id]);
    await t.kv.set(["users", old.id], { ...oldUser.value, createdAt: clock - 25 * HOUR });

    assert.equal((await flag(t, fresh, qid)).status, 200);
    assert.equal((await flag(t, old, qid)).status, 200);
    assert.equal((await flag(t, voted, qid)).status, 200);
    assert.equal(await visibleToOthers(t, qid), true, "0.5 + 1 + 1 = 2.5");
    assert.equal((await flag(t, helpful, qid)).status, 200);
    assert.equal(await visibleToOthers(t, qid), false, "3.5 hides it");
    const item = await queueItem(t, mod, qid);
    assert.equal(item?.weight, 3.5);
    assert.deepEqual(
      Object.fromEntries(item!.flaggers.map((f) => [f.name, f.standing])),
      { Helpful: "established", Voted: "established", "Old Timer": "established", Fresh: "new" },
    );
  } finally {
    await t.close();
  }
});

Deno.test("NEW_ACCOUNT_HOURS=0: no account is new, so three brand-new accounts' flags hide a post", async () => {
  const { t, mod, qid } = await world({ NEW_ACCOUNT_HOURS: "0" });
  try {
    for (const who of await members(t, "Fresh", 3)) await flag(t, who, qid);
    assert.equal(await visibleToOthers(t, qid), false);
    const item = await queueItem(t, mod, qid);
    assert.deepEqual(item?.flaggers.map((f) => f.standing), Array(3).fill("established"));
  } finally {
    await t.close();
  }
});

Deno.test("concurrent flags add up exactly: 5 new at once stay under the threshold; of 7 more at once, the one reaching 3 hides it and the rest find nothing", async () => {
  const { t, mod, qid } = await world();
  try {
    const crowd = await members(t, "Crowd", 12);
    const first = await Promise.all(crowd.slice(0, 5).map((who) => flag(t, who, qid)));
    assert.deepEqual(first.map((r) => r.status), Array(5).fill(200));
    assert.equal(await visibleToOthers(t, qid), true);
    assert.equal((await queueItem(t, mod, qid))?.weight, 2.5);
    const rest = await Promise.all(crowd.slice(5).map((who) => flag(t, who, qid)));
    // Hidden posts are not there for others: flags after the hiding one answer 404.
    assert.deepEqual(rest.map((r) => r.status).sort(), [200, 404, 404, 404, 404, 404, 404]);
    const item = await queueItem(t, mod, qid);
    assert.deepEqual([item?.flags, item?.weight, item?.hidden], [6, 3, true]);
    assert.equal(new Set(item?.flaggers.map((f) => f.id)).size, 6);
    assert.equal(await visibleToOthers(t, qid), false);
  } finally {
    await t.close();
  }
});

Deno.test("a moderator hides a post whatever its flag weight", async () => {
  const { t, mod, qid } = await world();
  try {
    const hide = await postAs(t, mod, "/api/mod/actions", {
      targetType: "question",
      targetId: qid,
      action: "hide",
    });
    assert.equal(hide.status, 200);
    await hide.body?.cancel();
    assert.equal(await visibleToOthers(t, qid), false);
  } finally {
    await t.close();
  }
});

Deno.test("NEW_ACCOUNT_HOURS is validated at start-up with a message naming it", () => {
  assert.equal(parseConfig({ KV_PATH: ":memory:" }).newAccountHours, 24);
  assert.equal(parseConfig({ KV_PATH: ":memory:", NEW_ACCOUNT_HOURS: "0" }).newAccountHours, 0);
  const refused: [string, string][] = [
    ["-1", "NEW_ACCOUNT_HOURS must be 0 (no account counts as new) or more"],
    ["1.5", "NEW_ACCOUNT_HOURS must be a whole number of hours"],
    ["soon", "NEW_ACCOUNT_HOURS must be a number"],
    ["9000", "NEW_ACCOUNT_HOURS must be at most 8760 (a year)"],
  ];
  for (const [value, message] of refused) {
    assert.throws(
      () => parseConfig({ KV_PATH: ":memory:", NEW_ACCOUNT_HOURS: value }),
      { name: "ConfigError", message },
      value,
    );
  }
});
