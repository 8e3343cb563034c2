/**
 * The AI expert panel in Chromium, against the fake OpenAI-compatible model: a question
 * posted on /ask (its idea picked from "Ideas") is discussed live on its page — the
 * typing indicator, then messages labelled "AI expert · <title>", without a reload — and
 * "Draft with AI" fills the answer box; edited lightly and posted, it says "drafted with
 * AI"; rewritten, it does not.
 */
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { signInAs, type TestApp, waitForJobs } from "../helpers/app.ts";
import { browserTest, SCREENSHOT_DIR } from "../helpers/browser.ts";
import { type FakeCall, startFakeLlm } from "../helpers/fake_llm.ts";

const DRAFT = "Proof it at room temperature until it has grown by half, then bake it hot.";

/** Expert messages are held back a little, so the typing indicator can be seen. */
function reply(call: FakeCall) {
  const all = call.messages.map((m) => m.content).join("\n");
  if (all.includes("Pick the 3 experts")) return { text: '{"experts":["mei","omar","ada"]}' };
  if (all.includes('{"ideas"')) {
    const batch = /Batch (\d+)/.exec(all)?.[1] ?? "0";
    return {
      text: JSON.stringify({
        ideas: [1, 2, 3].map((i) => ({
          title: `How long should sourdough proof, take ${batch}.${i}?`,
          description: `Idea ${i} of batch ${batch}.`,
          tags: ["Sourdough", "baking"],
        })),
      }),
    };
  }
  if (all.includes("You help a person write a forum answer")) return { text: DRAFT };
  const who = /You are ([^,]+),/.exec(all)?.[1] ?? "Helper";
  return {
    text: `${who} here: measure the dough's rise rather than the clock; it tells you more.`,
    delayMs: 600,
  };
}

// The fake model listens before the app is made (its address goes in the app's env).
const llm = startFakeLlm(reply);

async function signedInPage(browser: Browser, t: TestApp, url: string, name: string) {
  const { cookie } = await signInAs(t, name);
  const [cookieName, value] = cookie.split("=");
  const context = await browser.newContext();
  await context.addCookies([{ name: cookieName, value, url }]);
  return await context.newPage();
}

browserTest(
  "a question posted on /ask (from an idea) gets the panel live on its page; an AI draft, edited lightly and posted, says “drafted with AI”",
  async ({ t, srv, browser }) => {
    try {
      const page = await signedInPage(browser, t, srv.url, "Ada");
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));

      // Ideas: a keyword → 3 ideas, another batch, pick one → the form is filled.
      await page.goto(`${srv.url}/ask`);
      await page.waitForSelector('html[data-islands="ready"]');
      assert.equal(await page.locator('input[name="panel"]').isChecked(), true);
      await page.getByLabel("Need an idea?").fill("sourdough");
      await page.getByRole("button", { name: "Ideas", exact: true }).click();
      await page.getByTestId("idea").first().waitFor();
      assert.equal(await page.getByTestId("idea").count(), 3);
      await page.getByRole("button", { name: "More ideas" }).click();
      await page.getByText("take 1.2?").waitFor();
      await page.getByText("take 1.2?").click();
      assert.equal(
        await page.locator("#title").inputValue(),
        "How long should sourdough proof, take 1.2?",
      );
      assert.equal(await page.locator("#tags").inputValue(), "sourdough, baking");
      await page.screenshot({ path: `${SCREENSHOT_DIR}/panel-ask-ideas.png`, fullPage: true });

      // Post: the page opens, then the panel writes into it without a reload.
      await page.getByRole("button", { name: "Post question" }).click();
      await page.waitForURL(/\/questions\/[^/?]+\?asked=1/);
      await page.waitForSelector('html[data-islands="ready"]');
      await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 1));
      // The panel has its own labelled, collapsible section; the answers do not claim
      // nobody is coming while it prepares.
      const section = page.getByTestId("panel-section");
      assert.equal(await section.locator("summary").innerText(), "AI expert panel");
      assert.equal(await section.getAttribute("open"), "");
      const empty = await page.getByTestId("answers-empty").innerText();
      assert.doesNotMatch(empty, /Be the first/);
      assert.match(empty, /panel is preparing/);
      await section.getByTestId("expert-typing").waitFor({ timeout: 10_000 });
      assert.match(await page.getByTestId("expert-typing").innerText(), /AI expert · .+is writing/);
      const live = page.getByTestId("live-expert-message");
      await live.first().waitFor({ timeout: 10_000 });
      await page.screenshot({ path: `${SCREENSHOT_DIR}/panel-live.png`, fullPage: true });
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid="live-expert-message"]').length >= 2,
        undefined,
        { timeout: 15_000 },
      );
      assert.equal(await section.getByTestId("live-expert-message").count(), await live.count());
      // What the panel drew live is on screen: the pill offers none of it.
      await page.getByTestId("new-answers").waitFor({ state: "hidden" });
      const labels = await live.getByTestId("badge-expert").allInnerTexts();
      for (const l of labels) assert.match(l, /^AI expert · \S/);
      assert.match(await live.first().innerText(), /measure the dough's rise/);
      assert.equal(
        await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker),
        1,
        "no reload",
      );

      // Draft with AI → the box is filled; a light edit keeps the label.
      const box = page.getByLabel("Your answer");
      await page.getByRole("button", { name: "Draft with AI" }).first().click();
      await page.waitForFunction(
        (d) =>
          (document.querySelector("textarea[name=content]") as HTMLTextAreaElement)?.value === d,
        DRAFT,
      );
      await box.press("End");
      await box.pressSequentially(" Trust the poke test.");
      await page.getByRole("button", { name: "Post answer" }).click();
      await page.waitForURL(/posted=/);
      const mine = page.locator(".message-card", { hasText: "Trust the poke test." });
      await mine.waitFor();
      await mine.getByTestId("badge-drafted").waitFor();
      assert.equal(await mine.getByTestId("badge-drafted").innerText(), "drafted with AI");
      await page.screenshot({ path: `${SCREENSHOT_DIR}/panel-drafted.png`, fullPage: true });
      assert.deepEqual(errors, []);
    } finally {
      await waitForJobs(15_000, "panel"); // the panel's last round, before its model goes
      await llm.close();
    }
  },
  { env: { ...llm.env, EXPERT_PANEL_PER_DAY: "50" } },
);
