/** The sliced rate limit: no overshoot in any window across processes, no contention. */
import assert from "node:assert/strict";
import { hitSlicedLimit, SUB_BUCKETS } from "@/lib/limits/slices.ts";
import { openKv } from "@/lib/kv/open.ts";

Deno.test("hitSlicedLimit() serves exactly the limit in a burst and refuses the rest with Retry-After", async () => {
  const kv = await openKv(":memory:");
  try {
    const t0 = 1_800_000_000_000;
    for (let i = 1; i <= 60; i++) {
      const r = await hitSlicedLimit(kv, "agent", "k", 60, 60_000, t0);
      assert.equal(r.allowed, true, `hit ${i}`);
      assert.equal(r.remaining, 60 - i);
    }
    const over = await hitSlicedLimit(kv, "agent", "k", 60, 60_000, t0 + 1000);
    assert.equal(over.allowed, false);
    assert.ok(
      over.retryAfter >= 59 && over.retryAfter <= 60 + 60 / SUB_BUCKETS,
      `${over.retryAfter}`,
    );
    // A fixed window would reset at the minute; the sliced one does not.
    assert.equal((await hitSlicedLimit(kv, "agent", "k", 60, 60_000, t0 + 30_000)).allowed, false);
    // Room again at the latest one sub-bucket after the window.
    assert.equal(
      (await hitSlicedLimit(kv, "agent", "k", 60, 60_000, t0 + 60_000 + 60_000 / SUB_BUCKETS + 1))
        .allowed,
      true,
    );
  } finally {
    kv.close();
  }
});

Deno.test("hitSlicedLimit() never serves more than the limit in any window, across processes sharing one KV, and never fails under contention", async () => {
  const dir = await Deno.makeTempDir();
  // Three "processes": three KV handles on one file, each with its own in-memory slices.
  const stores = await Promise.all([1, 2, 3].map(() => openKv(`${dir}/kv.sqlite`)));
  try {
    const limit = 50;
    const windowMs = 9_000;
    const t0 = 1_800_000_000_000;
    const accepted: number[] = [];
    // 30 s of traffic in 100 ms steps, 10 concurrent hits per process per step.
    for (let t = t0; t < t0 + 30_000; t += 100) {
      const results = await Promise.all(
        stores.flatMap((kv) =>
          Array.from({ length: 10 }, () => hitSlicedLimit(kv, "agent", "hot", limit, windowMs, t))
        ),
      );
      for (const r of results) if (r.allowed) accepted.push(t);
    }
    // Slide a window over every start: never more than `limit` inside.
    let max = 0;
    for (let i = 0, j = 0; i < accepted.length; i++) {
      while (accepted[i] - accepted[j] >= windowMs) j++;
      max = Math.max(max, i - j + 1);
    }
    assert.ok(max <= limit, `max ${max} in one window`);
    // And the budget is mostly used (undershoot bounded): over 30 s, at least 2.5 windows' worth.
    assert.ok(accepted.length >= limit * 2.5, `accepted ${accepted.length}`);
  } finally {
    for (const kv of stores) kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hitSlicedLimit() claims with a few commits per window, not one per hit", async () => {
  const kv = await openKv(":memory:");
  try {
    const t0 = 1_800_000_000_000;
    let commits = 0;
    const atomic = kv.atomic.bind(kv);
    kv.atomic = () => {
      commits++;
      return atomic();
    };
    for (let i = 0; i < 600; i++) await hitSlicedLimit(kv, "agent", "busy", 600, 60_000, t0);
    assert.ok(commits <= 80, `${commits} commits for 600 hits`);
  } finally {
    kv.close();
  }
});
