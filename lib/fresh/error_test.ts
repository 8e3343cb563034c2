/** HttpError: Fresh 2's constructor, with Parley's JSON fields and headers as options. */
import assert from "node:assert/strict";
import { HttpError } from "./error.ts";

Deno.test("HttpError without a message takes its status's phrase", () => {
  assert.equal(new HttpError(404).message, "Not found");
  assert.equal(new HttpError(429).message, "Too many requests");
  assert.equal(new HttpError(418).message, "HTTP 418");
});

Deno.test("HttpError keeps its status, message, cause, extra fields and headers", () => {
  const cause = new Error("underneath");
  const err = new HttpError(429, "Slow down", {
    cause,
    extra: { retryAfter: 3 },
    headers: { "retry-after": "3" },
  });
  assert.ok(err instanceof Error);
  assert.equal(err.name, "HttpError");
  assert.equal(err.status, 429);
  assert.equal(err.message, "Slow down");
  assert.equal(err.cause, cause);
  assert.deepEqual(err.extra, { retryAfter: 3 });
  assert.deepEqual(err.headers, { "retry-after": "3" });
  assert.deepEqual(new HttpError(400, "Bad").extra, {});
  assert.deepEqual(new HttpError(400, "Bad").headers, {});
});
