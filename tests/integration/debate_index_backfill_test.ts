/**
 * The backfill of the public debates' index (lib/debates/time_index_backfill.ts): debates
 * written before `debates_by_time` existed are listed on /debates once the job ran —
 * private ones still not — and a run stopped between batches resumes where it stopped,
 * on the job runner, without listing anything twice.
 */
import assert from "node:assert/strict";
import {
  backfillDebateTimeIndex,
  type BackfillProgress,
  DEBATE_INDEX_BACKFILL,
  DEBATE_INDEX_BACKFILL_JOB,
} from "@/lib/debates/time_index_backfill.ts";
import { jobRunner } from "@/lib/jobs/runner.ts";
import { keys } from "@/lib/kv/keys.ts";
import { createTestApp, jsonWrite, signInAs, type TestApp, waitForJobs } from "../helpers/app.ts";
import { seedFinishedDebate } from "../helpers/debates.ts";

let clock = 1_800_000_000_000;

/** A finished debate; `legacy`: written as before the public index (record and history only). */
const seed = (t: TestApp, userId: string, topic: string, legacy: boolean) =>
  seedFinishedDebate(t.kv, userId, topic, { legacy, at: clock += 1000 });

/**
 * The debate ids /debates lists (first page), newest first — read signed in, as signed-out
 * pages may come from the page cache for a second.
 */
async function listed(t: TestApp, cookie: string): Promise<string[]> {
  const res = await t.request("/debates", { headers: { cookie } });
  assert.equal(res.status, 200);
  const html = await res.text();
  return [
    ...html.matchAll(/<h2 class="public-debate-title"><a href="\/debates\/([^"]+)" dir="auto">/g),
  ]
    .map((m) => decodeURIComponent(m[1]));
}

Deno.test("debates older than the public index are listed on /debates once the backfill ran; private ones still are not", async () => {
  const t = await createTestApp({ llm: null });
  try {
    const ada = await signInAs(t, "Ada");
    const bob = await signInAs(t, "Bob");
    const setPrivate = await t.request("/api/profile/settings", {
      method: "PUT",
      headers: jsonWrite(t, bob.cookie),
      body: JSON.stringify({ debateArchive: "private" }),
    });
    assert.equal(setPrivate.status, 200);
    await setPrivate.body?.cancel();
    const old: string[] = [];
    for (let i = 0; i < 5; i++) old.push(await seed(t, ada.user.id, `Old debate ${i}`, true));
    const hidden = [
      await seed(t, bob.user.id, "Bob's old debate", true),
      await seed(t, bob.user.id, "Bob's other debate", true),
    ];
    const recent = await seed(t, ada.user.id, "A debate since the index", false);
    assert.deepEqual(await listed(t, ada.cookie), [recent], "before: only the indexed debate");

    // A first run stops after its second batch (of 3): what it committed stays.
    const stop = new AbortController();
    let batches = 0;
    const part = await backfillDebateTimeIndex(t.kv, {
      batch: 3,
      signal: stop.signal,
      fence: (op) => {
        if (++batches === 2) stop.abort();
        return op;
      },
    });
    assert.equal(part.indexed, 6);
    assert.equal(part.doneAt, undefined);
    assert.deepEqual(
      await listed(t, ada.cookie),
      [recent, ...old.slice().reverse()],
      "the first six walked",
    );

    // The job runner resumes it after the sixth and finishes.
    const taken = await jobRunner(t.kv).pass();
    assert.ok(taken.includes(`${DEBATE_INDEX_BACKFILL_JOB}/main`), String(taken));
    await waitForJobs();
    const progress = (await t.kv.get<BackfillProgress>(keys.backfill(DEBATE_INDEX_BACKFILL)))
      .value!;
    assert.equal(progress.indexed, 8, "each debate walked once");
    assert.ok(progress.doneAt !== undefined);
    const after = await listed(t, ada.cookie);
    assert.deepEqual(after, [recent, ...old.slice().reverse()]);
    for (const id of hidden) assert.ok(!after.includes(id), "a private debate is not listed");
    // Every debate has exactly one row (a row createDebate wrote was rewritten, not doubled).
    let rows = 0;
    for await (const _ of t.kv.list({ prefix: keys.debatesByTimePrefix() })) rows++;
    assert.equal(rows, 8);
    // Bob turns his archive public: his old debates appear, as the index has them too.
    const open = await t.request("/api/profile/settings", {
      method: "PUT",
      headers: jsonWrite(t, bob.cookie),
      body: JSON.stringify({ debateArchive: "public" }),
    });
    await open.body?.cancel();
    const all = await listed(t, ada.cookie);
    for (const id of hidden) assert.ok(all.includes(id), id);

    // Done is done: a later run reads its progress and writes nothing.
    const again = await backfillDebateTimeIndex(t.kv);
    assert.deepEqual(again, progress);
  } finally {
    await t.close();
  }
});
