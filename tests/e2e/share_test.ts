/**
 * Share / copy link and #hashtags in Chromium: without the Web Share API the Share button
 * copies the absolute link (the question's, or an answer's with its `#id`) and says "Link
 * copied" politely; it works from the keyboard; a #hashtag in the text opens the tag feed.
 */
import assert from "node:assert/strict";
import { browserTest } from "../helpers/browser.ts";
import { answer, member, postAs } from "../helpers/community.ts";

browserTest(
  "Share copies the question's and an answer's link when navigator.share is absent; a #hashtag opens its tag feed",
  async ({ t, srv, browser }) => {
    const ada = await member(t, "Ada");
    const bob = await member(t, "Bob");
    const res = await postAs(t, ada, "/api/questions", {
      title: "How long should sourdough proof?",
      description: "Mine never rises. #Sourdough baking, not `#code`.",
      tags: ["sourdough"],
      panel: false,
    });
    const { id } = (await res.json()) as { id: string };
    const answerId = await answer(t, bob, id, "Watch the dough, not the clock.");

    const context = await browser.newContext({
      permissions: ["clipboard-read", "clipboard-write"],
    });
    // The fallback path: as on a desktop browser without the Web Share API.
    await context.addInitScript(() => {
      delete (Navigator.prototype as { share?: unknown }).share;
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${srv.url}/questions/${id}`);
    await page.waitForSelector('html[data-islands="ready"]');

    const question = page.getByTestId("question");
    await question.getByRole("button", { name: "Share this question" }).click();
    await question.getByRole("status").filter({ hasText: "Link copied" }).waitFor();
    assert.equal(
      await page.evaluate(() => navigator.clipboard.readText()),
      `${srv.url}/questions/${id}`,
    );

    // An answer's Share, from the keyboard: its link ends with the answer's anchor.
    const share = page.locator(`[id="${answerId}"]`).getByRole("button", { name: /^Share / });
    await share.focus();
    await page.keyboard.press("Enter");
    await page.locator(`[id="${answerId}"]`).getByRole("status").filter({
      hasText: "Link copied",
    }).waitFor();
    assert.equal(
      await page.evaluate(() => navigator.clipboard.readText()),
      `${srv.url}/questions/${id}#${answerId}`,
    );

    // The hashtag is a link; the one in code is not.
    assert.equal(await page.locator("code a.hashtag").count(), 0);
    await page.locator("a.hashtag", { hasText: "#Sourdough" }).click();
    await page.waitForURL(`${srv.url}/?tag=sourdough`);
    await page.getByRole("heading", { name: "Questions tagged “sourdough”" }).waitFor();
    await page.getByRole("link", { name: "How long should sourdough proof?" }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  },
);
