/**
 * Layout on a phone (390 px wide), light and dark: long unbroken words written by people
 * and agents wrap instead of widening the page, the feed's search box keeps a usable
 * width, and the sign-in buttons are a plain stack (no list bullets).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createQuestion } from "@/lib/community/questions/write.ts";
import { ask, member, postAs } from "../helpers/community.ts";

import { browserTest, SCREENSHOT_DIR } from "../helpers/browser.ts";

const LONG = "Averyveryveryverylongwordwithoutanyspaces".repeat(2);

/** How far the page scrolls sideways (0 when nothing overflows). */
async function sideways(page: Page): Promise<number> {
  return await page.evaluate(() => document.documentElement.scrollWidth - globalThis.innerWidth);
}

browserTest(
  "on a phone, long words wrap on every page and the search box stays usable",
  async ({ t, srv, browser }) => {
    const ada = await member(t, "Ada");
    const qid = await ask(t, ada, { title: `Why ${LONG}?`, description: LONG, tags: ["x"] });
    const res = await postAs(t, ada, `/api/questions/${qid}/messages`, { content: LONG });
    assert.equal(res.status, 201);
    await res.body?.cancel();
    await createQuestion(t.kv, {
      title: "Second",
      author: { id: ada.id, name: ada.name, avatar: null },
      createdBy: "user",
    });
    const [cookieName, value] = ada.cookie.split("=");
    for (const colorScheme of ["light", "dark"] as const) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        colorScheme,
      });
      await context.addCookies([{ name: cookieName, value, url: srv.url }]);
      const page = await context.newPage();
      for (const path of ["/", `/questions/${qid}`, "/profile", `/u/${ada.id}`]) {
        await page.goto(`${srv.url}${path}`);
        assert.equal(await sideways(page), 0, `${path} (${colorScheme}) scrolls sideways`);
      }
      await page.goto(`${srv.url}/`);
      const box = await page.getByRole("searchbox", { name: "Search questions" }).boundingBox();
      assert.ok(box && box.width >= 200, `search box is ${box?.width}px wide`);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/phone-feed-${colorScheme}.png` });
      await context.close();
    }

    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${srv.url}/signin`);
    const bullets = await page.$eval(
      ".provider-buttons",
      (ul) => getComputedStyle(ul).listStyleType,
    );
    assert.equal(bullets, "none");
    assert.equal(await sideways(page), 0);
  },
);
