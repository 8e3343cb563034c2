import assert from "node:assert/strict";
import { createUser } from "../auth/users.ts";
import { keys } from "../kv/keys.ts";
import { saveSettings } from "../profile/settings.ts";
import { createDebate, type DebateRecord } from "../debates/store.ts";
import { advanceRoll, advanceRolls, RESCAN_MS, rollHeads, rollPage } from "./sitemap_rolls.ts";
import { sitemapLocations, sitemapPage } from "./sitemap.ts";

const ORIGIN = "https://p.example";

async function users(kv: Deno.Kv, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const u = await createUser(kv, {
      provider: "provider_a",
      name: `User ${i}`,
      image: null,
      bio: "",
      email: null,
    });
    ids.push(u.id);
  }
  return ids;
}

function debate(userId: string, createdAt: number): DebateRecord {
  return {
    id: `debate_${createdAt}_${crypto.randomUUID().slice(0, 8)}`,
    topic: `Topic ${createdAt}`,
    userId,
    userProfile: { id: userId, name: "Agent", avatar: null, bio: "" },
    opponentProfile: { id: "persona-x", name: "Dr. Opponent", avatar: "", bio: "", title: "S" },
    status: "completed",
    synthesis: null,
    messageCount: 0,
    standIn: false,
    createdAt,
    updatedAt: createdAt,
  };
}

Deno.test("rolls number every user once, page by a dense range, and never move a user to another page", async () => {
  using kv = await Deno.openKv(":memory:");
  let t = 1_800_000_000_000;
  const now = () => t;
  const first = await users(kv, 5);
  // Small batches: the walk spans several commits.
  assert.equal(await advanceRoll(kv, "profiles", { now, batch: 2 }), 5);
  assert.equal((await rollHeads(kv)).profiles, 5);
  const page1 = await rollPage(kv, "profiles", 1, 2);
  const page2 = await rollPage(kv, "profiles", 2, 2);
  const page3 = await rollPage(kv, "profiles", 3, 2);
  assert.deepEqual([page1.length, page2.length, page3.length], [2, 2, 1]);
  assert.deepEqual([...page1, ...page2, ...page3].sort(), [...first].sort());

  // A walk again soon after finds nothing to do; new users wait for the rescan.
  const later = await users(kv, 3);
  assert.equal(await advanceRoll(kv, "profiles", { now, batch: 2 }), 0);
  t += RESCAN_MS;
  assert.equal(await advanceRoll(kv, "profiles", { now, batch: 2 }), 3);
  // The first five keep their pages; the new three come after them.
  assert.deepEqual(await rollPage(kv, "profiles", 1, 2), page1);
  assert.deepEqual(await rollPage(kv, "profiles", 2, 2), page2);
  const rest = [...await rollPage(kv, "profiles", 3, 2), ...await rollPage(kv, "profiles", 4, 2)];
  assert.deepEqual(rest.slice(1).sort(), [...later].sort());

  // Sitemap pages of size 2: private profiles are left out, the rest answer in roll order.
  await saveSettings(kv, page1[0], { activityVisibility: "private" });
  const urls = await sitemapPage(kv, ORIGIN, "profiles", 1, 2);
  assert.deepEqual(urls.map((u) => u.loc), [`${ORIGIN}/u/${page1[1]}`]);
  const locations = await sitemapLocations(kv, ORIGIN, 2);
  assert.ok(locations.includes(`${ORIGIN}/sitemaps/profiles/4.xml`));
  assert.ok(!locations.includes(`${ORIGIN}/sitemaps/profiles/5.xml`));
  // Nothing numbered twice.
  let rows = 0;
  for await (const _ of kv.list({ prefix: ["sitemap_roll", "profiles"] })) rows++;
  assert.equal(rows, 8);
});

Deno.test("a walk stopped between batches resumes after its last batch, numbering nothing twice", async () => {
  using kv = await Deno.openKv(":memory:");
  const ids = await users(kv, 7);
  const stop = new AbortController();
  let batches = 0;
  const fence = (op: Deno.AtomicOperation) => {
    if (++batches === 2) stop.abort();
    return op;
  };
  assert.equal(await advanceRoll(kv, "profiles", { fence, signal: stop.signal, batch: 2 }), 4);
  const walk = (await kv.get<{ after: string | null }>(keys.sitemapRollWalk("profiles"))).value;
  assert.ok(walk?.after, "the walk's place was kept");
  assert.equal(await advanceRoll(kv, "profiles", { batch: 2 }), 3);
  const all = await rollPage(kv, "profiles", 1, 100);
  assert.deepEqual([...all].sort(), [...ids].sort());
});

Deno.test("debates: each run reads on from the walk's end, and a debate committed late (an earlier id) is still numbered", async () => {
  using kv = await Deno.openKv(":memory:");
  const [ada, bob] = await users(kv, 2);
  await saveSettings(kv, bob, { debateArchive: "private" });
  const t0 = 1_800_000_000_000;
  const early = [debate(ada, t0), debate(bob, t0 + 1000), debate(ada, t0 + 2000)];
  for (const d of early) assert.ok(await createDebate(kv, d));
  assert.deepEqual(await advanceRolls(kv, { now: () => t0 + 5000 }), {
    tags: 0,
    profiles: 2,
    debates: 3,
  });
  // Committed after the walk passed its time, by an instance whose clock was behind.
  const late = debate(ada, t0 + 1500);
  const newer = debate(ada, t0 + 9000);
  for (const d of [late, newer]) assert.ok(await createDebate(kv, d));
  assert.equal(await advanceRoll(kv, "debates", { now: () => t0 + 10_000 }), 2);
  const urls = await sitemapPage(kv, ORIGIN, "debates", 1, 100);
  assert.deepEqual(
    urls.map((u) => u.loc).sort(),
    [early[0], early[2], late, newer].map((d) => `${ORIGIN}/debates/${d.id}`).sort(),
    "every public debate, and no private one",
  );
  assert.ok(urls.every((u) => u.lastmod >= t0));
});
