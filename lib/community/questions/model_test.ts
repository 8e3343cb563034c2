/** Tags as a question stores them. */
import assert from "node:assert/strict";
import { normalizeTags } from "@/lib/community/questions/model.ts";

Deno.test("normalizeTags() trims, drops empties and repeats (ignoring case), and keeps the first five", () => {
  assert.deepEqual(normalizeTags([" a ", "", "  ", "b", "A", "c", "d", "e", "f"]), [
    "a",
    "b",
    "c",
    "d",
    "e",
  ]);
  assert.deepEqual(normalizeTags(undefined), []);
});
