import assert from "node:assert/strict";
import { isCompactVote, storedVote, voteOf } from "./vote_rows.ts";

Deno.test("a vote row is one signed time: up positive, down negative, read back whole", () => {
  const at = 1_750_000_000_123;
  assert.equal(storedVote("up", at), at);
  assert.equal(storedVote("down", at), -at);
  assert.deepEqual(voteOf(storedVote("up", at)), { voteType: "up", createdAt: at });
  assert.deepEqual(voteOf(storedVote("down", at)), { voteType: "down", createdAt: at });
  assert.ok(isCompactVote(storedVote("down", at)));
});

Deno.test("a vote row of an older store ({voteType, createdAt}) reads the same; other values are no vote", () => {
  assert.deepEqual(voteOf({ voteType: "down", createdAt: 7 }), { voteType: "down", createdAt: 7 });
  assert.equal(isCompactVote({ voteType: "down", createdAt: 7 }), false);
  for (const bad of [null, 0, NaN, Infinity, "up", { voteType: "sideways", createdAt: 7 }, {}]) {
    assert.equal(voteOf(bad), null, String(bad));
    assert.equal(isCompactVote(bad), false);
  }
});
