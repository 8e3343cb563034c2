/**
 * A roundtable watched live in Chromium at 1280×800 and 390×844: started from
 * /roundtables with three chosen experts, followed on its own page, the host interjects
 * to one expert who answers in the next turn, the page survives a reload mid-way, and the
 * minutes show each expert's position — axe finds nothing at either size. Signed out,
 * /roundtables says hosting needs signing in.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { createTestApp, serveOnLoopback, signInAs, type TestApp } from "../helpers/app.ts";
import { axeViolations } from "../helpers/axe.ts";
import { launchBrowser, SCREENSHOT_DIR } from "../helpers/browser.ts";
import { startFakeLlm } from "../helpers/fake_llm.ts";
import { roundtableReply } from "../helpers/roundtable_llm.ts";

async function signedInPage(
  browser: Browser,
  t: TestApp,
  url: string,
  viewport: { width: number; height: number },
): Promise<Page> {
  const { cookie } = await signInAs(t, "Hosting Hana");
  const [name, value] = cookie.split("=");
  // bypassCSP: axe-core is injected as an inline script.
  const context = await browser.newContext({ viewport, bypassCSP: true });
  await context.addCookies([{ name, value, url }]);
  return await context.newPage();
}

async function noSideways(page: Page, where: string) {
  const wide = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth + 1);
  assert.ok(!wide, `${where}: nothing sideways`);
}

Deno.test({
  name:
    "a roundtable is started, watched live with a directed interjection answered next, survives a reload, and shows the minutes side by side — axe 0 at 1280 and 390",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const llm = startFakeLlm(roundtableReply(30));
    const t = await createTestApp({ env: llm.env });
    const srv = serveOnLoopback(t.app.fetch);
    const browser = await launchBrowser();
    try {
      for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
        const size = `${viewport.width}`;
        const page = await signedInPage(browser, t, srv.url, viewport);
        await page.goto(`${srv.url}/roundtables`);
        await page.waitForSelector('html[data-islands="ready"]');
        assert.deepEqual(await axeViolations(page), [], `/roundtables at ${size}`);
        await page.getByLabel("Topic", { exact: true }).fill(
          `Should cities charge cars to enter? ${size}`,
        );
        await page.getByLabel("Discussion rounds after the opening").selectOption("2");
        await page.getByLabel("Choose them myself").check();
        for (const name of ["Ada Lindqvist", "Omar Haddad", "Mei Tanaka"]) {
          await page.getByRole("checkbox", { name: new RegExp(name) }).check();
        }
        assert.deepEqual(await axeViolations(page), [], `/roundtables form open at ${size}`);
        await page.getByRole("button", { name: "Start the roundtable" }).click();
        await page.waitForURL(/\/roundtables\/rt_/);
        await page.waitForSelector('html[data-islands="ready"]');
        await page.getByTestId("roundtable-statement").first().waitFor({ timeout: 30_000 });
        // Every statement says it is an AI expert's.
        assert.match(
          await page.getByTestId("roundtable-statement").first().innerText(),
          /AI expert · Software architect/,
        );
        await page.getByLabel("Your question or remark").fill("What does it cost a night nurse?");
        await page.getByLabel("Who should answer").selectOption({ label: "Mei Tanaka" });
        await page.getByRole("button", { name: "Interject" }).click();
        await page.getByTestId("interject-note").waitFor();
        assert.match(
          await page.getByTestId("interject-note").innerText(),
          /Mei Tanaka will answer/,
        );
        await page.getByTestId("roundtable-host").waitFor({ timeout: 30_000 });
        const answer = page.locator('[data-testid="roundtable-statement"][data-reply-to="h1"]');
        await answer.waitFor({ timeout: 30_000 });
        assert.equal(await answer.getAttribute("data-expert"), "mei");
        assert.match(await answer.innerText(), /answering the host/);
        assert.match(await answer.innerText(), /answers the host about: What does it cost/);
        // The host's words come right before the answer.
        const order = await page.locator(
          '[data-testid="roundtable-transcript"] > li:not([data-testid="roundtable-typing"])',
        ).evaluateAll((items) =>
          items.map((li) =>
            li.getAttribute("data-testid") + ":" + (li.getAttribute("data-reply-to") ?? "")
          )
        );
        const at = order.indexOf("roundtable-host:");
        assert.equal(order[at + 1], "roundtable-statement:h1", order.join(" "));
        assert.deepEqual(await axeViolations(page), [], `live roundtable at ${size}`);
        await noSideways(page, `live roundtable at ${size}`);
        await page.screenshot({ path: `${SCREENSHOT_DIR}/roundtable-live-${size}.png` });
        // A reload mid-way: the page rebuilds what was said and follows on.
        const before = await page.getByTestId("roundtable-statement").count();
        await page.reload();
        await page.waitForSelector('html[data-islands="ready"]');
        await page.getByTestId("roundtable-minutes").waitFor({ timeout: 60_000 });
        const after = await page.getByTestId("roundtable-statement").count();
        assert.ok(after >= before && after >= 9, `${before} → ${after} statements`);
        assert.equal(await page.getByTestId("roundtable-host").count(), 1, "the host's words once");
        assert.equal(await page.getByTestId("minutes-stance").count(), 3);
        // Side by side at 1280 (one row), stacked on a phone.
        const tops = await page.getByTestId("minutes-stance").evaluateAll((els) =>
          els.map((e) => Math.round(e.getBoundingClientRect().top))
        );
        if (viewport.width >= 1000) assert.equal(new Set(tops).size, 1, `one row: ${tops}`);
        assert.match(
          await page.getByTestId("roundtable-minutes").innerText(),
          /AI-written summary/,
        );
        assert.equal(await page.getByTestId("interject-form").count(), 0, "no form once it ended");
        assert.deepEqual(await axeViolations(page), [], `finished roundtable at ${size}`);
        await noSideways(page, `finished roundtable at ${size}`);
        await page.screenshot({
          path: `${SCREENSHOT_DIR}/roundtable-minutes-${size}.png`,
          fullPage: true,
        });
        await page.context().close();
      }
      // Signed out: no form, a sentence and a sign-in link; the public roundtables listed.
      const anon = await browser.newPage({
        viewport: { width: 390, height: 844 },
        bypassCSP: true,
      });
      await anon.goto(`${srv.url}/roundtables`);
      await anon.getByTestId("roundtable-signin-hint").waitFor();
      assert.equal(await anon.getByTestId("roundtable-form").count(), 0);
      assert.equal(await anon.locator('[data-testid="public-roundtables"] li').count(), 2);
      assert.deepEqual(await axeViolations(anon), [], "/roundtables signed out");
      await anon.screenshot({
        path: `${SCREENSHOT_DIR}/roundtables-signed-out-390.png`,
        fullPage: true,
      });
      await anon.close();
    } finally {
      await browser.close();
      await srv.close();
      await t.close();
      await llm.close();
    }
  },
});
