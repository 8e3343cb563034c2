/** The AI avatar's hourly answer window. */
import assert from "node:assert/strict";
import { withinHour } from "@/lib/avatar/answer.ts";

Deno.test("withinHour() keeps answers younger than an hour", () => {
  const now = 10_000_000;
  assert.deepEqual(withinHour({ times: [now - 3_600_000, now - 3_599_999, now] }, now), [
    now - 3_599_999,
    now,
  ]);
  assert.deepEqual(withinHour(null, now), []);
});
