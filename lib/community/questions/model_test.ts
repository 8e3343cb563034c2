/** Tags as a question stores them. */
import assert from "node:assert/strict";
import { normalizeTags, tagKey } from "@/lib/community/questions/model.ts";

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

Deno.test("normalizeTags() lower-cases, NFKC-folds and joins inner whitespace with '-' before de-duplicating", () => {
  assert.deepEqual(
    normalizeTags(["Deno", "deno", "ＤＥＮＯ", " Deno   KV ", "deno-kv", "x", "y", "z", "w"]),
    ["deno", "deno-kv", "x", "y", "z"],
  );
  assert.equal(tagKey("  Fresh\tIslands "), "fresh-islands");
});
