/**
 * Content lifecycle in Chromium: edit an answer inline and read its history, delete a question,
 * accept an answer (it moves first), preview Markdown, Esc and Ctrl+Enter in the reply box,
 * and axe-core on a phone-sized question page with an accepted, an edited answer and code.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "../helpers/app.ts";
import { axeViolations } from "../helpers/axe.ts";
import { browserTest, hydrated, SCREENSHOT_DIR } from "../helpers/browser.ts";
import { answer, ask, type Member, member, postAs } from "../helpers/community.ts";

const PHONE = { width: 390, height: 844 };

async function pageAs(
  browser: Browser,
  url: string,
  who: Member,
  viewport = { width: 1100, height: 900 },
): Promise<{ page: Page; errors: string[] }> {
  // bypassCSP: the axe test injects axe-core as an inline script.
  const ctx = await browser.newContext({ viewport, bypassCSP: true });
  const [name, value] = who.cookie.split(";")[0].split("=");
  await ctx.addCookies([{ name, value, url }]);
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  return { page, errors };
}

async function setup(t: TestApp) {
  const ada = await member(t, "Ada");
  const bob = await member(t, "Bob");
  const q = await ask(t, ada, {
    title: "How do I cache Deno KV reads?",
    description: "Reads are slow on a cold start.",
  });
  return { ada, bob, q };
}

browserTest(
  "edit an answer inline, see 'edited' and its history on the revisions page",
  async ({ t, srv, browser }) => {
    const { bob, q } = await setup(t);
    const m = await answer(t, bob, q, "Use a Map in memory");
    const { page, errors } = await pageAs(browser, srv.url, bob);
    await page.goto(`${srv.url}/questions/${q}`);
    await hydrated(page);
    await page.getByRole("button", { name: "Edit your answer" }).click();
    const box = page.getByLabel("Edit your answer");
    assert.equal(await box.inputValue(), "Use a Map in memory");
    // A refused edit (empty) keeps the box open with the reason; the text can be fixed.
    await box.fill("   ");
    await page.getByRole("button", { name: "Save" }).click();
    await page.locator(".edit-form .field-error").waitFor();
    await box.fill("Use a Map in memory with a short TTL");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/edited=/);
    const card = page.locator(`li#${m}`);
    await card.getByText("with a short TTL").waitFor();
    const edited = card.getByTestId("edited-note");
    assert.match(await edited.innerText(), /edited just now/);
    await edited.getByRole("link").click();
    await page.waitForURL(/\/revisions\?message=/);
    const ins = page.locator("ins").first();
    assert.match(await ins.innerText(), /with a short TTL/);
    assert.equal(await page.getByTestId("revision").count(), 2);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/lifecycle-revisions.png`, fullPage: true });
    assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), []);
  },
);

browserTest(
  "delete a question after confirming in a dialog: it is gone from the feed",
  async ({ t, srv, browser }) => {
    const { ada, q } = await setup(t);
    const { page, errors } = await pageAs(browser, srv.url, ada);
    await page.goto(srv.url);
    await page.getByTestId("feed").getByText("How do I cache Deno KV reads?").waitFor();
    await page.goto(`${srv.url}/questions/${q}`);
    await hydrated(page);
    await page.getByRole("button", { name: "Delete this question" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    // Keyboard: Esc cancels, nothing is deleted.
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Delete this question" }).click();
    await dialog.getByRole("button", { name: "Delete question" }).click();
    await page.waitForURL(/\/\?deleted=1/);
    await page.getByText("Your question was deleted.").waitFor();
    assert.equal(await page.getByText("How do I cache Deno KV reads?").count(), 0);
    // Its author can still open it (docs/interface.md#content-lifecycle), marked as deleted; anyone else gets 404.
    const res = await page.goto(`${srv.url}/questions/${q}`);
    assert.equal(res?.status(), 200);
    await page.getByTestId("deleted-banner").waitFor();
    const anon = await browser.newPage();
    const anonRes = await anon.goto(`${srv.url}/questions/${q}`);
    assert.equal(anonRes?.status(), 404);
    await anon.close();
    assert.deepEqual(errors.filter((e) => !/404/.test(e)), []);
  },
);

browserTest(
  "the asker accepts an answer: it moves first with the 'Accepted answer' mark",
  async ({ t, srv, browser }) => {
    const { ada, bob, q } = await setup(t);
    const carl = await member(t, "Carl");
    const first = await answer(t, bob, q, "First, popular answer");
    await answer(t, bob, q, "Second, the one that worked");
    // Someone else upvotes the first, so it leads by votes until the accept.
    const up = await postAs(t, carl, "/api/likes", {
      targetType: "message",
      targetId: first,
      voteType: "up",
    });
    await up.body?.cancel();
    const { page, errors } = await pageAs(browser, srv.url, ada);
    await page.goto(`${srv.url}/questions/${q}`);
    await hydrated(page);
    const cards = page.locator("ol.thread > li .prose");
    assert.match(await cards.first().innerText(), /First, popular/);
    await page.getByRole("button", { name: "Accept Bob's answer" }).nth(1).click();
    await page.waitForURL(/accepted=/);
    await page.getByTestId("accepted-mark").waitFor();
    assert.match(await cards.first().innerText(), /Second, the one that worked/);
    const firstCard = page.locator("ol.thread > li").first();
    assert.match(await firstCard.innerText(), /Accepted answer/);
    assert.equal(
      await firstCard.getByRole("button", { name: /Accepted/ }).getAttribute("aria-pressed"),
      "true",
    );
    // The feed marks the question answered.
    await page.goto(srv.url);
    await page.getByTestId("answered-badge").waitFor();
    assert.deepEqual(errors, []);
  },
);

browserTest(
  "Preview renders Markdown through the server: **bold** shows as <strong>",
  async ({ t, srv, browser }) => {
    const { bob, q } = await setup(t);
    const { page, errors } = await pageAs(browser, srv.url, bob);
    await page.goto(`${srv.url}/questions/${q}`);
    await hydrated(page);
    await page.getByLabel("Your answer").fill("Try **bold** and `code`");
    await page.getByRole("tab", { name: "Preview" }).click();
    const preview = page.getByTestId("md-preview");
    await preview.locator("strong").waitFor();
    assert.equal(await preview.locator("strong").innerText(), "bold");
    assert.equal(
      await page.getByRole("tab", { name: "Preview" }).getAttribute("aria-selected"),
      "true",
    );
    await page.getByRole("tab", { name: "Write" }).click();
    assert.equal(await page.getByLabel("Your answer").inputValue(), "Try **bold** and `code`");
    // The ask page has the same tabs.
    await page.goto(`${srv.url}/ask`);
    await hydrated(page);
    await page.getByLabel(/Details/).fill("# Heading");
    await page.getByRole("tab", { name: "Preview" }).click();
    await page.getByTestId("md-preview").locator("h1").waitFor();
    assert.deepEqual(errors, []);
  },
);

browserTest(
  "keyboard: Esc closes the reply box (focus back on Reply), Ctrl+Enter posts it",
  async ({ t, srv, browser }) => {
    const { ada, bob, q } = await setup(t);
    await answer(t, bob, q, "An answer to reply to");
    const { page, errors } = await pageAs(browser, srv.url, ada);
    await page.goto(`${srv.url}/questions/${q}`);
    await hydrated(page);
    const reply = page.getByRole("button", { name: "Reply to Bob" });
    await reply.click();
    const box = page.getByLabel("Reply to Bob");
    await box.waitFor();
    await box.fill("draft");
    await page.keyboard.press("Escape");
    await box.waitFor({ state: "detached" });
    assert.ok(await reply.evaluate((el) => el === document.activeElement));
    await reply.press("Enter");
    await box.waitFor();
    await box.fill("Thanks, that fixed it");
    await Promise.all([page.waitForURL(/posted=/), page.keyboard.press("Control+Enter")]);
    await page.getByText("Thanks, that fixed it").waitFor();
    assert.deepEqual(errors, []);
  },
);

browserTest(
  "axe: 0 violations on a phone-sized question page with an accepted answer, an edited answer and a code block",
  async ({ t, srv, browser }) => {
    const { ada, bob, q } = await setup(t);
    const long = "const veryLongLineThatScrollsSideways = " + "'x'.repeat(10) + ".repeat(12) + "1;";
    const a1 = await answer(t, bob, q, `Cache it:\n\n\`\`\`ts\n${long}\n\`\`\``);
    const a2 = await answer(t, bob, q, "Or use a read-through cache.");
    const acc = await postAs(t, ada, `/api/questions/${q}/accept`, { messageId: a1 });
    await acc.body?.cancel();
    const edit = await t.request(`/api/messages/${a2}`, {
      method: "PATCH",
      headers: {
        cookie: bob.cookie,
        origin: t.services.config.appOrigin,
        "content-type": "application/json",
      },
      body: JSON.stringify({ content: "Or use a read-through cache with a TTL." }),
    });
    assert.equal(edit.status, 200);
    for (const who of [ada, bob]) {
      const { page } = await pageAs(browser, srv.url, who, PHONE);
      await page.goto(`${srv.url}/questions/${q}`);
      await hydrated(page);
      await page.getByTestId("accepted-mark").waitFor();
      await page.getByTestId("edited-note").waitFor();
      assert.equal(await page.locator("pre").first().getAttribute("tabindex"), "0");
      const violations = await axeViolations(page);
      await page.screenshot({
        path: `${SCREENSHOT_DIR}/lifecycle-phone-${who.name}.png`,
        fullPage: true,
      });
      assert.deepEqual(violations, [], `as ${who.name}`);
    }
  },
);
