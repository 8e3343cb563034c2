/**
 * Icons in Chromium: every icon is a `<use>` of the build's one sprite, which loads once
 * and draws each symbol; a favorited star is filled through the `<use>` (the stylesheet's
 * `.icon-filled` on the `<svg>`, inherited by the symbol's shapes); and an icon an island
 * re-renders on the client (Follow → Following: bell-off → bell) points at the same sprite.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { signInAs } from "../helpers/app.ts";
import { answer, ask, member } from "../helpers/community.ts";
import { browserTest } from "../helpers/browser.ts";

/**
 * Each shown icon's `<use>` href, and whether the symbol it names drew (the `<use>` has a
 * box only once the sprite loaded and has the symbol). Icons the stylesheet hides (the
 * theme button of the other system scheme) draw nothing either way and are left out.
 */
function icons(page: Page) {
  return page.$$eval(
    "svg.lucide use",
    (uses) =>
      uses.filter((u) => u.closest("svg")!.getBoundingClientRect().width > 0).map((u) => {
        const box = (u as SVGUseElement).getBBox();
        return { href: u.getAttribute("href") ?? "", drawn: box.width > 0 && box.height > 0 };
      }),
  );
}

browserTest(
  "icons draw from one cached sprite, filled through <use>, and islands re-render the same URL",
  async ({ t, srv, browser }) => {
    const asker = await member(t, "Asker");
    const qid = await ask(t, asker, { title: "Do icons draw from the sprite?" });
    await answer(t, asker, qid, "They should, once.");

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { cookie } = await signInAs(t, "Viewer");
    const [name, value] = cookie.split("=");
    await context.addCookies([{ name, value, url: srv.url }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    const sprites: { url: string; status: number }[] = [];
    page.on("response", (r) => {
      if (r.url().includes("icons.svg")) sprites.push({ url: r.url(), status: r.status() });
    });

    await page.goto(`${srv.url}/questions/${qid}`);
    await page.waitForSelector('html[data-islands="ready"]');
    await page.waitForFunction(() =>
      [...document.querySelectorAll("svg.lucide use")].every((u) =>
        u.closest("svg")!.getBoundingClientRect().width === 0 ||
        (u as SVGUseElement).getBBox().width > 0
      )
    );
    const served = await icons(page);
    assert.ok(served.length >= 8, "the page has icons");
    const spriteUrl = served[0].href.split("#")[0];
    assert.match(spriteUrl, /^\/_parley\/[A-Za-z0-9_-]+\/s\/icons\.svg$/);
    for (const i of served) {
      assert.equal(i.href.split("#")[0], spriteUrl, i.href);
      assert.ok(i.drawn, `${i.href} draws`);
    }
    assert.deepEqual(sprites, [{ url: `${srv.url}${spriteUrl}`, status: 200 }], "loaded once");

    // `.icon-filled` fills the shapes through the <use>: the same star, in the same
    // button, draws differently with the class than without it.
    const star = page.locator("svg.lucide-star").first();
    assert.equal(await star.evaluate((s) => getComputedStyle(s).fill), "none");
    const outline = await star.screenshot();
    await star.evaluate((s) => s.classList.add("icon-filled"));
    const solid = await star.screenshot();
    await star.evaluate((s) => s.classList.remove("icon-filled"));
    assert.notDeepEqual(new Uint8Array(solid), new Uint8Array(outline), "the class fills the star");

    // Favorite: the island fills its star, in the text's colour.
    await page.getByRole("button", { name: /^Favorite / }).first().click();
    await page.waitForSelector("svg.lucide-star.icon-filled");
    const filled = page.locator("svg.lucide-star.icon-filled").first();
    const fill = await filled.evaluate((s) => getComputedStyle(s).fill);
    const color = await filled.evaluate((s) => getComputedStyle(s).color);
    assert.equal(fill, color, "filled in the text's colour");

    // Follow: the island swaps bell-off for bell on the client, from the same sprite.
    const follow = page.getByTestId("follow-toggle");
    assert.equal(await follow.locator("use").getAttribute("href"), `${spriteUrl}#bell-off`);
    await follow.click();
    await page.waitForSelector('[data-testid="follow-toggle"][aria-pressed="true"]');
    const bell = follow.locator("svg.lucide-bell use");
    assert.equal(await bell.getAttribute("href"), `${spriteUrl}#bell`);
    await page.waitForFunction(() =>
      (document.querySelector('[data-testid="follow-toggle"] use') as SVGUseElement)
        .getBBox().width > 0
    );

    assert.ok(sprites.every((s) => s.status === 200), JSON.stringify(sprites));
    assert.equal(new Set(sprites.map((s) => s.url)).size, 1, "one sprite URL");
    assert.deepEqual(errors, []);
    await context.close();
  },
);
