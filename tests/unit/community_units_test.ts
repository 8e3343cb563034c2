/** Pure pieces of the community features: the vote table, tags, search terms, ids. */
import assert from "node:assert/strict";
import { orderedSuffix } from "@/lib/community/messages.ts";
import { normalizeTags } from "@/lib/community/questions/model.ts";
import { queryTerms, questionTerms, words } from "@/lib/community/search_terms.ts";
import { applyVote, nextVote } from "@/lib/community/vote_table.ts";

Deno.test("SPEC.md's vote table, row by row", () => {
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

Deno.test("tags: trimmed, empties and repeats dropped, first five kept", () => {
  assert.deepEqual(normalizeTags([" a ", "", "  ", "b", "A", "c", "d", "e", "f"]), [
    "a",
    "b",
    "c",
    "d",
    "e",
  ]);
  assert.deepEqual(normalizeTags(undefined), []);
});

Deno.test("search terms: words, title prefixes, normalized query terms", () => {
  assert.deepEqual(words("Deno KV: atomic ops! a"), ["deno", "kv", "atomic", "ops"]);
  const terms = new Set(
    questionTerms({ title: "Hydration", description: "FoundationDB", tags: ["Ünï"] }),
  );
  for (const t of ["hyd", "hydra", "hydration", "foundationdb", "ünï"]) assert.ok(terms.has(t), t);
  assert.ok(!terms.has("fou"), "description words are not prefix-indexed");
  assert.deepEqual(queryTerms("how to use KV kv"), ["how", "use", "to", "kv"]);
});

Deno.test("message id suffixes keep creation order within one millisecond", () => {
  const ids = Array.from({ length: 50 }, () => orderedSuffix(1_700_000_000_000));
  assert.deepEqual([...ids].sort(), ids);
  assert.ok(orderedSuffix(1_700_000_000_001) > ids.at(-1)!);
});
