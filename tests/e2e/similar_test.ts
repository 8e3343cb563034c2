/**
 * Similar questions on /ask in Chromium: as the title is typed, existing questions appear
 * under it (the answered one marked in words, each with its answer count), Tab reaches
 * them straight from the title and Enter opens one in the same tab; a title with no match
 * does not pull the fields below upward; axe clean and no sideways scroll at 1280 and 390 px.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { signInAs } from "../helpers/app.ts";
import { axeViolations } from "../helpers/axe.ts";
import { browserTest, SCREENSHOT_DIR } from "../helpers/browser.ts";
import { answer, ask, member, postAs } from "../helpers/community.ts";

/** The top of the Details label: what would jump if the box above it shrank. */
function detailsTop(page: Page): Promise<number> {
  return page.locator('label[for="description"]').evaluate((el) =>
    el.getBoundingClientRect().top + globalThis.scrollY
  );
}

browserTest(
  "/ask: similar questions appear while the title is typed, marked answered in words, reachable by Tab",
  async ({ t, srv, browser }) => {
    const [asker, helper] = await Promise.all(["Asker", "Helper"].map((n) => member(t, n)));
    const watered = await ask(t, asker, { title: "How often should I water ferns?" });
    const accepted = await answer(t, helper, watered, "Weekly, from below.");
    await answer(t, asker, watered, "Thanks, and in winter?");
    const ok = await postAs(t, asker, `/api/questions/${watered}/accept`, { messageId: accepted });
    assert.equal(ok.status, 200);
    const indoor = await ask(t, asker, {
      title: "Indoor ferns turning brown at the tips of every frond, what am I doing wrong here?",
    });
    await ask(t, asker, { title: "Which bread flour rises best?" });

    const { cookie } = await signInAs(t, "Newcomer");
    const [name, value] = cookie.split("=");
    for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
      // bypassCSP: axe-core is injected as an inline script.
      const context = await browser.newContext({ viewport, bypassCSP: true });
      await context.addCookies([{ name, value, url: srv.url }]);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(`${srv.url}/ask`);
      await page.waitForSelector('html[data-islands="ready"]');

      const box = page.locator('[data-testid="similar-questions"]');
      assert.equal(await box.getAttribute("aria-live"), "polite");
      assert.equal(await box.locator("li").count(), 0, "nothing before typing");
      const title = page.getByLabel("Title");
      await title.click();
      await page.keyboard.type("My indoor ferns", { delay: 15 });
      const items = box.locator('[data-testid="similar-question"]');
      await items.first().waitFor();
      await page.waitForFunction(() =>
        document.querySelectorAll('[data-testid="similar-question"]').length === 2
      );
      // Sharing two words beats sharing one; the accepted one says so in words.
      const texts = await items.allInnerTexts();
      assert.match(texts[0], /^Indoor ferns turning brown/);
      assert.match(texts[0], /no answers yet/);
      assert.match(texts[1], /^How often should I water ferns\?/);
      assert.match(texts[1], /answered/);
      assert.match(texts[1], /2 answers/);
      assert.equal(
        await box.getByRole("list", { name: /look similar/ }).count(),
        1,
        "a labelled list",
      );

      assert.deepEqual(await axeViolations(page), [], `/ask axe at ${viewport.width}`);
      await page.screenshot({
        path: `${SCREENSHOT_DIR}/ask-similar-${viewport.width}.png`,
        fullPage: true,
      });
      const overflow = await page.evaluate(() =>
        document.documentElement.scrollWidth - document.documentElement.clientWidth
      );
      assert.ok(overflow <= 0, `no sideways scroll at ${viewport.width} (${overflow}px)`);

      // A title nothing matches: the box says so in the same space; the form stays put.
      const before = await detailsTop(page);
      await title.fill("Quantum chromodynamics on a lattice");
      await box.getByText("No similar questions found").waitFor();
      assert.equal(await detailsTop(page), before, "the fields below did not move up");
      assert.equal(await items.count(), 0);

      // Back to a match, then the keyboard: Tab from the title reaches the first link,
      // Enter opens it here (no new tab).
      await title.fill("Indoor ferns");
      await page.waitForFunction(() =>
        document.querySelector('[data-testid="similar-question"] a')?.textContent?.startsWith(
          "Indoor ferns",
        ) ?? false
      );
      await title.focus();
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => document.activeElement?.getAttribute("href"));
      assert.equal(focused, `/questions/${indoor}`);
      const pages = context.pages().length;
      await Promise.all([page.waitForURL(`**/questions/${indoor}`), page.keyboard.press("Enter")]);
      assert.equal(context.pages().length, pages, "opened in the same tab");
      assert.deepEqual(errors, []);
      await context.close();
    }
  },
);

browserTest(
  "/ask without JavaScript: no suggestions box content, and the form still posts",
  async ({ t, srv, browser }) => {
    await ask(t, await member(t, "Asker"), { title: "Indoor ferns turning brown" });
    const { cookie } = await signInAs(t, "Plain");
    const [name, value] = cookie.split("=");
    const context = await browser.newContext({ javaScriptEnabled: false });
    await context.addCookies([{ name, value, url: srv.url }]);
    const page = await context.newPage();
    await page.goto(`${srv.url}/ask`);
    assert.equal(await page.locator('[data-testid="similar-questions"] li').count(), 0);
    await page.getByLabel("Title").fill("Indoor ferns keep dying");
    await Promise.all([
      page.waitForURL(/\/questions\/q-[a-z0-9]+\?asked=1$/),
      page.getByRole("button", { name: "Post question" }).click(),
    ]);
    await page.getByRole("heading", { name: "Indoor ferns keep dying" }).waitFor();
    await context.close();
  },
);
