/**
 * The live debate in Chromium, in local mode with the offline stand-in model: turns
 * appear one by one as they are written, then the judge's report; the saved debate
 * re-reads at /debates/:id; sign-in and rate-limit errors are shown plainly.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { getAgentMemory } from "@/lib/debates/store.ts";
import { keys } from "@/lib/kv/keys.ts";
import { signInAs, type TestApp } from "../helpers/app.ts";
import { browserTest, SCREENSHOT_DIR } from "../helpers/browser.ts";

async function signedInPage(browser: Browser, t: TestApp, url: string, name: string) {
  const { user, cookie } = await signInAs(t, name);
  const [cookieName, value] = cookie.split("=");
  const context = await browser.newContext();
  await context.addCookies([{ name: cookieName, value, url }]);
  const page = await context.newPage();
  return { user, page };
}

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  return errors;
}

browserTest(
  "a local-mode debate shows each turn as it is written, then the report, then re-reads",
  async ({ t, srv, browser }) => {
    assert.equal(t.services.llm?.standIn, true, "local mode uses the stand-in model");
    const { user, page } = await signedInPage(browser, t, srv.url, "Ada");
    const errors = collectErrors(page);
    await page.goto(`${srv.url}/debate`);
    await page.waitForSelector('html[data-islands="ready"]');

    // The agent profile comes from the user's profile; traits are editable.
    await page.getByRole("heading", { name: "Ada", exact: true }).waitFor();
    await page.getByLabel(/^Traits/).fill("stubborn");
    await page.getByLabel(/^Traits/).press("Enter");
    await page.getByLabel(/^Interests/).fill("bicycles");
    await page.getByRole("button", { name: "Add" }).nth(1).click();
    await page.getByRole("button", { name: "Remove bicycles" }).waitFor();

    await page.getByLabel("Topic").fill("Should cities ban cars downtown?");
    // Record how the transcript grows: the number of turns each time it changes,
    // and whether the report was present at that moment.
    await page.evaluate(() => {
      const w = window as unknown as { growth: string[] };
      w.growth = [];
      new MutationObserver(() => {
        const n = document.querySelectorAll('[data-testid="debate-turn"]').length;
        const report = document.querySelector('[data-testid="synthesis"]') ? "R" : "";
        const last = w.growth.at(-1);
        if (last !== `${n}${report}`) w.growth.push(`${n}${report}`);
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByRole("button", { name: "Start the debate" }).click();

    // The first turn appears while it is still being typed, before the second exists.
    await page.locator('[data-testid="debate-turn"][data-typing="true"]').first().waitFor();
    assert.equal(await page.locator('[data-testid="synthesis"]').count(), 0);
    await page.getByTestId("standin-note").waitFor();
    await page.getByTestId("debate-versus").getByText("Ada").waitFor();
    // Ada's first debate, while it runs: listed in "Your debates" as live, and the empty
    // state ("will be listed here") is gone.
    const mine = page.getByTestId("debate-history").locator("li")
      .filter({ hasText: "Should cities ban cars downtown?" });
    await mine.locator(".debate-status").getByText("live", { exact: true }).waitFor();
    assert.equal(await page.getByTestId("debate-history-empty").count(), 0);
    assert.equal(await page.getByTestId("synthesis").count(), 0, "checked while it ran");
    await page.screenshot({
      path: `${SCREENSHOT_DIR}/debate-history-running.png`,
      fullPage: true,
    });

    await page.getByTestId("synthesis").waitFor({ timeout: 60_000 });
    const growth = await page.evaluate(() => (window as unknown as { growth: string[] }).growth);
    const counts = growth.filter((g) => !g.endsWith("R")).map(Number);
    assert.deepEqual(
      [...new Set(counts)].filter((n) => n > 0),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      `turns appeared one at a time: ${growth.join(",")}`,
    );
    assert.ok(growth.includes("10R"), "the report came after the tenth turn");

    const turns = page.getByTestId("debate-turn");
    assert.equal(await turns.count(), 10);
    assert.equal(await page.locator('[data-typing="true"]').count(), 0);
    const roles = await turns.evaluateAll((els) => els.map((e) => e.getAttribute("data-role")));
    assert.deepEqual(roles, Array.from({ length: 10 }, (_, i) => i % 2 ? "opponent" : "user"));
    for (const text of await page.locator(".debate-bubble p").allInnerTexts()) {
      assert.ok(text.length >= 100 && text.length <= 200, `${text.length}: ${text}`);
    }
    const report = page.getByTestId("synthesis");
    for (
      const h of ["Conclusion", "Where they agreed", "Where they disagreed", "Recommendations"]
    ) {
      await report.getByRole("heading", { name: h }).waitFor();
    }
    assert.match(await page.getByTestId("synthesis-winner").innerText(), /wins|tie/i);
    await page.getByTestId("debate-saved").waitFor();
    await page.getByTestId("debate-history").getByText("Should cities ban cars downtown?")
      .waitFor();
    await mine.locator(".debate-status").getByText("finished", { exact: true }).waitFor();
    assert.equal(await page.getByTestId("debate-history").locator("li").count(), 1);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/debate-live.png`, fullPage: true });

    const memory = await getAgentMemory(t.kv, user.id);
    assert.deepEqual(memory?.traits, ["stubborn"]);
    assert.deepEqual(memory?.interests, ["bicycles"]);

    // The permanent link re-reads the saved debate, server-rendered.
    await Promise.all([
      page.waitForURL(/\/debates\/debate_\d+_[a-z0-9]+$/),
      page.getByRole("link", { name: "Permanent link" }).click(),
    ]);
    await page.getByTestId("debate-topic").getByText("Should cities ban cars downtown?")
      .waitFor();
    assert.equal(await page.getByTestId("debate-turn").count(), 10);
    await page.getByTestId("synthesis").waitFor();
    await page.getByTestId("standin-note").waitFor();
    // The same word for its status here as in the list.
    assert.equal(await page.locator(".page-head .debate-status").innerText(), "finished");
    await page.screenshot({ path: `${SCREENSHOT_DIR}/debate-saved.png`, fullPage: true });
    assert.deepEqual(errors, []);
  },
);

browserTest(
  "signed out, /debate says sign-in is needed before any form and links to public debates; the wait when rate-limited",
  async ({ t, srv, browser }) => {
    const anon = await browser.newPage();
    await anon.goto(`${srv.url}/debate`);
    const hint = anon.getByTestId("debate-signin-hint");
    await hint.getByRole("heading", { name: "Sign in to start a debate" }).waitFor();
    assert.equal(
      await hint.getByRole("link", { name: "Sign in to debate" }).getAttribute("href"),
      "/signin?returnTo=%2Fdebate",
    );
    assert.equal(await anon.getByLabel("Topic").count(), 0, "no form to fill in vain");
    await hint.getByRole("link", { name: "Watch public debates" }).click();
    await anon.waitForURL(`${srv.url}/debates`);

    const { user, page } = await signedInPage(browser, t, srv.url, "Grace");
    // This minute's budget is already spent (eight hits in the sliding-window log). The
    // hits are 20 s old, so the wait is 39–40 s however fast the page loads: hits made
    // "now" would leave a wait of 60 s when the click comes within a second, which the
    // island (like every limit message) words as "1 minute", not in seconds.
    const hitAt = Date.now() - 20_000;
    await t.kv.set(keys.rateLimitLog("debate", `${user.id}:127.0.0.1`), {
      times: Array.from({ length: 8 }, () => hitAt),
    });
    await page.goto(`${srv.url}/debate`);
    await page.waitForSelector('html[data-islands="ready"]');
    await page.getByLabel("Topic").fill("Is tea better than coffee?");
    await page.getByRole("button", { name: "Start the debate" }).click();
    const wait = page.getByTestId("debate-error").getByText(
      /too many debates.*Try again in \d+ seconds?/,
    );
    await wait.waitFor();
    // The wait is the server's retryAfter for this log: at most 40 s.
    const seconds = Number((await wait.innerText()).match(/Try again in (\d+) second/)![1]);
    assert.ok(seconds >= 1 && seconds <= 40, `wait of ${seconds} s`);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/debate-rate-limited.png` });
  },
);
