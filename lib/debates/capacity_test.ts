import assert from "node:assert/strict";
import { acquireDebateSlot, runningDebatesEverywhere } from "./capacity.ts";

Deno.test("a crowd of debate starts in one process all get their answer: no retry storm on the lease table", async () => {
  const dir = await Deno.makeTempDir({ prefix: "capacity-" });
  await using _cleanup = { [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
  using kv = await Deno.openKv(`${dir}/kv.sqlite3`);
  const now = Date.now;
  let commits = 0;
  const atomic = kv.atomic.bind(kv);
  kv.atomic = () => {
    commits++;
    return atomic();
  };
  const start = (i: number, max: number) =>
    acquireDebateSlot(kv, { userId: `u-${i}`, max, perUserPerDay: 0, now });
  // 200 at once under a ceiling of 150: each one's read-check-write of the one table would
  // lose its check to the others again and again; together they take turns in batches.
  const results = await Promise.all(Array.from({ length: 200 }, (_, i) => start(i, 150)));
  const taken = results.filter((r) => r.ok);
  assert.equal(taken.length, 150);
  for (const r of results) if (!r.ok) assert.equal(r.reason, "busy");
  assert.equal(await runningDebatesEverywhere(kv, Date.now()), 150);
  // Alone, each start would take at least a commit (and, losing its check, many more).
  assert.ok(commits <= 20, `${commits} commits for 200 starts`);
  // Releases in a crowd too: every slot frees.
  await Promise.all(taken.map((r) => r.ok && r.slot.release()));
  assert.equal(await runningDebatesEverywhere(kv, Date.now()), 0);
});
