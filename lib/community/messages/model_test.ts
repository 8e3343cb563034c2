/** Message ids that sort in creation order. */
import assert from "node:assert/strict";
import { orderedSuffix } from "@/lib/community/messages/model.ts";

Deno.test("orderedSuffix() keeps creation order within one millisecond", () => {
  const ids = Array.from({ length: 50 }, () => orderedSuffix(1_700_000_000_000));
  assert.deepEqual([...ids].sort(), ids);
  assert.ok(orderedSuffix(1_700_000_000_001) > ids.at(-1)!);
});
