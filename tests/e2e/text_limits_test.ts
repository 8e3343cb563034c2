/**
 * Text over a limit is never cut, in Chromium: a live counter appears near the limit and
 * says by how much a text is over; the answer form refuses an over-long answer in a
 * sentence without sending it, and posts once it is short enough; the ask form keeps an
 * over-long pasted title whole and the server refuses it in a sentence; the hints state
 * the real rules.
 */
import assert from "node:assert/strict";
import type { BrowserContext } from "playwright-core";
import { createQuestion } from "@/lib/community/questions/write.ts";
import { signInAs, type TestApp } from "../helpers/app.ts";
import { browserTest, SCREENSHOT_DIR } from "../helpers/browser.ts";

async function signedIn(t: TestApp, context: BrowserContext, url: string, name: string) {
  const { user, cookie } = await signInAs(t, name);
  const [cookieName, value] = cookie.split("=");
  await context.addCookies([{ name: cookieName, value, url }]);
  return user;
}

browserTest(
  "a live counter near the limit; over it the answer and ask forms refuse in a sentence and nothing is cut",
  async ({ t, srv, browser }) => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const ada = await signedIn(t, context, srv.url, "Ada");
    const q = await createQuestion(t.kv, {
      title: "How long may an answer be?",
      author: { id: ada.id, name: "Ada", avatar: null },
      createdBy: "user",
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().includes("/messages")) posts.push(r.url());
    });

    await page.goto(`${srv.url}/questions/${q.id}`);
    await page.waitForSelector('html[data-islands="ready"]');
    await page.getByText("Up to 10,000 characters.").waitFor();
    const box = page.getByLabel("Your answer");
    const counter = page.locator("#content-answer-count");
    // Far from the limit: no counter.
    await box.fill("A short answer.");
    assert.equal(await counter.count(), 0);
    // Pasted text over the limit is kept whole, and the counter says by how much.
    const long = "word ".repeat(2062) + "end"; // 10,313 characters, 10,313 after trimming
    await box.fill("");
    await box.focus();
    await page.keyboard.insertText(long);
    assert.equal((await box.inputValue()).length, long.length, "nothing was cut");
    await counter.getByText("10,313 of 10,000 characters: 313 too many").waitFor();
    // The marks follow the counter's render in an effect (after paint): wait for them.
    await page.waitForFunction(() => {
      const box = document.querySelector("[aria-describedby~='content-answer-count']");
      return box?.getAttribute("aria-invalid") === "true";
    });
    await page.screenshot({ path: `${SCREENSHOT_DIR}/answer-over-limit.png` });
    await page.getByRole("button", { name: "Post answer" }).click();
    await page.getByRole("alert").getByText(
      "Answers and replies can have at most 10,000 characters; this one has 10,313.",
    ).waitFor();
    assert.deepEqual(posts, [], "an over-long answer is not sent");
    assert.equal((await box.inputValue()).length, long.length, "and not cut");

    // Shortened under the limit: the counter stays while near it, and the answer posts.
    const shorter = `${long.slice(0, 9_949)}!`; // 9,950 characters
    await box.fill(shorter);
    await counter.getByText("9,950 of 10,000 characters").waitFor();
    await Promise.all([
      page.waitForURL(/posted=msg-/),
      page.getByRole("button", { name: "Post answer" }).click(),
    ]);
    const stored = await (await t.request(`/api/questions/${q.id}`)).json();
    assert.equal(stored.messages[0].content, shorter, "stored exactly as typed");

    // /ask: a pasted over-long title stays whole; the counter shows; the server refuses it.
    await page.goto(`${srv.url}/ask`);
    await page.waitForSelector('html[data-islands="ready"]');
    await page.getByText("(optional, Markdown, up to 10,000 characters)").waitFor();
    const title = page.getByLabel("Title");
    await title.focus();
    const longTitle = "Why does my sourdough starter smell of nail polish ".repeat(3).trim();
    await page.keyboard.insertText(longTitle);
    assert.equal((await title.inputValue()).length, longTitle.length, "the title was not cut");
    await page.locator("#title-count").getByText(
      `${longTitle.length} of 120 characters: ${longTitle.length - 120} too many`,
    ).waitFor();
    // The mark follows the counter's render in an effect (after paint): wait for it.
    await page.waitForFunction(() =>
      document.getElementById("title")?.getAttribute("aria-invalid") === "true"
    );
    await page.getByRole("button", { name: "Post question" }).click();
    await page.getByText(
      `Titles need 2 to 120 characters; this one has ${longTitle.length}.`,
    ).waitFor();
    assert.equal(await page.getByLabel("Title").inputValue(), longTitle, "kept for fixing");
    assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), []);
  },
);
