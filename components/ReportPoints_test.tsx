import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { AgreementColumns, ReportPoints } from "./ReportPoints.tsx";

Deno.test("a report's points are listed each once, whatever their case and punctuation", () => {
  const html = renderToString(
    <ReportPoints items={["Read the study.", "read the study", "Ask a cyclist."]} empty="None." />,
  );
  assert.equal(html, "<ul><li>Read the study.</li><li>Ask a cyclist.</li></ul>");
});

Deno.test("agreement columns say in words when a side has no points", () => {
  const html = renderToString(
    <AgreementColumns consensus={[]} disagreements={["Cost", "cost!", "Speed"]} />,
  );
  assert.match(html, /Where they agreed<\/h3><p class="muted">No common ground was noted\.<\/p>/);
  assert.match(html, /Where they disagreed<\/h3><ul><li>Cost<\/li><li>Speed<\/li><\/ul>/);
});
