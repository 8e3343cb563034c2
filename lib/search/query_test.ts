import assert from "node:assert/strict";
import { isSearch, MAX_QUERY_WORDS, parseQuery } from "./query.ts";

Deno.test("parseQuery() reads words, phrases, tag: and is:unanswered; the last typed word is a prefix", () => {
  const p = parseQuery('"Atomic op" tag:Deno is:unanswered how counte');
  assert.deepEqual(p.phrases, [["atomic", "op"]]);
  assert.equal(p.tag, "deno");
  assert.equal(p.unanswered, true);
  assert.deepEqual(p.words.map((w) => [w.surface, w.prefix]), [
    ["atomic", false],
    ["op", false],
    ["counte", true],
  ]);
  assert.equal(parseQuery("counter ").words[0].prefix, false, "a space ends the word");
  assert.equal(parseQuery('"counter"').words[0].prefix, false, "so does a closing quote");
});

Deno.test("parseQuery() keeps at most MAX_QUERY_WORDS words, always the one being typed", () => {
  const many = Array.from({ length: 12 }, (_, i) => `word${i}`).join(" ");
  const p = parseQuery(many);
  assert.equal(p.words.length, MAX_QUERY_WORDS);
  assert.equal(p.words.at(-1)!.surface, "word11");
  assert.equal(isSearch(parseQuery("tag:deno")), false, "a filter alone is no search");
});
