/** The lock retry around KV commits. */
import assert from "node:assert/strict";
import { isLockError, MAX_COMMIT_ATTEMPTS, withLockRetry } from "@/lib/kv/retry.ts";

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

Deno.test("withLockRetry() gives up after MAX_COMMIT_ATTEMPTS and rethrows the last lock error", async () => {
  let calls = 0;
  await assert.rejects(
    withLockRetry(() => {
      calls++;
      return Promise.reject(new Error("database is locked"));
    }),
    /database is locked/,
  );
  assert.equal(calls, MAX_COMMIT_ATTEMPTS);
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
