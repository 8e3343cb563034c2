/** The lock retry around KV commits. */
import assert from "node:assert/strict";
import { backoffMs, isLockError, MAX_BACKOFF_MS, withLockRetry } from "@/lib/kv/retry.ts";

Deno.test("withLockRetry() retries a commit that hits 'database is locked' until it succeeds", async () => {
  let calls = 0;
  const result = await withLockRetry(() => {
    calls++;
    if (calls < 3) return Promise.reject(new Error("database is locked"));
    return Promise.resolve("ok");
  });
  assert.equal(result, "ok");
  assert.equal(calls, 3);
});

Deno.test("withLockRetry() gives up when its time budget is spent and rethrows the lock error", async () => {
  let calls = 0;
  const started = performance.now();
  await assert.rejects(
    withLockRetry(() => {
      calls++;
      return Promise.reject(new Error("database is locked"));
    }, 300),
    /database is locked/,
  );
  const took = performance.now() - started;
  // It stops only once the budget is spent (no upper bound: a loaded machine may sleep longer).
  assert.ok(took >= 300, `took ${took} ms`);
  assert.ok(calls > 8, `kept trying within the budget (${calls} tries)`);
});

Deno.test("backoffMs() grows exponentially with full jitter and is capped", () => {
  assert.equal(backoffMs(3, () => 0.999999) < 8, true);
  assert.equal(backoffMs(30, () => 0.999999) <= MAX_BACKOFF_MS, true);
  assert.equal(backoffMs(5, () => 0), 0);
});

Deno.test("withLockRetry() does not retry errors other than a lock", async () => {
  let calls = 0;
  await assert.rejects(
    withLockRetry(() => {
      calls++;
      return Promise.reject(new TypeError("bad value"));
    }),
    /bad value/,
  );
  assert.equal(calls, 1);
  assert.equal(isLockError(new Error("SQLITE_BUSY: database is busy")), true);
});
