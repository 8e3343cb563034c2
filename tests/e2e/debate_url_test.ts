/**
 * A live debate has an address, in Chromium: starting one on /debate puts `/debates/:id` in
 * the address bar (in place of /debate, as a redirect would) while the page goes on
 * following the stream; Share copies that address; a reload mid-debate opens the debate's
 * own page, which follows it live to the end.
 */
import assert from "node:assert/strict";
import { createTestApp, serveOnLoopback, signInAs } from "../helpers/app.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { startHeldDebateLlm } from "../helpers/fake_llm.ts";

Deno.test({
  name:
    "starting a debate moves to /debates/:id, which Share copies and which survives a reload mid-debate",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    // The model holds the fourth turn until the test has reloaded, so the debate is
    // certainly running when the page reloads.
    const llm = startHeldDebateLlm(3);
    const release = llm.release;
    const t = await createTestApp({ env: llm.env });
    const srv = serveOnLoopback(t.app.fetch);
    const browser = await launchBrowser();
    try {
      const ada = await signInAs(t, "Ada");
      const context = await browser.newContext();
      const [name, value] = ada.cookie.split("=");
      await context.addCookies([{ name, value, url: srv.url }]);
      // What Share copies (navigator.share is absent in headless Chromium).
      await context.addInitScript(() => {
        const w = window as unknown as { copied: string[] };
        w.copied = [];
        Object.defineProperty(navigator, "clipboard", {
          value: { writeText: (text: string) => (w.copied.push(text), Promise.resolve()) },
        });
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));

      await page.goto(`${srv.url}/notifications`);
      await page.goto(`${srv.url}/debate`);
      await page.waitForSelector('html[data-islands="ready"]');
      await page.getByLabel("Topic").fill("Should libraries lend tools?");
      await page.getByRole("button", { name: "Start the debate" }).click();
      await page.waitForURL(/\/debates\/debate_[^/]+$/);
      const permalink = page.url();
      const id = decodeURIComponent(permalink.split("/").pop()!);
      assert.match(id, /^debate_\d+_/);
      // No reload happened: the same page follows the stream live.
      await page.locator('[data-testid="debate-turn"]').first().waitFor();
      assert.equal(await page.locator(".debate-live").count(), 1, "still the live page");
      assert.equal(await page.title(), "Should libraries lend tools? · Debate · Parley");

      // Share copies the debate's address (the archive is public by default).
      await page.getByTestId("debate-share").click();
      await page.getByText("Link copied.").waitFor();
      assert.deepEqual(
        await page.evaluate(() => (window as unknown as { copied: string[] }).copied),
        [permalink],
      );

      // A reload mid-debate opens the debate's own page, which follows it to the end.
      await page.reload();
      await page.getByTestId("debate-topic").getByText("Should libraries lend tools?").waitFor();
      await page.getByTestId("debate-following").waitFor();
      release();
      await page.getByTestId("debate-finished").waitFor({ timeout: 30_000 });
      await page.getByTestId("synthesis").waitFor();
      const turns = await page.locator('[data-testid="debate-turn"]').count();
      assert.equal(turns, 10, "every turn once");
      // Share on the debate's own page copies the same address.
      await page.waitForSelector('html[data-islands="ready"]');
      await page.getByRole("button", { name: "Share this debate" }).click();
      await page.getByText("Link copied").waitFor();
      assert.deepEqual(
        await page.evaluate(() => (window as unknown as { copied: string[] }).copied),
        [permalink],
      );

      // The debate's address took the place of /debate, as after a redirect: Back leaves
      // for the page before…
      await page.goBack();
      await page.waitForURL(`${srv.url}/notifications`);
      await page.getByRole("heading", { name: "Notifications" }).waitFor();
      // …and /debate, opened again, lists the debate in the history.
      await page.goto(`${srv.url}/debate`);
      await page.getByLabel("Topic").waitFor();
      assert.ok(
        await page.locator(`a[href="/debates/${encodeURIComponent(id)}"]`).count() >= 1,
        "the history links the debate",
      );
      assert.deepEqual(errors, []);
    } finally {
      release();
      await browser.close();
      await srv.close();
      await t.close();
      await llm.close();
    }
  },
});
