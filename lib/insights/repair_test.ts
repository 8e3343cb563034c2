import assert from "node:assert/strict";
import { OpinionMap, ThreadSummary } from "../schemas/insights.ts";
import type { InsightAnswer } from "./answers.ts";
import { clip, readStance, repairMap, repairSummary } from "./repair.ts";

const answers: InsightAnswer[] = ["m-a", "m-b", "m-c"].map((id, i) => ({
  id,
  label: `A${i + 1}`,
  author: `P${i}`,
  content: `Answer ${i + 1} says something. And more.`,
  accepted: i === 2,
  revision: 1,
}));

Deno.test("repairMap: labels become message ids, ids are renumbered, bad references and duplicates are dropped, the result validates", () => {
  const map = repairMap({
    nodes: [
      { id: "x", answer: "A2", stance: "Against", summary: "  two  ", weight: 80 },
      { id: "y", answer: "a1", stance: "maybe", keyArgument: 5 },
      { id: "z", answer: "A2", stance: "support" }, // the same answer again
      { id: "w", answer: "A9" }, // not shown to the model
    ],
    edges: [
      { source: "y", target: "x", relation: "rebuts", reason: "r" },
      { source: "y", target: "x", relation: "support" }, // a second edge, same pair
      { source: "x", target: "w", relation: "support" },
      { source: "x", target: "x", relation: "support" },
      { source: "A2", target: "A1", relation: "extends" },
    ],
    clusters: [
      { label: "", stance: "nonsense", nodeIds: ["x", "A9"] },
      { label: "Again", nodeIds: ["x"] }, // x is in a cluster already
    ],
  }, answers);
  assert.ok(map);
  assert.ok(OpinionMap.safeParse(map).success);
  assert.deepEqual(map.nodes.map((n) => [n.id, n.messageId, n.stance]), [
    ["n1", "m-b", "oppose"],
    ["n2", "m-a", "neutral"],
  ]);
  assert.equal(map.nodes[0].summary, "two");
  assert.equal(map.nodes[0].weight, 0.8);
  assert.equal(map.nodes[1].summary, "Answer 1 says something.", "first sentence when none given");
  assert.deepEqual(map.edges.map((e) => [e.source, e.target, e.relation]), [
    ["n2", "n1", "oppose"],
    ["n1", "n2", "supplement"],
  ]);
  assert.deepEqual(map.clusters, [{
    label: "Oppose",
    stance: "oppose",
    nodeIds: ["n1"],
    summary: "",
  }]);
});

Deno.test("repairMap: null when nothing usable", () => {
  assert.equal(repairMap({ nodes: [{ answer: "A7" }] }, answers), null);
  assert.equal(repairMap("nope", answers), null);
  assert.equal(repairMap({ nodes: [] }, answers), null);
});

Deno.test("repairSummary: markers numbered in citation order, unknown ones dropped, cites from the list when the text has none", () => {
  const s = repairSummary(
    { text: "Most agree [A3]. Some differ [A1, A2] and [A9].", cites: [] },
    answers,
  );
  assert.deepEqual(s, {
    text: "Most agree [1]. Some differ [2][3] and.",
    cites: ["m-c", "m-a", "m-b"],
  });
  assert.ok(ThreadSummary.safeParse(s).success);
  const listed = repairSummary({ text: "Plain text.", cites: ["A2", "A2", "A8"] }, answers);
  assert.deepEqual(listed, { text: "Plain text.", cites: ["m-b"] });
  assert.equal(repairSummary({ text: "" }, answers), null);
});

Deno.test("repairSummary: a long text is cut without leaving a marker whose answer is not cited", () => {
  const long = `${"Word ".repeat(100)}first [A1]. ${"More words here. ".repeat(40)}late [A2].`;
  const s = repairSummary({ text: long }, answers);
  assert.ok(s);
  assert.ok(s.text.length <= 900);
  assert.deepEqual(s.cites, ["m-a"]);
});

Deno.test("readStance and clip", () => {
  assert.equal(readStance("In favour"), "support");
  assert.equal(readStance("it depends"), "conditional");
  assert.equal(readStance(3), null);
  assert.equal(clip("alpha beta gamma", 12), "alpha beta…");
  assert.equal(clip(undefined, 5), "");
});
