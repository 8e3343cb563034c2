/**
 * The AI expert panel in Chromium, against the fake OpenAI-compatible model: a question
 * posted on /ask (its idea picked from "Ideas") is discussed live on its page — the
 * typing indicator, then messages labelled "AI expert · <title>", without a reload — and
 * "Draft with AI" fills the answer box; edited lightly and posted, it says "drafted with
 * AI"; rewritten, it does not. Live expert cards carry what server-drawn ones do (avatar,
 * time, votes, favorite, reply, share, flag), and "Invite an expert" offers only experts not
 * yet in the thread.
 */
import assert from "node:assert/strict";
import type { Browser, Locator } from "playwright-core";
import { EXPERTS } from "@/lib/panel/experts.ts";
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

/** The experts the fake model picks for the panel, by name (lib/panel/experts.ts). */
const PANELISTS = EXPERTS.filter((e) => ["mei", "omar", "ada"].includes(e.id)).map((e) => e.name);

/** What a message card shows, by part, to compare a live card with a server-drawn one. */
const EXPECTED_PARTS = [
  "avatar",
  "time",
  "expert badge",
  "upvote",
  "downvote",
  "favorite",
  "reply",
  "share",
  "flag",
];

async function cardParts(card: Locator): Promise<string[]> {
  const has = async (locator: Locator) => (await locator.count()) > 0;
  const parts: [string, Locator][] = [
    ["avatar", card.locator(".avatar")],
    ["time", card.locator("time[datetime]")],
    ["expert badge", card.getByTestId("badge-expert")],
    ["upvote", card.getByRole("button", { name: /^Upvote/ })],
    ["downvote", card.getByRole("button", { name: /^Downvote/ })],
    ["favorite", card.getByRole("button", { name: /favorite/i })],
    ["reply", card.getByRole("button", { name: /^Reply/ })],
    ["share", card.getByRole("button", { name: /^Share/ })],
    ["flag", card.getByRole("button", { name: /^Flag/ })],
  ];
  const present: string[] = [];
  for (const [name, locator] of parts) if (await has(locator.first())) present.push(name);
  return present;
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
      // A live card has what a server-drawn one has: avatar, time, and the post's actions.
      const liveParts = await cardParts(live.first());
      assert.deepEqual(liveParts, EXPECTED_PARTS, "a live expert card");
      await live.first().getByRole("button", { name: /^Upvote/ }).waitFor();
      assert.equal(
        await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker),
        1,
        "no reload",
      );
      // "Invite an expert" offers only experts not in the thread: the three panelists (one
      // still to write, perhaps) are not in the list, live or after a reload.
      const offered = async () =>
        (await page.locator("#invite-expert option").allInnerTexts()).filter((o) =>
          o !== "Choose…"
        );
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid="live-expert-message"]').length >= 3,
        undefined,
        { timeout: 15_000 },
      );
      for (const name of PANELISTS) {
        assert.ok(!(await offered()).some((o) => o.startsWith(name)), `${name} is offered`);
      }
      assert.ok((await offered()).length > 0, "other experts are offered");

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
      await Promise.all([
        page.waitForURL(/posted=/),
        page.getByRole("button", { name: "Post answer" }).click(),
      ]);
      const mine = page.locator(".message-card", { hasText: "Trust the poke test." });
      await mine.waitFor();
      await mine.getByTestId("badge-drafted").waitFor();
      assert.equal(await mine.getByTestId("badge-drafted").innerText(), "drafted with AI");
      // The reloaded page draws the panel's messages on the server: the same parts as live.
      const served = page.getByTestId("panel-section").getByTestId("message").first();
      assert.deepEqual(await cardParts(served), EXPECTED_PARTS, "a server-drawn expert card");
      for (const name of PANELISTS) {
        assert.ok(!(await offered()).some((o) => o.startsWith(name)), `${name} is offered`);
      }
      // Inviting one more takes them off the list at once.
      const next = (await offered())[0];
      await page.locator("#invite-expert").selectOption({ label: next });
      await page.getByRole("button", { name: "Invite", exact: true }).click();
      await page.getByText("was invited and will answer here").waitFor();
      assert.ok(!(await offered()).includes(next), "the invited expert leaves the list");
      await page.screenshot({ path: `${SCREENSHOT_DIR}/panel-drafted.png`, fullPage: true });
      assert.deepEqual(errors, []);
    } finally {
      await waitForJobs(15_000, "panel"); // the panel's last round, before its model goes
      await llm.close();
    }
  },
  { env: { ...llm.env, EXPERT_PANEL_PER_DAY: "50" } },
);
