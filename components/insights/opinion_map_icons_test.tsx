/**
 * The opinion map's small stance shapes (legend and text list) are `<use>`s of one shape
 * per stance in the picture's `<defs>`, coloured by the classes of the `<svg>` around
 * them; coordinates are written without float noise.
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import type { MapResponseValue } from "@/lib/schemas/insights.ts";
import { OpinionMap } from "./OpinionMap.tsx";
import { STANCES, starMap } from "../../tests/helpers/opinion_map.ts";

function response(n: number): MapResponseValue {
  return {
    map: starMap(n, [{ label: "Yes", stance: "support", nodeIds: ["n1", "n5"], summary: "" }]),
    messageCount: n,
    generatedAt: 0,
    status: "ready",
    aiGenerated: true,
  };
}

Deno.test("stance icons are <use>s of one shape per stance in the picture's <defs>, coloured by their <svg>", () => {
  const html = renderToString(
    <OpinionMap data={response(12)} href={(id) => `#${id}`} now={0} standIn={false} />,
  );
  const defs = /<defs>(.*?)<\/defs>/s.exec(html)![1];
  const icons = html.match(/<svg class="map-icon map-shape [^"]*"[^>]*>.*?<\/svg>/g) ?? [];
  // 4 in the legend, 12 in the text list.
  assert.equal(icons.length, 16);
  for (const svg of icons) {
    const m =
      /^<svg class="map-icon map-shape stance-([a-z]+)"[^>]*><use href="#map-icon-([a-z]+)"><\/use><\/svg>$/
        .exec(svg);
    assert.ok(m, svg);
    assert.equal(m[1], m[2], "coloured as the stance it draws");
  }
  for (const stance of STANCES) {
    // Drawn once, with no colour of its own: it inherits the icon's.
    const shape = new RegExp(`<(circle|rect|polygon) id="map-icon-${stance}"([^>]*)>`).exec(defs);
    assert.ok(shape, stance);
    assert.doesNotMatch(shape[2], /class=|fill=|stroke=/, stance);
  }
  // The picture's own shapes keep their classes; no coordinate carries float noise.
  assert.equal(html.match(/<a [^>]*class="map-node"/g)?.length, 12);
  assert.doesNotMatch(html, / (points|cx|cy|r|x|y|width|height)="[^"]*\d\.\d{3,}/);
});
