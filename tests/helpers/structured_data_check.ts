/**
 * Runs structured-data-testing-tool on the HTML read from stdin, with its Google preset
 * and the QAPage rules below, and prints `{passed, failed}` (test descriptions) as JSON.
 *
 * A separate process on purpose: the tool's dependencies (core-js 2) replace globals
 * the app relies on, so loading it in a test process breaks the app's routing.
 *
 * Run: `deno run tests/helpers/structured_data_check.ts < page.html`
 */
import { structuredDataTest } from "structured-data-testing-tool";
import sdttPresets from "structured-data-testing-tool/presets.js";
import { QA_PAGE_PRESET } from "./qa_page_preset.ts";

interface SdttTest {
  test: string;
}

if (import.meta.main) {
  const html = await new Response(Deno.stdin.readable).text();
  const result = await structuredDataTest(html, {
    presets: [sdttPresets.Google, QA_PAGE_PRESET],
    schemas: ["jsonld:QAPage"],
  }).catch((e: { res?: unknown }) => e.res);
  const names = (list: SdttTest[] | undefined) => (list ?? []).map((t) => t.test);
  console.log(JSON.stringify({ passed: names(result?.passed), failed: names(result?.failed) }));
}
