/** docs/interface.md#votes's vote table as a pure function. */
import assert from "node:assert/strict";
import { applyVote, nextVote } from "@/lib/community/vote_table.ts";

Deno.test("nextVote() and applyVote() follow docs/interface.md#votes's vote table, row by row", () => {
  assert.deepEqual(nextVote(null, "up"), { action: "liked", next: "up" });
  assert.deepEqual(nextVote(null, "down"), { action: "downvoted", next: "down" });
  assert.deepEqual(nextVote("up", "up"), { action: "unliked", next: null });
  assert.deepEqual(nextVote("down", "down"), { action: "undownvoted", next: null });
  assert.deepEqual(nextVote("down", "up"), { action: "liked", next: "up" });
  assert.deepEqual(nextVote("up", "down"), { action: "downvoted", next: "down" });
  assert.deepEqual(applyVote({ upvotes: 3, downvotes: 1 }, "down", "up"), {
    upvotes: 4,
    downvotes: 0,
  });
  assert.deepEqual(applyVote({ upvotes: 0, downvotes: 0 }, "up", null), {
    upvotes: 0,
    downvotes: 0,
  });
});
