/**
 * The finishing touches, in Chromium: a moderator's navigation stays one row on phones (the
 * Moderation link and its count included); the flag dialog fits a 320–390 px screen with a
 * long name in its heading; the "Need an idea?" card on /ask is exactly as wide as the form
 * under it, at 1280 and 390.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { flagPost } from "@/lib/moderation/moderation.ts";
import { answer, type Member, member } from "../helpers/community.ts";
import { browserTest, SCREENSHOT_DIR } from "../helpers/browser.ts";
import { seedThread } from "../helpers/look_seed.ts";

async function pageAs(browser: Browser, url: string, who: Member, width: number): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height: width >= 1000 ? 800 : 844 },
  });
  const [name, value] = who.cookie.split("=");
  await context.addCookies([{ name, value, url }]);
  return await context.newPage();
}

/** How far the page scrolls sideways (0 when nothing overflows). */
async function sideways(page: Page): Promise<number> {
  return await page.evaluate(() => document.documentElement.scrollWidth - globalThis.innerWidth);
}

browserTest(
  "a moderator's navigation is one row on phones, with the Moderation link and its count",
  async ({ t, srv, browser }) => {
    const mod = await member(t, "Grace Hopper");
    t.services.config.moderators = [mod.id];
    const qid = await seedThread(t, mod);
    // A flag still waiting: the Moderation link carries its count.
    const bob = await member(t, "Bob Stone");
    const spam = await answer(t, bob, qid, "Buy cheap watches at example.com");
    assert.ok(
      (await flagPost(t.kv, {
        userId: mod.id,
        targetType: "message",
        targetId: spam,
        reason: "spam",
        note: null,
      })).ok,
    );
    for (const width of [390, 360, 320]) {
      const page = await pageAs(browser, srv.url, mod, width);
      for (const path of ["/", "/mod", `/questions/${qid}`]) {
        await page.goto(`${srv.url}${path}`);
        await page.getByTestId("mod-waiting").waitFor();
        const nav = await page.evaluate(() => {
          const bar = document.querySelector(".site-header .nav")!;
          const links = [...bar.querySelectorAll("a")].map((a) => a.getBoundingClientRect());
          const box = bar.getBoundingClientRect();
          return {
            tops: [...new Set(links.map((r) => Math.round(r.top)))],
            height: box.height,
            linkHeight: Math.max(...links.map((r) => r.height)),
            right: box.right,
            lastRight: links[links.length - 1].right,
            labels: [...bar.querySelectorAll("a")].map((a) => a.textContent),
          };
        });
        assert.equal(nav.labels.length, 5, "Questions, Ask, Debate, API and Moderation");
        assert.equal(nav.tops.length, 1, `${path} at ${width}: the links sit on one row`);
        assert.ok(nav.height <= nav.linkHeight + 1, `${path} at ${width}: one row high`);
        if (width >= 360) {
          assert.ok(nav.lastRight <= nav.right + 0.5, `${path} at ${width}: Moderation is shown`);
        }
        assert.equal(await sideways(page), 0, `${path} at ${width} scrolls sideways`);
        if (width === 390 && path === "/mod") {
          await page.screenshot({ path: `${SCREENSHOT_DIR}/look-mod-nav-390.png` });
        }
      }
      await page.context().close();
    }
  },
);

browserTest(
  "the flag dialog fits a 320 and a 390 px screen, a long name in its heading included",
  async ({ t, srv, browser }) => {
    const mod = await member(t, "Grace Hopper");
    const qid = await seedThread(t, mod);
    const long = await member(t, "Maximiliana Wolkenstein-Rosenthal Brandt");
    await answer(t, long, qid, "Batches of a thousand keys keep each commit small.");
    for (const width of [390, 320]) {
      const page = await pageAs(browser, srv.url, mod, width);
      await page.goto(`${srv.url}/questions/${qid}`);
      await page.waitForSelector('html[data-islands="ready"]');
      await page.getByRole("button", { name: `Flag ${long.name}'s answer` }).click();
      const dialog = page.locator("dialog.flag-dialog[open]");
      await dialog.waitFor();
      const fit = await dialog.evaluate((d) => {
        const box = d.getBoundingClientRect();
        const inside = [...d.querySelectorAll("h2, label, input, textarea, button")]
          .map((el) => el.getBoundingClientRect())
          .filter((r) => r.width > 0)
          .every((r) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5);
        return {
          left: box.left,
          right: box.right,
          top: box.top,
          bottom: box.bottom,
          overflowX: d.scrollWidth - d.clientWidth,
          inside,
        };
      });
      assert.ok(fit.left >= 0 && fit.right <= width, `the dialog fits ${width} px: ${fit.left}`);
      assert.ok(fit.top >= 0 && fit.bottom <= 844, "and the screen's height");
      assert.equal(fit.overflowX, 0, "nothing inside scrolls sideways");
      assert.ok(fit.inside, "every control lies inside the dialog");
      for (const name of ["Send flag", "Cancel"]) {
        const button = await dialog.getByRole("button", { name }).boundingBox();
        assert.ok(button && button.x >= fit.left && button.x + button.width <= fit.right, name);
      }
      await page.screenshot({ path: `${SCREENSHOT_DIR}/look-flag-dialog-${width}.png` });
      await page.context().close();
    }
  },
);

browserTest(
  "the ideas card on /ask is as wide as the form under it, at 1280 and 390",
  async ({ t, srv, browser }) => {
    const ada = await member(t, "Ada Lovelace");
    for (const width of [1280, 390]) {
      const page = await pageAs(browser, srv.url, ada, width);
      await page.goto(`${srv.url}/ask`);
      await page.waitForSelector('html[data-islands="ready"]');
      const ideas = await page.getByTestId("ask-ideas").boundingBox();
      const form = await page.locator("form.ask-form").boundingBox();
      assert.ok(ideas && form);
      assert.equal(ideas.x, form.x, `same left edge at ${width}`);
      assert.equal(ideas.width, form.width, `same width at ${width}`);
      await page.context().close();
    }
  },
);
