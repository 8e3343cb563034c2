import assert from "node:assert/strict";
import { analyze, deletions, isStopWord, stemOf, surfaceWords, typoBudget } from "./analyze.ts";

Deno.test("surfaceWords() normalizes case, width and possessives and keeps other scripts", () => {
  assert.deepEqual(surfaceWords("Deno KV's ＡＴＯＭＩＣ ops, don't!"), [
    "deno",
    "kv",
    "atomic",
    "ops",
    "dont",
  ]);
  assert.deepEqual(surfaceWords("日本語のテキスト"), ["日本語", "の", "テキスト"]);
  assert.deepEqual(surfaceWords("a b 7"), [], "one Latin letter or digit says nothing");
});

Deno.test("analyze() drops stop words and stems English words with the Snowball stemmer", () => {
  assert.deepEqual(analyze("How to count the counters running"), [
    { surface: "count", stem: "count" },
    { surface: "counters", stem: "counter" },
    { surface: "running", stem: "run" },
  ]);
  assert.equal(isStopWord("the"), true);
  assert.equal(stemOf("v8"), "v8", "not a Latin word: as written");
});

Deno.test("typoBudget() and deletions() measure typos as the index tolerates them", () => {
  assert.deepEqual([typoBudget("kv"), typoBudget("count"), typoBudget("synchronize")], [0, 1, 2]);
  assert.deepEqual(deletions("abc"), ["bc", "ac", "ab"]);
  assert.deepEqual(deletions("aab"), ["ab", "aa"], "distinct only");
});
