/**
 * The unread count equals the unread notifications that still exist
 * (docs/interface.md#notifications), through the HTTP surface on real KV: an unread
 * notification that expires leaves the count the API, the page and the live stream show —
 * also after KV itself removed it; trimming a full history takes the unread ones it drops off
 * the count; reading still clears it; and the count is exact while two instances on one KV
 * file write, read and mark at once (fsck agrees), also when their clocks differ.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { answer, ask, getAs, json, type Member, member, postAs } from "../helpers/community.ts";
import { readUntil } from "../helpers/sse.ts";
import { check } from "../helpers/fsck.ts";
import { createSession, sessionCookieName } from "@/lib/auth/sessions.ts";
import { keys } from "@/lib/kv/keys.ts";
import { notifyInOp, trimNotifications } from "@/lib/notifications/notifications.ts";
import { NOTIFICATIONS_KEPT } from "@/lib/notifications/stored.ts";
import { NOTIFICATION_PROBLEMS } from "@/lib/ops/fsck/notifications.ts";

const DAY = 86_400_000;

interface N {
  id: string;
  type: string;
  createdAt: number;
  read: boolean;
}
interface Page {
  notifications: N[];
  unread: number;
  nextCursor: string | null;
}

/** A clock the test moves (the app's injectable `now`). */
function testClock(start: number) {
  const clock = { at: start, now: () => clock.at };
  return clock;
}

/** Noon of the UTC day `days` before today: far from a day boundary, in the past. */
const noonDaysAgo = (days: number) => Math.floor(Date.now() / DAY) * DAY - days * DAY + DAY / 2;

