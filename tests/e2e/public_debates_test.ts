/**
 * /debates in Chromium: a running public debate is listed; opening it follows it live to
 * its end without a reload; both pages are axe clean at 1280 and 390 px.
 */
import assert from "node:assert/strict";
import { createTestApp, serveOnLoopback, signInAs } from "../helpers/app.ts";
import { axeViolations } from "../helpers/axe.ts";
import { launchBrowser, SCREENSHOT_DIR } from "../helpers/browser.ts";
import { startHeldDebateLlm } from "../helpers/fake_llm.ts";

Deno.test({
  name: "/debates lists a running public debate; its permalink follows it to done without a reload",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    // The model holds its third turn until the reader has the permalink open, so the
    // debate is certainly still running when it is opened.
    const llm = startHeldDebateLlm(2);
    const release = llm.release;
    const t = await createTestApp({ env: llm.env });
    const srv = serveOnLoopback(t.app.fetch);
    const browser = await launchBrowser();
    try {
      const ada = await signInAs(t, "Ada");
      const grace = await signInAs(t, "Grace");
      const origin = t.services.config.appOrigin;
      const start = await fetch(`${srv.url}/api/debate`, {
        method: "POST",
        headers: { cookie: ada.cookie, origin, "content-type": "application/json" },
        body: JSON.stringify({
          topic: "Should libraries lend tools?",
          userProfile: { name: "Ada's agent" },
        }),
      });
      assert.equal(start.status, 200);
      // The debate runs on the server whoever reads its stream: read its id, then let go.
      const reader = start.body!.pipeThrough(new TextDecoderStream()).getReader();
      let head = "";
      while (!head.includes("\n\n")) head += (await reader.read()).value ?? "";
      await reader.cancel();
      const id = head.match(/"id":"(debate_[^"]+)"/)![1];

      for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
        // bypassCSP: axe-core is injected as an inline script.
        const context = await browser.newContext({ viewport, bypassCSP: true });
        const [name, value] = grace.cookie.split("=");
        await context.addCookies([{ name, value, url: srv.url }]);
        const page = await context.newPage();
        await page.goto(`${srv.url}/debates`);
        const item = page.locator('[data-testid="public-debate"]', {
          hasText: "Should libraries lend tools?",
        });
        await item.waitFor();
        assert.match(await item.innerText(), /live/);
        assert.deepEqual(await axeViolations(page), [], `/debates axe at ${viewport.width}`);
        await page.screenshot({
          path: `${SCREENSHOT_DIR}/public-debates-${viewport.width}.png`,
          fullPage: true,
        });
        const overflow = await page.evaluate(() =>
          document.documentElement.scrollWidth - document.documentElement.clientWidth
        );
        assert.ok(overflow <= 0, `no sideways scroll at ${viewport.width} (${overflow}px)`);
        if (viewport.width !== 1280) {
          await context.close();
          continue;
        }

        // Keyboard: the debate's link is reachable and opens the permalink.
        await item.getByRole("link").focus();
        await Promise.all([page.waitForURL(`**/debates/${id}`), page.keyboard.press("Enter")]);
        await page.waitForSelector('html[data-islands="ready"]');
        const follow = page.locator('[data-testid="debate-follow"]');
        assert.notEqual(await follow.getAttribute("data-phase"), "done");
        // A marker a reload would wipe.
        await page.evaluate(() => (window as unknown as { kept: boolean }).kept = true);
        release();
        await page.locator('[data-testid="debate-follow"][data-phase="done"]').waitFor({
          timeout: 60_000,
        });
        assert.equal(
          await page.evaluate(() => (window as unknown as { kept?: boolean }).kept),
          true,
          "followed without a reload",
        );
        await page.locator('[data-testid="synthesis-winner"]').waitFor();
        const saved = await t.request(`/api/debates/${id}`);
        const debate = await saved.json();
        assert.equal(debate.status, "completed");
        assert.equal(
          await page.locator('[data-testid="debate-turn"]').count(),
          debate.messages.length,
          "every saved turn shown once",
        );
        for (const [i, m] of debate.messages.entries()) {
          assert.equal(
            (await page.locator('[data-testid="debate-turn"] p').nth(i).innerText()).trim(),
            m.content.trim(),
          );
        }
        assert.deepEqual(await axeViolations(page), [], "permalink axe");
        await page.screenshot({
          path: `${SCREENSHOT_DIR}/public-debate-followed-1280.png`,
          fullPage: true,
        });
        await context.close();
      }
      // The member who opened it counts as a watcher.
      const watched = await (await t.request("/debates?sort=watched", {
        headers: { cookie: ada.cookie },
      })).text();
      assert.match(watched, /Watched by 1 member</);
    } finally {
      release();
      await browser.close();
      await srv.close();
      await t.close();
      await llm.close();
    }
  },
});
