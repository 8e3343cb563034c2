import assert from "node:assert/strict";
import { HttpError } from "../fresh/error.ts";
import { ContentionError } from "../kv/atomic.ts";
import { failedWith } from "./errors.ts";

Deno.test("a route's catch-all passes contention on as a retryable 503, not its fixed 500", () => {
  const busy = failedWith(new ContentionError(48), "POST /api/debate", "Failed to start debate");
  assert.equal(busy.status, 503);
  assert.equal(busy.headers?.["retry-after"], "1");
  assert.deepEqual(busy.extra, { retryAfter: 1 });
  // What it threw on purpose stays as it is; anything else is the route's 500.
  const own = new HttpError(429, "Rate limit exceeded");
  assert.equal(failedWith(own, "x", "y"), own);
  assert.equal(failedWith(new TypeError("boom"), "x", "Failed to start debate").status, 500);
});