/** Two app instances on one KV file, each on its own clock; disposing closes both. */
async function twoInstances(nowA: () => number, nowB: () => number) {
  const dir = await Deno.makeTempDir({ prefix: "unread-" });
  const kvPath = `${dir}/kv.sqlite3`;
  const a = await createTestApp({ kvPath, now: nowA });
  const b = await createTestApp({ kvPath, now: nowB });
  return {
    a,
    b,
    async [Symbol.asyncDispose]() {
      await a.close();
      await b.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** What fsck finds wrong with the unread counters and the expiry ledger (none is right). */
async function counterProblems(kv: Deno.Kv): Promise<string[]> {
  return (await check(kv)).lines().filter((l) =>
    l.includes(NOTIFICATION_PROBLEMS.counter) || l.includes(NOTIFICATION_PROBLEMS.ledger)
  );
}

/** `who` with a session started now on the app's clock (sessions last 30 days). */
async function fresh(t: TestApp, who: Member): Promise<Member> {
  const { token } = await createSession(t.kv, who.id, "provider_a", t.services.now());
  return { ...who, cookie: `${sessionCookieName(t.services.config.appOrigin)}=${token}` };
}

const inbox = async (t: TestApp, who: Member, cursor?: string) =>
  (await json<Page>(
    getAs(t, who, `/api/notifications${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`),
  )).body;

/** Every notification the API lists for `who`, following the cursors. */
async function everyListed(t: TestApp, who: Member): Promise<N[]> {
  const all: N[] = [];
  let cursor: string | undefined;
  do {
    const page = await inbox(t, who, cursor);
    all.push(...page.notifications);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return all;
}

/** The count the live stream sends first. */
async function streamed(t: TestApp, who: Member): Promise<number> {
  const res = await getAs(t, who, "/api/notifications/stream");
  assert.equal(res.status, 200);
  const [first] = await readUntil(res, (e) => e.type === "unread", { resumable: true });
  return (first.data as { unread: number }).unread;
}

/** The "N unread" line of the /notifications page. */
async function pageUnread(t: TestApp, who: Member): Promise<number> {
  const html = await (await getAs(t, who, "/notifications")).text();
  const m = html.match(/data-testid="unread-count"[^>]*>(\d+)/);
  assert.ok(m, "the page shows its unread count");
  return Number(m[1]);
}

/** The start of the UTC day on which a notification created at `createdAt` is gone. */
const goneAt = (createdAt: number) => (Math.floor(createdAt / DAY) + 90) * DAY;

Deno.test("an unread notification that expires leaves the count: API, page and stream — also once KV removed it", async () => {
  // Noon, so the two answers below fall on two different UTC days a day apart.
  const clock = testClock(noonDaysAgo(200));
  const t = await createTestApp({ now: clock.now });
  try {
    let asker = await member(t, "Asker");
    const helper = await member(t, "Helper");
    const qid = await ask(t, asker, { title: "Does the bell forget what expired?" });
    await answer(t, helper, qid, "It should.");
    clock.at += DAY;
    await answer(t, helper, qid, "A day later.");
    const [second, first] = (await inbox(t, asker)).notifications;
    assert.equal((await inbox(t, asker)).unread, 2);

    // Just before the first one's day: both still there.
    clock.at = goneAt(first.createdAt) - 60_000;
    asker = await fresh(t, asker);
    assert.equal((await inbox(t, asker)).unread, 2);
    // Its day began: gone from the list and the count, wherever the count is shown.
    clock.at = goneAt(first.createdAt);
    asker = await fresh(t, asker);
    const after = await inbox(t, asker);
    assert.deepEqual(after.notifications.map((n) => n.id), [second.id]);
    assert.equal(after.unread, 1);
    assert.equal(await pageUnread(t, asker), 1);
    assert.equal(await streamed(t, asker), 1);

    // KV removes the second one itself (its `expireIn`) before anyone reads again: nothing
    // is left that says it was unread, and still the count goes.
    await t.kv.delete(keys.notification(asker.id, second.id));
    clock.at = goneAt(second.createdAt);
    asker = await fresh(t, asker);
    assert.equal(await streamed(t, asker), 0);
    assert.deepEqual(await inbox(t, asker), { notifications: [], unread: 0, nextCursor: null });
    assert.equal(await pageUnread(t, asker), 0);
  } finally {
    await t.close();
  }
});

Deno.test("a full history trimmed: the unread ones it drops leave the count", async () => {
  const clock = testClock(Date.now());
  const t = await createTestApp({ now: clock.now });
  try {
    const asker = await member(t, "Asker");
    const helper = await member(t, "Helper");
    const qid = await ask(t, asker, { title: "How many notifications are kept?" });
    const mid = await answer(t, helper, qid, "The newest ones.");
    // Many more, unread (written as the reply fan-out writes them, one op each batch).
    const extra = NOTIFICATIONS_KEPT + 4;
    for (let i = 0; i < extra; i += 50) {
      const op = t.kv.atomic();
      for (let j = i; j < Math.min(extra, i + 50); j++) {
        clock.at += 1;
        notifyInOp(op, asker.id, {
          type: "reply",
          actor: { id: helper.id },
          questionId: qid,
          messageId: mid,
          answerId: mid,
        }, clock.at);
      }
      assert.ok((await op.commit()).ok);
    }
    assert.equal((await inbox(t, asker)).unread, extra + 1);
    // The history is trimmed to the newest (as after "mark all read" and by the migration),
    // here while the oldest are still unread.
    assert.equal(await trimNotifications(t.kv, asker.id), extra + 1 - NOTIFICATIONS_KEPT);
    assert.equal((await everyListed(t, asker)).length, NOTIFICATIONS_KEPT);
    assert.equal((await inbox(t, asker)).unread, NOTIFICATIONS_KEPT);
    assert.equal(await streamed(t, asker), NOTIFICATIONS_KEPT);
    // And reading the rest still clears them, one and then all.
    const [newest] = (await inbox(t, asker)).notifications;
    assert.deepEqual(
      (await json(postAs(t, asker, "/api/notifications/read", { ids: [newest.id] }))).body,
      { unread: NOTIFICATIONS_KEPT - 1 },
    );
    assert.deepEqual(
      (await json(postAs(t, asker, "/api/notifications/read", {}))).body,
      { unread: 0 },
    );
    assert.equal(await streamed(t, asker), 0);
    assert.deepEqual((await check(t.kv)).lines(), []);
  } finally {
    await t.close();
  }
});

Deno.test("reading still clears: read ones that expire leave the count alone; mark all read, then expiry", async () => {
  const clock = testClock(noonDaysAgo(200));
  const t = await createTestApp({ now: clock.now });
  try {
    let asker = await member(t, "Asker");
    const helper = await member(t, "Helper");
    const qid = await ask(t, asker, { title: "Is a read notification counted twice?" });
    await answer(t, helper, qid, "One.");
    await answer(t, helper, qid, "Two.");
    await answer(t, helper, qid, "Three.");
    const [three, two] = (await inbox(t, asker)).notifications;
    // Marked read one by one (the page's form, and the API).
    const form = await t.request("/notifications", {
      method: "POST",
      headers: {
        cookie: asker.cookie,
        origin: t.services.config.appOrigin,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ id: three.id }).toString(),
    });
    assert.equal(form.status, 303);
    assert.equal((await inbox(t, asker)).unread, 2);
    assert.deepEqual(
      (await json(postAs(t, asker, "/api/notifications/read", { ids: [two.id] }))).body,
      { unread: 1 },
    );
    // A day later a fourth; then the first three expire: only the unread one of them leaves.
    clock.at += DAY;
    await answer(t, helper, qid, "Four.");
    assert.equal((await inbox(t, asker)).unread, 2);
    clock.at = goneAt(three.createdAt);
    asker = await fresh(t, asker);
    assert.equal((await inbox(t, asker)).unread, 1);
    // Mark all read, then the fourth expires too: the count stays 0, not below.
    assert.deepEqual((await json(postAs(t, asker, "/api/notifications/read", {}))).body, {
      unread: 0,
    });
    clock.at += DAY;
    asker = await fresh(t, asker);
    assert.deepEqual(await inbox(t, asker), { notifications: [], unread: 0, nextCursor: null });
    // A new one counts as one.
    await answer(t, await fresh(t, helper), qid, "Five.");
    assert.equal((await inbox(t, asker)).unread, 1);
    assert.equal(await streamed(t, asker), 1);
  } finally {
    await t.close();
  }
});

Deno.test("exact with concurrent writes: two instances answer, mark read and read counts while old ones expire", async () => {
  // Far from any day boundary for the checker, which goes by the real clock.
  const clock = testClock(Date.now() - 100 * DAY);
  await using pair = await twoInstances(clock.now, clock.now);
  const { a, b } = pair;
  let asker = await member(a, "Asker");
  const helpers = await Promise.all([member(a, "H1"), member(b, "H2"), member(b, "H3")]);
  const qid = await ask(a, asker, { title: "Are counts exact under load?" });
  await answer(a, helpers[0], qid, "Let us see.");
  // Old ones: replies to the asker's own answer, unread, due to expire.
  const own = await answer(a, asker, qid, "My own notes.");
  await Promise.all(
    Array.from(
      { length: 12 },
      (_, i) => answer(i % 2 ? a : b, helpers[i % 3], qid, `old ${i}`, own),
    ),
  );
  assert.equal((await inbox(a, asker)).unread, 13);
  // 90 days on: the old ones are gone. Now, all at once from both instances: new replies,
  // marking some of the newest read, and reads of the count (each taking the expired off).
  clock.at = Date.now() - 10 * DAY;
  asker = await fresh(a, asker);
  for (const [i, h] of helpers.entries()) helpers[i] = await fresh(a, h);
  await Promise.all(
    Array.from(
      { length: 6 },
      (_, i) => answer(i % 2 ? a : b, helpers[i % 3], qid, `new ${i}`, own),
    ),
  );
  const toRead = (await inbox(a, asker)).notifications.slice(0, 4).map((n) => n.id);
  await Promise.all([
    ...Array.from(
      { length: 10 },
      (_, i) => answer(i % 2 ? a : b, helpers[i % 3], qid, `more ${i}`, own),
    ),
    ...toRead.map((id, i) =>
      json(postAs(i % 2 ? a : b, asker, "/api/notifications/read", { ids: [id] }))
    ),
    ...Array.from({ length: 6 }, (_, i) => inbox(i % 2 ? a : b, asker)),
    streamed(b, asker),
  ]);
  const listed = await everyListed(a, asker);
  assert.equal(listed.length, 16, "the 16 new ones; the old ones are gone");
  const unread = listed.filter((n) => !n.read).length;
  assert.equal(unread, 12);
  assert.equal((await inbox(a, asker)).unread, unread);
  assert.equal((await inbox(b, asker)).unread, unread);
  assert.equal(await streamed(b, asker), unread);
  // The checker agrees: counters and the expiry ledger match the history.
  assert.deepEqual(await counterProblems(a.kv), []);
});

Deno.test("mark all read goes by commit order, not by clocks: two instances whose clocks are 40 s apart", async () => {
  // One instance's clock runs 20 s ahead, the other's 20 s behind.
  await using pair = await twoInstances(() => Date.now() + 20_000, () => Date.now() - 20_000);
  const { a: ahead, b: behind } = pair;
  const listedUnread = async (t: TestApp, who: Member) =>
    (await everyListed(t, who)).filter((n) => !n.read).length;
  const asker = await member(ahead, "Asker");
  const helper = await member(ahead, "Helper");
  const qid = await ask(ahead, asker, { title: "Whose clock says what was read?" });
  // Written on the clock ahead, then everything marked read on the clock behind: the
  // notification is older than the mark, though its time is later than the mark's.
  await answer(ahead, helper, qid, "Written on the fast clock.");
  assert.equal((await inbox(behind, asker)).unread, 1);
  assert.deepEqual((await json(postAs(behind, asker, "/api/notifications/read", {}))).body, {
    unread: 0,
  });
  assert.equal(await listedUnread(ahead, asker), 0, "the mark read it, whatever its time");
  assert.equal(await pageUnread(behind, asker), 0);
  // Marked read on the clock ahead, then a new one on the clock behind: it came after the
  // mark, though its time is earlier than the mark's. It is unread, and counted.
  assert.deepEqual((await json(postAs(ahead, asker, "/api/notifications/read", {}))).body, {
    unread: 0,
  });
  await answer(behind, helper, qid, "Written on the slow clock.");
  // Listed after the first one (ids sort by their clock's time): 20 s behind the real
  // clock, where the mark's time is 20 s ahead of it.
  const [, newest] = (await inbox(behind, asker)).notifications;
  assert.ok(new Date(newest.createdAt).getTime() < Date.now(), "stamped before the mark's time");
  assert.equal(newest.read, false);
  assert.equal(await listedUnread(ahead, asker), 1);
  assert.equal((await inbox(ahead, asker)).unread, 1);
  assert.equal(await streamed(behind, asker), 1);
  // The checker counts the same way.
  assert.deepEqual(await counterProblems(ahead.kv), []);
  // Reading it one by one takes it off (it is unread by the same rule there).
  assert.deepEqual(
    (await json(postAs(behind, asker, "/api/notifications/read", { ids: [newest.id] }))).body,
    { unread: 0 },
  );
  assert.equal(await listedUnread(ahead, asker), 0);
  // The day's up-votes entry: made on the clock ahead, everything marked read there, then
  // another up-vote on the clock behind makes it unread again — and counted once.
  const fan = await member(ahead, "Fan");
  await postAs(ahead, helper, "/api/likes", { targetType: "question", targetId: qid });
  await json(postAs(ahead, asker, "/api/notifications/read", {}));
  await postAs(behind, fan, "/api/likes", { targetType: "question", targetId: qid });
  const upvotes = (await everyListed(ahead, asker)).filter((n) => n.type === "upvotes");
  assert.equal(upvotes.length, 1);
  assert.equal(upvotes[0].read, false);
  assert.equal((await inbox(behind, asker)).unread, 1);
  assert.equal(await listedUnread(behind, asker), 1);
});

Deno.test("an open live stream sends the count left when a day's start expires unread notifications", async () => {
  const clock = testClock(noonDaysAgo(200));
  const t = await createTestApp({ now: clock.now });
  try {
    let asker = await member(t, "Asker");
    const helper = await member(t, "Helper");
    const qid = await ask(t, asker, { title: "Does an open bell notice midnight?" });
    await answer(t, helper, qid, "It should.");
    const [n] = (await inbox(t, asker)).notifications;
    // A second before the day on which it is gone begins, a stream opens and shows it.
    clock.at = goneAt(n.createdAt) - 1_000;
    asker = await fresh(t, asker);
    const res = await getAs(t, asker, "/api/notifications/stream");
    assert.equal(res.status, 200);
    const counts: number[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const events = readUntil(res, (e) => {
      if (e.type !== "unread") return false;
      const { unread } = e.data as { unread: number };
      counts.push(unread);
      // The day begins while the stream stays open, with nothing else happening.
      if (counts.length === 1) clock.at = goneAt(n.createdAt);
      return unread === 0;
    }, { resumable: true });
    const late = new Promise<never>((_, fail) =>
      timer = setTimeout(() => fail(new Error(`no new count; sent ${counts}`)), 10_000)
    );
    try {
      await Promise.race([events, late]);
    } finally {
      clearTimeout(timer);
    }
    assert.deepEqual(counts, [1, 0]);
    assert.equal((await inbox(t, asker)).unread, 0);
  } finally {
    await t.close();
  }
});
