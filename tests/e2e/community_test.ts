/**
 * Community end to end in Chromium: sign in, ask, answer, reply, upvote, switch to a
 * downvote, favorite — state survives a reload; signed-out prompts; rollback on failure;
 * the agent key panel shows a key once and revokes it.
 */
import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import { createQuestion } from "@/lib/community/questions/write.ts";
import { signInAs, type TestApp } from "../helpers/app.ts";
import { browserTest, SCREENSHOT_DIR } from "../helpers/browser.ts";

async function signedInContext(
  t: TestApp,
  context: BrowserContext,
  url: string,
  name: string,
) {
  const { user, cookie } = await signInAs(t, name);
  const [cookieName, value] = cookie.split("=");
  await context.addCookies([{ name: cookieName, value, url }]);
  return user;
}

/** Page errors and console errors, except the network errors a test provokes on purpose. */
function collectErrors(page: Page, expected: RegExp[] = []): string[] {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error" && !expected.some((re) => re.test(m.text()))) errors.push(m.text());
  });
  return errors;
}

/** A button whose accessible name starts with `name` (vote buttons add their count). */
function button(page: Page, name: string) {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return page.getByRole("button", { name: new RegExp(`^${escaped}`) });
}

async function pressed(page: Page, name: string): Promise<string | null> {
  return await button(page, name).getAttribute("aria-pressed");
}

browserTest(
  "sign in, ask, answer, reply, upvote, switch to downvote, favorite — and it persists",
  async ({ t, srv, browser }) => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    await signedInContext(t, context, srv.url, "Ada");
    const page = await context.newPage();
    // The invalid /ask submission answers 400 on purpose (the form re-rendered with messages).
    const errors = collectErrors(page, [/status of 400/]);

    // Ask: a validation message first, then a real question.
    await page.goto(`${srv.url}/ask`);
    await page.getByLabel("Title").fill("x");
    await page.getByLabel(/Details/).fill("Kept across the refused submit");
    await page.getByRole("button", { name: "Post question" }).click();
    await page.getByText("Titles need 2 to 120 characters; this one has 1.").waitFor();
    // Nothing typed is lost, and the caret is back in the field to fix.
    assert.equal(await page.getByLabel(/Details/).inputValue(), "Kept across the refused submit");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "title");
    await page.getByLabel("Title").fill("How do islands hydrate in Parley?");
    await page.getByLabel(/Details/).fill("Asked from **Chromium**. <script>bad()</script>");
    await page.getByLabel(/Tags/).fill("preact, islands");
    await Promise.all([
      page.waitForURL(/\/questions\/q-[a-z0-9]+\?asked=1$/),
      page.getByRole("button", { name: "Post question" }).click(),
    ]);
    await page.getByRole("heading", { name: "How do islands hydrate in Parley?" }).waitFor();
    assert.equal(await page.locator(".question .prose strong").textContent(), "Chromium");
    assert.equal(await page.locator(".question .prose script").count(), 0);
    await page.waitForSelector('html[data-islands="ready"]');

    // Answer it.
    await page.getByLabel("Your answer").fill("They render on the server, then `hydrate`.");
    await Promise.all([
      page.waitForURL(/posted=msg-/),
      page.getByRole("button", { name: "Post answer" }).click(),
    ]);
    await page.getByText("Your message was posted.").waitFor();
    await page.getByRole("heading", { name: "1 answer" }).waitFor();
    assert.equal(await page.locator(".message .prose code").textContent(), "hydrate");
    await page.waitForSelector('html[data-islands="ready"]');

    // Reply to the answer.
    // By keyboard: focus follows the form open (into the box) and closed (back to Reply).
    await page.getByRole("button", { name: "Reply to Ada" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.activeElement?.id.startsWith("content-msg-"));
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.waitForFunction(() => document.activeElement?.classList.contains("reply-toggle"));
    await page.keyboard.press("Enter");
    await page.keyboard.type("Thanks, that helps.");
    assert.equal(await page.getByLabel("Reply to Ada").inputValue(), "Thanks, that helps.");
    await Promise.all([
      page.waitForURL(/posted=msg-/),
      page.getByRole("button", { name: "Post reply" }).click(),
    ]);
    await page.locator(".replies .message").getByText("Thanks, that helps.").waitFor();
    await page.waitForSelector('html[data-islands="ready"]');

    // Another member upvotes the question, then switches to a downvote, then favorites it —
    // by keyboard too (one's own post cannot be voted on: docs/interface.md#votes).
    const voterContext = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    await signedInContext(t, voterContext, srv.url, "Bob");
    const voter = await voterContext.newPage();
    const voterErrors = collectErrors(voter);
    await voter.goto(page.url());
    await voter.waitForSelector('html[data-islands="ready"]');
    const up = "Upvote this question";
    const down = "Downvote this question";
    const vote = (name: string) =>
      Promise.all([
        voter.waitForResponse((r) => r.url().endsWith("/api/likes") && r.ok()),
        button(voter, name).click(),
      ]);
    await vote(up);
    assert.equal(await pressed(voter, up), "true");
    // The count is part of the accessible name.
    await voter.getByRole("button", { name: "Upvote this question, 1 upvote", exact: true })
      .waitFor();
    assert.equal(await voter.locator(".question [data-testid=upvotes]").textContent(), "1");
    await vote(down);
    assert.equal(await pressed(voter, up), "false");
    assert.equal(await pressed(voter, down), "true");
    assert.equal(await voter.locator(".question [data-testid=upvotes]").textContent(), "0");
    assert.equal(await voter.locator(".question [data-testid=downvotes]").textContent(), "1");
    const fav = button(voter, "Favorite this question");
    await fav.focus();
    await Promise.all([
      voter.waitForResponse((r) => r.url().endsWith("/api/favorites") && r.ok()),
      voter.keyboard.press("Enter"),
    ]);
    assert.equal(await fav.getAttribute("aria-pressed"), "true");
    await voter.screenshot({ path: `${SCREENSHOT_DIR}/question-voted.png`, fullPage: true });

    // The server kept it all.
    await voter.reload();
    await voter.waitForSelector('html[data-islands="ready"]');
    assert.equal(await pressed(voter, down), "true");
    assert.equal(await pressed(voter, up), "false");
    assert.equal(await fav.getAttribute("aria-pressed"), "true");
    const id = new URL(voter.url()).pathname.split("/").pop()!;
    const api = await (await fetch(`${srv.url}/api/questions/${id}`)).json();
    assert.deepEqual([api.upvotes, api.downvotes, api.messageCount], [0, 1, 2]);
    assert.deepEqual(api.tags, ["preact", "islands"]);

    // The feed shows it, with its tags as links.
    await voter.goto(`${srv.url}/?tag=islands`);
    await voter.getByRole("link", { name: "How do islands hydrate in Parley?" }).waitFor();
    await voter.screenshot({ path: `${SCREENSHOT_DIR}/feed-tag.png`, fullPage: true });
    assert.deepEqual(voterErrors, []);
    assert.deepEqual(errors, []);
  },
);

