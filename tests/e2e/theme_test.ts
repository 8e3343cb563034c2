/** The colour scheme: system preference by default, the theme form's choice overrides it. */
import assert from "node:assert/strict";
import { browserTest, SCREENSHOT_DIR } from "../helpers/browser.ts";

browserTest(
  "light and dark follow the system until the theme button chooses, without script",
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

    // The theme button is a plain form: it works with JavaScript off.
    const context = await browser.newContext({ colorScheme: "light", javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${srv.url}/no-such-page`);
    await page.getByRole("button", { name: /Colour theme: Auto/ }).click();
    await page.getByRole("button", { name: /Colour theme: Light/ }).click();
    await page.getByRole("button", { name: /Colour theme: Dark/ }).waitFor();
    assert.equal(await page.$eval("html", (h) => h.dataset.theme), "dark");
    assert.equal(new URL(page.url()).pathname, "/no-such-page", "returned to the same page");
    await context.close();
  },
);
