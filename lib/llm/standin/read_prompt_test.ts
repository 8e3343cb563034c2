/** Reading what a prompt asks for: length bounds. */
import assert from "node:assert/strict";
import { readBounds } from "@/lib/llm/standin/read_prompt.ts";

Deno.test("readBounds() understands ranges and maxima", () => {
  assert.deepEqual(readBounds("between 100 and 200 characters"), { min: 100, max: 200 });
  assert.deepEqual(readBounds("write 50–80 chars"), { min: 50, max: 80 });
  assert.deepEqual(readBounds("at most 100 characters"), { min: 0, max: 100 });
  assert.equal(readBounds("as long as you like"), null);
});
