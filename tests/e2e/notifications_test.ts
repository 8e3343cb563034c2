/**
 * Notifications in Chromium: the header's unread badge rises live while another person answers
 * in another browser context; a moderator hides a flagged post from /mod and its author
 * sees the "Hidden by moderators" banner (while others get 404).
 */
import assert from "node:assert/strict";
import type { Browser, BrowserContext } from "playwright-core";
import { createQuestion } from "@/lib/community/questions/write.ts";
import { signInAs, type TestApp } from "../helpers/app.ts";
import { browserTest, hydrated, SCREENSHOT_DIR } from "../helpers/browser.ts";

async function as(t: TestApp, browser: Browser, url: string, name: string) {
  const context: BrowserContext = await browser.newContext({
    viewport: { width: 1100, height: 900 },
  });
  const { user, cookie } = await signInAs(t, name);
  const [cookieName, value] = cookie.split("=");
  await context.addCookies([{ name: cookieName, value, url }]);
  return { user, context, page: await context.newPage() };
}

browserTest(
  "the unread badge rises live while someone answers in another browser",
  async ({ t, srv, browser }) => {
    const a = await as(t, browser, srv.url, "Ada");
    const b = await as(t, browser, srv.url, "Bob");
    const q = await createQuestion(t.kv, {
      title: "Will my badge update by itself?",
      description: "Watching the header.",
      tags: ["live"],
      author: { id: a.user.id, name: a.user.name, avatar: null },
      createdBy: "user",
    });
    await a.page.goto(`${srv.url}/`);
    const bell = a.page.getByTestId("notification-bell");
    await bell.waitFor();
    await a.page.getByRole("link", { name: "Notifications", exact: true }).waitFor();

    await b.page.goto(`${srv.url}/questions/${q.id}`);
    await b.page.getByLabel("Your answer").fill("Yes — the stream pushes the count.");
    await Promise.all([
      b.page.waitForURL(/posted=/),
      b.page.getByRole("button", { name: "Post answer" }).click(),
    ]);

    await a.page.getByRole("link", { name: /^Notifications\s*\(1 unread\)$/ }).waitFor({
      timeout: 10_000,
    });
    await a.page.screenshot({ path: `${SCREENSHOT_DIR}/notifications-badge.png` });

    // The notification leads to the exact answer, scrolled to and highlighted (:target).
    await a.page.getByRole("link", { name: /^Notifications\s*\(1 unread\)$/ }).click();
    await a.page.getByText("Today").waitFor();
    await a.page.getByRole("link", { name: "Will my badge update by itself?" }).click();
    await a.page.waitForURL(/\?answer=.*#msg-/);
    const target = await a.page.evaluate(() => document.querySelector(":target")?.id ?? null);
    assert.ok(target?.startsWith("msg-"), "the answer is the :target");
    // Following it read it: the bell has no unread count any more.
    await a.page.getByRole("link", { name: /^Notifications$/ }).waitFor({ timeout: 10_000 });

    // Ada's question page is live: Bob answers again, "1 new answer — show" appears.
    await a.page.goto(`${srv.url}/questions/${q.id}`);
    await a.page.getByTestId("question-live").waitFor({ state: "attached" });
    await b.page.getByLabel("Your answer").fill("And a second answer.");
    await b.page.getByRole("button", { name: "Post answer" }).click();
    const show = a.page.getByRole("button", { name: /1 new answer — show/ });
    await show.waitFor({ timeout: 10_000 });
    await show.click();
    await a.page.getByText("And a second answer.").waitFor();
    await a.context.close();
    await b.context.close();
  },
);

browserTest(
  "a moderator hides a flagged post and its author sees the banner",
  async ({ t, srv, browser }) => {
    const asker = await as(t, browser, srv.url, "Asker");
    const flagger = await as(t, browser, srv.url, "Flagger");
    const mod = await as(t, browser, srv.url, "Moderator");
    t.services.config.moderators = [mod.user.id];
    const q = await createQuestion(t.kv, {
      title: "Cheap watches, visit my shop",
      description: "Totally not spam.",
      tags: ["shop"],
      author: { id: asker.user.id, name: asker.user.name, avatar: null },
      createdBy: "user",
    });

    // Flag it through the dialog.
    await flagger.page.goto(`${srv.url}/questions/${q.id}`);
    await hydrated(flagger.page);
    await flagger.page.getByRole("button", { name: "Flag this question" }).click();
    const dialog = flagger.page.getByRole("dialog");
    await dialog.getByLabel("Spam").check();
    await dialog.getByLabel(/Note for the moderators/).fill("An advert");
    await dialog.getByRole("button", { name: "Send flag" }).click();
    await flagger.page.getByText("Thanks — the moderators will take a look.").waitFor();

    // The moderator hides it from the queue.
    await mod.page.goto(`${srv.url}/mod`);
    await mod.page.getByText("An advert").waitFor();
    await mod.page.getByRole("button", { name: /^Hide: question by Asker/ }).click();
    // Confirmed in words, with Undo; the log says what was done to which question.
    await mod.page.getByRole("status").filter({ hasText: "Hidden." }).waitFor();
    await mod.page.getByRole("button", { name: /^Undo/ }).waitFor();
    await mod.page.getByRole("cell", { name: "Hidden", exact: true }).waitFor();

    // Others: 404. The author: the page with the banner.
    const res = await flagger.page.goto(`${srv.url}/questions/${q.id}`);
    assert.equal(res?.status(), 404);
    await asker.page.goto(`${srv.url}/questions/${q.id}`);
    await asker.page.getByText("Hidden by moderators.").waitFor();
    await asker.page.screenshot({ path: `${SCREENSHOT_DIR}/hidden-banner.png` });
    for (const c of [asker, flagger, mod]) await c.context.close();
  },
);