browserTest(
  "signed out: vote and favorite buttons prompt to sign in with a return path",
  async ({ t, srv, browser }) => {
    const q = await createQuestion(t.kv, {
      title: "Visible to everyone",
      author: { id: "u-x", name: "X", avatar: null },
      createdBy: "user",
    });
    const page = await browser.newPage();
    const errors = collectErrors(page);
    await page.goto(`${srv.url}/questions/${q.id}`);
    await page.waitForSelector('html[data-islands="ready"]');
    await button(page, "Upvote this question").click();
    const link = page.locator(".vote .signin-prompt a");
    await link.waitFor();
    assert.equal(
      await link.getAttribute("href"),
      `/signin?returnTo=${encodeURIComponent(`/questions/${q.id}`)}`,
    );
    assert.equal(await page.locator(".question [data-testid=upvotes]").textContent(), "0");
    await button(page, "Favorite this question").click();
    await page.locator(".favorite .signin-prompt a").waitFor();
    assert.equal(await page.getByTestId("signin-prompt").count(), 1, "no answer form");
    await page.goto(`${srv.url}/ask`);
    await page.getByTestId("signin-prompt").getByRole("link", { name: "Sign in" }).waitFor();
    assert.equal(await page.locator("form.ask-form").count(), 0);
    assert.deepEqual(errors, []);
  },
);

browserTest(
  "a failed vote or favorite rolls back with a visible message",
  async ({ t, srv, browser }) => {
    const q = await createQuestion(t.kv, {
      title: "Will this vote stick?",
      author: { id: "u-x", name: "X", avatar: null },
      createdBy: "user",
    });
    const context = await browser.newContext();
    await signedInContext(t, context, srv.url, "Bob");
    const page = await context.newPage();
    await page.route(
      "**/api/likes",
      (r) => r.fulfill({ status: 500, contentType: "application/json", body: '{"error":"boom"}' }),
    );
    await page.route("**/api/favorites", (r) =>
      r.fulfill({
        status: 429,
        contentType: "application/json",
        body: '{"error":"Rate limit exceeded"}',
      }));
    await page.goto(`${srv.url}/questions/${q.id}`);
    await page.waitForSelector('html[data-islands="ready"]');
    await button(page, "Upvote this question").click();
    await page.getByRole("alert").filter({ hasText: "Your vote was not saved" }).waitFor();
    assert.equal(await page.locator(".question [data-testid=upvotes]").textContent(), "0");
    assert.equal(await pressed(page, "Upvote this question"), "false");
    await button(page, "Favorite this question").click();
    await page.getByRole("alert").filter({ hasText: "Too many requests" }).waitFor();
    assert.equal(await pressed(page, "Favorite this question"), "false");
    await page.screenshot({ path: `${SCREENSHOT_DIR}/vote-rollback.png` });
  },
);

browserTest(
  "agent key panel: create shows the key once, it works, revoke needs a confirmation",
  async ({ t, srv, browser }) => {
    const context = await browser.newContext();
    await signedInContext(t, context, srv.url, "Ada");
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(`${srv.url}/profile/agent-keys`);
    await page.waitForSelector('html[data-islands="ready"]');
    await page.getByLabel("Key name").fill("research agent");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.getByTestId("new-key").textContent())!;
    assert.match(key, /^agent_[A-Za-z0-9_-]{43}$/);
    await page.getByTestId("key-list").getByText("research agent", { exact: true }).waitFor();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/agent-keys.png` });

    const me = await fetch(`${srv.url}/api/agent/me`, {
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(me.status, 200);
    await me.body?.cancel();

    // Shown once: after a reload only the prefix remains.
    await page.reload();
    await page.waitForSelector('html[data-islands="ready"]');
    assert.equal(await page.getByTestId("new-key").count(), 0);
    assert.ok(!(await page.content()).includes(key));

    const revoke = page.getByRole("button", { name: /Revoke key research agent/ });
    await revoke.click();
    await page.getByRole("button", { name: /Confirm revoke/ }).click();
    await page.getByText("No keys yet.").waitFor();
    const after = await fetch(`${srv.url}/api/agent/me`, {
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(after.status, 401);
    await after.body?.cancel();
    assert.deepEqual(errors, []);
  },
);
