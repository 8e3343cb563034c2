/**
 * `deno task fsck`: each invariant broken on purpose with raw KV writes after real data
 * was made through HTTP; the check counts it, the repair fixes what is derived, and the
 * check after the repair is clean.
 */
import assert from "node:assert/strict";
import { counterValue } from "@/lib/kv/atomic.ts";
import { keys } from "@/lib/kv/keys.ts";
import { VOTE_PROBLEMS } from "@/lib/ops/fsck/votes.ts";
import { check, community, repairClean } from "../helpers/fsck.ts";

Deno.test("a store made through HTTP is clean", async () => {
  const c = await community();
  try {
    const report = await check(c.t.kv);
    assert.ok(report.clean, report.lines().join("\n"));
  } finally {
    await c.t.close();
  }
});

Deno.test("votes: counters that drifted, a lost activity row, a stray row and a vote on a missing post", async () => {
  const c = await community();
  const { kv } = c.t;
  try {
    await kv.set(keys.voteCount("message", c.a1, "up"), new Deno.KvU64(7n));
    await kv.delete(keys.voteCount("question", c.q1, "down"));
    let row: Deno.KvKey | null = null;
    for await (const e of kv.list({ prefix: keys.userVotesPrefix(c.ada.id) })) row ??= e.key;
    await kv.delete(row!);
    await kv.set(keys.userVote(c.bob.id, 5, "question", "q-gone"), {
      targetType: "question",
      targetId: "q-gone",
      voteType: "up",
      createdAt: 1,
    });
    await kv.set(keys.vote("message", "msg-gone", c.cy.id), { voteType: "down", createdAt: 2 });
    await kv.set(keys.voteCount("message", "msg-gone", "down"), new Deno.KvU64(1n));

    const found = await check(kv);
    assert.equal(found.count("votes", VOTE_PROBLEMS.counter), 3, found.lines().join("\n"));
    assert.equal(found.count("votes", VOTE_PROBLEMS.noActivity), 1);
    assert.equal(found.count("votes", VOTE_PROBLEMS.staleActivity), 1);
    assert.equal(found.count("votes", VOTE_PROBLEMS.orphan), 1);

    const fixed = await repairClean(kv);
    assert.equal(fixed.fixed, fixed.problems, fixed.lines().join("\n"));
    const [up, down, gone] = await kv.getMany([
      keys.voteCount("message", c.a1, "up"),
      keys.voteCount("question", c.q1, "down"),
      keys.voteCount("message", "msg-gone", "down"),
    ]);
    assert.equal(counterValue(up.value), 2);
    assert.equal(counterValue(down.value), 1);
    assert.equal(gone.versionstamp, null);
    const api = await (await c.t.request(`/api/questions/${c.q1}`)).json();
    assert.equal(api.downvotes, 1);
  } finally {
    await c.t.close();
  }
});
