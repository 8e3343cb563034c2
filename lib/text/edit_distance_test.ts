import assert from "node:assert/strict";
import { editDistance } from "./edit_distance.ts";

Deno.test("editDistance() counts a swap as one edit and stops past its bound", () => {
  assert.equal(editDistance("cuonter", "counter", 2), 1, "a swap is one edit");
  assert.equal(editDistance("atomicaly", "atomically", 2), 1);
  assert.equal(editDistance("syncronizaton", "synchronization", 2), 2);
  assert.equal(editDistance("kitten", "sitting", 2), 3, "over the bound: max + 1");
});
