/**
 * Islands end to end in Chromium: the home page's island hydrates, matches its server
 * HTML, reacts to new questions, and a page without islands loads no script.
 */
import assert from "node:assert/strict";
import { createQuestion } from "@/lib/community/questions/write.ts";

import { browserTest, SCREENSHOT_DIR } from "../helpers/browser.ts";

browserTest(
  "the home page island hydrates, matches SSR, and reacts to a new question",
  async ({ t, srv, browser }) => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));

    const ssr = await (await fetch(`${srv.url}/?poll=250`)).text();
    const ssrIsland = /<parley-island[^>]*>(.*?)<\/parley-island>/.exec(ssr)?.[1];
    assert.ok(ssrIsland, "server rendered the island");

    await page.goto(`${srv.url}/?poll=250`);
    await page.waitForSelector('html[data-islands="ready"]');
    await page.waitForSelector('.new-questions[data-live="on"]');
    const hydrated = await page.$eval("parley-island", (el) => el.getAttribute("data-hydrated"));
    assert.equal(hydrated, "true");
    const afterHydration = await page.$eval("parley-island", (el) => el.innerHTML);
    assert.equal(afterHydration.replace(' data-live="on"', ' data-live="off"'), ssrIsland);

    // A question arrives from elsewhere: the island notices and offers to show it.
    await createQuestion(t.kv, {
      title: "Does hydration work end to end?",
      author: { id: "u1", name: "Tester", avatar: null },
      createdBy: "user",
    });
    const button = page.getByRole("button", { name: /1 new question/ });
    await button.waitFor();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/home-new-question.png`, fullPage: true });
    await button.focus();
    await Promise.all([page.waitForEvent("load"), page.keyboard.press("Enter")]);
    await page.getByTestId("feed").getByText("Does hydration work end to end?").waitFor();
    assert.deepEqual(errors, []);
  },
);

browserTest("a page without islands loads no script at all", async ({ srv, browser }) => {
  const page = await browser.newPage();
  const scripts: string[] = [];
  page.on("request", (r) => r.resourceType() === "script" && scripts.push(r.url()));
  const res = await page.goto(`${srv.url}/no-such-page`);
  assert.equal(res?.status(), 404);
  await page.getByRole("heading", { name: "Page not found" }).waitFor();
  assert.equal(await page.locator("script").count(), 0);
  assert.deepEqual(scripts, []);
  // Styles still load from the immutable build path.
  const bg = await page.$eval("body", (b) => getComputedStyle(b).backgroundColor);
  assert.notEqual(bg, "rgba(0, 0, 0, 0)");
  await page.screenshot({ path: `${SCREENSHOT_DIR}/not-found.png` });
});
