/**
 * Search in the browser: a query with a typo typed into the feed's search box finds the
 * question, ranked first, with the match marked; the "Best match" tab is current; no axe
 * violation and no sideways scroll at 1280 and 390 px.
 */
import assert from "node:assert/strict";
import { ask, member } from "../helpers/community.ts";
import { axeViolations } from "../helpers/axe.ts";
import { browserTest, SCREENSHOT_DIR } from "../helpers/browser.ts";

browserTest(
  "search forgives a typo, ranks, and marks the match at both sizes",
  async ({ t, srv, browser }) => {
    const ada = await member(t, "Ada");
    await ask(t, ada, {
      title: "Hydration mismatch in Preact islands",
      description: "The island renders twice after the counter updates.",
      tags: ["preact"],
    });
    await ask(t, ada, {
      title: "How do atomic counters work in Deno KV?",
      description: "I want to count page views atomically without losing increments.",
      tags: ["deno", "kv"],
    });
    for (const width of [1280, 390]) {
      // bypassCSP: axe-core is injected as an inline script.
      const context = await browser.newContext({
        viewport: { width, height: 844 },
        bypassCSP: true,
      });
      const page = await context.newPage();
      await page.goto(`${srv.url}/`);
      await page.getByRole("searchbox", { name: "Search questions" }).fill("cuonters");
      await page.getByRole("searchbox", { name: "Search questions" }).press("Enter");
      await page.waitForURL(/q=cuonters/);
      const titles = await page.locator(".question-title").allTextContents();
      assert.deepEqual(titles, [
        "How do atomic counters work in Deno KV?",
        "Hydration mismatch in Preact islands",
      ]);
      assert.equal(await page.locator(".question-title mark").first().textContent(), "counters");
      assert.equal(
        await page.getByRole("link", { name: "Best match" }).getAttribute("aria-current"),
        "page",
      );
      assert.deepEqual(await axeViolations(page), []);
      const overflow = await page.evaluate(() =>
        document.documentElement.scrollWidth - globalThis.innerWidth
      );
      assert.equal(overflow, 0);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/search-${width}.png`, fullPage: true });
      await context.close();
    }
  },
);
