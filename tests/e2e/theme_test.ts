/** The colour scheme: system preference by default, the theme form's choice overrides it. */
import assert from "node:assert/strict";
import { browserTest, SCREENSHOT_DIR } from "../helpers/browser.ts";

browserTest(
  "the theme button names the scheme on screen and every click visibly flips it, without script",
  async ({ srv, browser }) => {
    const bg = async (scheme: "light" | "dark", cookie?: string) => {
      const context = await browser.newContext({ colorScheme: scheme, javaScriptEnabled: false });
      if (cookie) {
        await context.addCookies([{ name: "parley_theme", value: cookie, url: srv.url }]);
      }
      const page = await context.newPage();
      await page.goto(`${srv.url}/no-such-page`);
      const color = await page.$eval("body", (b) => getComputedStyle(b).backgroundColor);
      if (scheme === "dark" && !cookie) {
        await page.screenshot({ path: `${SCREENSHOT_DIR}/dark-mode.png` });
      }
      await context.close();
      return color;
    };
    const light = await bg("light");
    const dark = await bg("dark");
    assert.equal(light, "rgb(247, 247, 245)");
    assert.equal(dark, "rgb(20, 20, 19)");
    assert.equal(await bg("light", "dark"), dark, "the cookie forces dark");
    assert.equal(await bg("dark", "light"), light, "the cookie forces light");

    // The theme button is a plain form: it works with JavaScript off. It names the scheme
    // on screen, and every click flips it — on either system scheme.
    for (const system of ["light", "dark"] as const) {
      const other = system === "light" ? "dark" : "light";
      const context = await browser.newContext({ colorScheme: system, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${srv.url}/no-such-page`);
      const shown = () => page.$eval("body", (b) => getComputedStyle(b).backgroundColor);
      const label = (s: string) => new RegExp(`^Colour theme: ${s[0].toUpperCase()}${s.slice(1)}`);
      const button = page.getByRole("button", { name: /^Colour theme:/ });
      assert.equal(await button.count(), 1, "one visible theme button");
      assert.match(await button.getAttribute("aria-label") ?? "", label(system));
      assert.match(await button.getAttribute("aria-label") ?? "", /\(system\)/);
      assert.equal(await shown(), system === "light" ? light : dark);
      await button.click();
      await page.waitForURL(`${srv.url}/no-such-page`);
      assert.equal(await page.$eval("html", (h) => h.dataset.theme), other);
      assert.equal(await shown(), other === "light" ? light : dark, "the first click shows");
      assert.match(await button.getAttribute("aria-label") ?? "", label(other));
      await button.click();
      await page.waitForURL(`${srv.url}/no-such-page`);
      // Back on the system's scheme: the choice follows the system again.
      assert.equal(await page.$eval("html", (h) => h.dataset.theme), undefined);
      assert.equal(await shown(), system === "light" ? light : dark, "the second click shows");
      assert.equal(new URL(page.url()).pathname, "/no-such-page", "returned to the same page");
      await context.close();
    }
  },
);
