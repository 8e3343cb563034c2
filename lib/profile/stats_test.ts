/** Contribution score and the six badges: thresholds one below, at, and above. */
import assert from "node:assert/strict";
import { addToCounter, commit } from "@/lib/kv/atomic.ts";
import { keys } from "@/lib/kv/keys.ts";
import { readUserStats } from "@/lib/profile/user_stats.ts";
import { openKv } from "@/lib/kv/open.ts";
import {
  BADGES,
  badgeStatuses,
  contributionScore,
  readEarnedBadges,
  recordEarnedBadges,
  statisticsFrom,
} from "@/lib/profile/stats.ts";

Deno.test("contributionScore() weighs question 5, answer 3, upvote 1, debate 10", () => {
  assert.equal(contributionScore({ questions: 0, answers: 0, upvotesReceived: 0, debates: 0 }), 0);
  assert.equal(contributionScore({ questions: 1, answers: 0, upvotesReceived: 0, debates: 0 }), 5);
  assert.equal(contributionScore({ questions: 0, answers: 1, upvotesReceived: 0, debates: 0 }), 3);
  assert.equal(contributionScore({ questions: 0, answers: 0, upvotesReceived: 1, debates: 0 }), 1);
  assert.equal(contributionScore({ questions: 0, answers: 0, upvotesReceived: 0, debates: 1 }), 10);
  assert.equal(contributionScore({ questions: 2, answers: 3, upvotesReceived: 7, debates: 1 }), 36);
});

for (const badge of BADGES) {
  Deno.test(`badge "${badge.name}": one below, at, and above ${badge.threshold}`, async () => {
    const kv = await openKv(":memory:");
    try {
      const set = (n: number) =>
        commit(kv, (op) => op.set(keys.userStat("u1", badge.stat), new Deno.KvU64(BigInt(n))));
      await set(badge.threshold - 1);
      assert.deepEqual(await recordEarnedBadges(kv, "u1", 1000), [], "one below earns nothing");
      let status = badgeStatuses(await readUserStats(kv, "u1"), await readEarnedBadges(kv, "u1"))
        .find((b) => b.id === badge.id)!;
      assert.equal(status.earned, false);
      assert.deepEqual(status.progress, { current: badge.threshold - 1, target: badge.threshold });

      await set(badge.threshold);
      assert.deepEqual(await recordEarnedBadges(kv, "u1", 2000), [badge.id], "at the threshold");
      status = badgeStatuses(await readUserStats(kv, "u1"), await readEarnedBadges(kv, "u1"))
        .find((b) => b.id === badge.id)!;
      assert.equal(status.earned, true);
      assert.equal(status.earnedAt, 2000);

      await set(badge.threshold + 1);
      assert.deepEqual(await recordEarnedBadges(kv, "u1", 3000), [], "already earned");
      assert.equal((await readEarnedBadges(kv, "u1"))[badge.id], 2000, "earn time kept");
    } finally {
      kv.close();
    }
  });
}

Deno.test("statisticsFrom() reads statistics from the counters", async () => {
  const kv = await openKv(":memory:");
  try {
    await commit(kv, (op) => {
      addToCounter(op, keys.userStat("u", "questions"), 2);
      addToCounter(op, keys.userStat("u", "answers"), 3);
      addToCounter(op, keys.userStat("u", "upvotes_received"), 7);
      addToCounter(op, keys.userStat("u", "favorites_received"), 4);
      addToCounter(op, keys.userStat("u", "debates"), 1);
    });
    assert.deepEqual(statisticsFrom(await readUserStats(kv, "u")), {
      questionsCount: 2,
      answersCount: 3,
      debatesCount: 1,
      upvotesReceived: 7,
      favoritesReceived: 4,
      contributionScore: 36,
    });
  } finally {
    kv.close();
  }
});
