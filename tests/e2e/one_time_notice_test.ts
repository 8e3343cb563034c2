/**
 * One-time notices and fresh pages in Chromium: "Your question is live." shows once after
 * asking — the address loses `?asked=1`, so a reload does not bring it back — and never
 * above "This question was deleted"; signed-in pages send `Cache-Control: private,
 * no-store`, so Back after posting an answer shows the page with that answer.
 */
import assert from "node:assert/strict";
import type { BrowserContext } from "playwright-core";
import { signInAs, type TestApp } from "../helpers/app.ts";
import { browserTest } from "../helpers/browser.ts";

async function signedIn(t: TestApp, context: BrowserContext, url: string, name: string) {
  const { user, cookie } = await signInAs(t, name);
  const [cookieName, value] = cookie.split("=");
  await context.addCookies([{ name: cookieName, value, url }]);
  return { user, cookie };
}

browserTest(
  "'Your question is live.' shows once and never on a deleted question; Back after posting shows the new answer",
  async ({ t, srv, browser }) => {
    const context = await browser.newContext();
    const ada = await signedIn(t, context, srv.url, "Ada");
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    await page.goto(`${srv.url}/ask`);
    await page.getByLabel("Title").fill("Does the live notice come back on reload?");
    const [response] = await Promise.all([
      page.waitForResponse((r) => /\/questions\/q-[a-z0-9]+\?asked=1$/.test(r.url())),
      page.getByRole("button", { name: "Post question" }).click(),
    ]);
    const id = new URL(response.url()).pathname.split("/").pop()!;
    // Signed in: the page is never kept for Back.
    assert.equal(response.headers()["cache-control"], "private, no-store");
    await page.getByTestId("asked-notice").getByText("Your question is live.").waitFor();
    await page.waitForSelector('html[data-islands="ready"]');
    await page.waitForFunction(() => !location.search.includes("asked"));
    assert.equal(new URL(page.url()).pathname, `/questions/${id}`);
    await page.reload();
    await page.getByRole("heading", { name: "Does the live notice come back on reload?" })
      .waitFor();
    assert.equal(await page.getByText("Your question is live.").count(), 0, "not after a reload");

    // Back after posting: the page before the post is loaded again, with the answer.
    await page.waitForSelector('html[data-islands="ready"]');
    await page.getByLabel("Your answer").fill("Back shows this answer, not a stale page.");
    await Promise.all([
      page.waitForURL(/posted=msg-/),
      page.getByRole("button", { name: "Post answer" }).click(),
    ]);
    await page.getByText("Your message was posted.").waitFor();
    await page.waitForSelector('html[data-islands="ready"]');
    await page.waitForFunction(() => !location.search.includes("posted"));
    assert.ok(new URL(page.url()).hash.startsWith("#msg-"), "the fragment is kept");
    await page.goBack();
    await page.waitForURL(`${srv.url}/questions/${id}`);
    await page.getByText("Back shows this answer, not a stale page.").waitFor();
    assert.equal(await page.getByText("Your message was posted.").count(), 0);

    // A deleted question opened with ?asked=1: the deleted banner, never "live".
    const del = await t.request(`/api/questions/${id}`, {
      method: "DELETE",
      headers: { cookie: ada.cookie, origin: t.services.config.appOrigin },
    });
    assert.equal(del.status, 200);
    await page.goto(`${srv.url}/questions/${id}?asked=1`);
    await page.getByTestId("deleted-banner").waitFor();
    assert.equal(await page.getByText("Your question is live.").count(), 0);
    assert.deepEqual(errors, []);
  },
);
