/** Search terms of questions and queries. */
import assert from "node:assert/strict";
import { queryTerms, questionTerms, words } from "@/lib/community/search_terms.ts";

Deno.test("words(), questionTerms() and queryTerms() index words and title prefixes and normalize a query", () => {
  assert.deepEqual(words("Deno KV: atomic ops! a"), ["deno", "kv", "atomic", "ops"]);
  const terms = new Set(
    questionTerms({ title: "Hydration", description: "FoundationDB", tags: ["Ünï"] }),
  );
  for (const t of ["hyd", "hydra", "hydration", "foundationdb", "ünï"]) assert.ok(terms.has(t), t);
  assert.ok(!terms.has("fou"), "description words are not prefix-indexed");
  assert.deepEqual(queryTerms("how to use KV kv"), ["how", "use", "to", "kv"]);
});
