import assert from "node:assert/strict";
import type { OpinionMapValue } from "../schemas/insights.ts";
import { CAMP_LABEL_CHARS, layoutMap, nodeOrder } from "./layout.ts";
import { starMap } from "../../tests/helpers/opinion_map.ts";

function mapOf(n: number): OpinionMapValue {
  return starMap(n, [
    {
      label: "A camp with a very long label indeed",
      stance: "oppose",
      nodeIds: ["n2", "n6"],
      summary: "",
    },
    { label: "Yes", stance: "support", nodeIds: ["n1"], summary: "" },
  ]);
}

Deno.test("layoutMap: every shape and camp label inside the picture, camps drawn together, an edge per edge", () => {
  for (const n of [1, 3, 9, 24]) {
    const map = mapOf(Math.max(n, 6));
    const layout = layoutMap(map);
    for (const p of layout.nodes) {
      assert.ok(p.x - p.r * 1.2 >= 0 && p.x + p.r * 1.2 <= layout.width, `x of ${p.id} at ${n}`);
      assert.ok(p.y - p.r * 1.2 >= 0 && p.y + p.r * 1.2 <= layout.height, `y of ${p.id} at ${n}`);
    }
    for (const c of layout.clusters) {
      assert.ok(c.label.length <= CAMP_LABEL_CHARS);
      const w = c.label.length * 8.8;
      const left = c.anchor === "end" ? c.x - w : c.anchor === "middle" ? c.x - w / 2 : c.x;
      assert.ok(left >= 0 && left + w <= layout.width, `label ${c.label} inside at ${n}`);
    }
    assert.equal(layout.edges.length, map.edges.length);
    assert.deepEqual(nodeOrder(map).slice(0, 3), ["n2", "n6", "n1"], "camps first, together");
  }
});
