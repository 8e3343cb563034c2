/**
 * axe-core in a Playwright page: WCAG 2.1 A/AA and best practices.
 */
import axe from "axe-core";
import type { Page } from "playwright-core";

/** Run axe-core on the page; returns the violations as "rule (impact): n nodes". */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: (axe as unknown as { source: string }).source });
  const result = await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const r = await (globalThis as any).axe.run(document, {
      runOnly: {
        type: "tag",
        values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
      },
    });
    return r.violations.map((v: { id: string; impact: string; nodes: { target: string[] }[] }) =>
      `${v.id} (${v.impact}): ${v.nodes.length} × ${
        v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")
      }`
    );
  });
  return result as string[];
}
