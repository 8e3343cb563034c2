import assert from "node:assert/strict";
import { parseQuery } from "./query.ts";
import { highlight } from "./snippet.ts";

Deno.test("highlight() marks stems, typos and prefixes the way the ranking matched them", () => {
  const marked = (text: string, q: string) =>
    highlight(text, parseQuery(q)).filter((s) => s.mark).map((s) => s.text);
  assert.deepEqual(marked("Atomic counters in KV", "counter "), ["counters"]);
  assert.deepEqual(marked("Atomic counters in KV", "cuonter "), ["counters"]);
  assert.deepEqual(marked("Hydration of islands", "hydr"), ["Hydration"]);
  assert.deepEqual(marked("Nothing here", "zebra "), []);
});

Deno.test("highlight() cuts a long text around the first match at word boundaries", () => {
  const text = `${"filler ".repeat(60)}the needle is here ${"tail ".repeat(60)}`;
  const segs = highlight(text, parseQuery("needle "), 100);
  assert(segs[0].text.startsWith("…filler"), segs[0].text);
  assert(segs.at(-1)!.text.endsWith("…"), segs.at(-1)!.text);
  assert(segs.some((s) => s.mark && s.text === "needle"));
  assert(segs.map((s) => s.text).join("").length <= 104);
});
