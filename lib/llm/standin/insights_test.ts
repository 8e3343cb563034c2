import assert from "node:assert/strict";
import type { ChatMessage } from "../types.ts";
import { mapPrompt, summaryPrompt } from "../../insights/prompts.ts";
import { repairMap, repairSummary } from "../../insights/repair.ts";
import type { InsightAnswer } from "../../insights/answers.ts";
import { standInAnswer } from "./server.ts";
import { stanceOf } from "./insights.ts";

const answers: InsightAnswer[] = [
  "Yes, you should, because it saves time.",
  "No, avoid it.",
  "It depends on the team.",
  "I agree, it is also cheaper and worth it.",
].map((content, i) => ({
  id: `m${i}`,
  label: `A${i + 1}`,
  author: "x",
  content,
  accepted: i === 0,
  revision: 1,
}));
const q = { title: "Adopt the framework?", description: "" };

function ask(messages: ChatMessage[]): string {
  return standInAnswer({ messages, response_format: { type: "json_object" } } as never);
}

Deno.test("stand-in: the same map prompt gives the same valid map, stances from the answers' words", () => {
  const first = ask(mapPrompt(q, answers));
  assert.equal(ask(mapPrompt(q, answers)), first, "deterministic");
  const map = repairMap(JSON.parse(first), answers);
  assert.ok(map);
  assert.deepEqual(map.nodes.map((n) => n.stance), ["support", "oppose", "conditional", "support"]);
  assert.equal(map.nodes[0].keyArgument, "It saves time", "the reason it gives");
  assert.equal(map.nodes[1].keyArgument, "", "no reason given, no key argument made up");
  assert.ok(map.edges.every((e) => !/\bA\d/.test(e.reason)), "labels read as answer numbers");
  assert.ok(map.edges.some((e) => e.relation === "oppose"));
  assert.deepEqual(map.clusters.map((c) => c.stance), ["support", "oppose", "conditional"]);
});

Deno.test("stand-in: a summary that cites the answers it names and the accepted one", () => {
  const summary = repairSummary(JSON.parse(ask(summaryPrompt(q, answers))), answers);
  assert.ok(summary);
  assert.ok(summary.cites.includes("m0"));
  assert.match(summary.text, /accepted answer/);
  assert.match(summary.text, /\[1\]/);
});

Deno.test("stand-in: stanceOf", () => {
  assert.equal(stanceOf("Only if you test it."), "conditional");
  assert.equal(stanceOf("Never."), "oppose");
  assert.equal(stanceOf("Definitely."), "support");
  assert.equal(stanceOf("Here is a link."), "neutral");
});

Deno.test("stand-in: summaries and map nodes quote the answers' words, not their Markdown", () => {
  const marked: InsightAnswer[] = [
    "**KV** keeps *every* read small, because `getMany` batches them.",
    "No, [avoid it](https://example.com): ~~never~~ __do__ that.",
  ].map((content, i) => ({
    id: `m${i}`,
    label: `A${i + 1}`,
    author: "x",
    content,
    accepted: false,
    revision: 1,
  }));
  const summary = repairSummary(JSON.parse(ask(summaryPrompt(q, marked))), marked);
  const map = repairMap(JSON.parse(ask(mapPrompt(q, marked))), marked);
  const texts = [
    JSON.stringify(summary),
    ...(map?.nodes ?? []).flatMap((n) => [n.summary, n.keyArgument]),
  ];
  assert.ok(map && map.nodes.length === 2, JSON.stringify(map));
  assert.match(texts.join(" "), /KV keeps every read small/);
  for (const t of texts) assert.doesNotMatch(t, /\*\*|~~|__|`|\]\(/, t);
});
