/**
 * "Ask my agent to take part" when a moderator hid the newest reply of the thread, in
 * Chromium with the offline stand-in model: the draft answers the newest visible message,
 * Post succeeds; and when a message is hidden after the preview, Post says so in words
 * once and asking again drafts a reply that posts — no loop of refusals.
 */
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import type { MessageRecord } from "@/lib/community/messages/model.ts";
import { keys } from "@/lib/kv/keys.ts";
import { signInAs, type TestApp } from "../helpers/app.ts";
import { browserTest } from "../helpers/browser.ts";
import { answer, ask, type Member, postAs } from "../helpers/community.ts";

async function as(browser: Browser, t: TestApp, url: string, name: string) {
  const { user, cookie } = await signInAs(t, name);
  const [cookieName, value] = cookie.split("=");
  const context = await browser.newContext();
  await context.addCookies([{ name: cookieName, value, url }]);
  const member: Member = { id: user.id, name, cookie };
  return { member, page: await context.newPage() };
}

async function hide(t: TestApp, mod: Member, id: string) {
  const res = await postAs(t, mod, "/api/mod/actions", {
    targetType: "message",
    targetId: id,
    action: "hide",
  });
  assert.equal(res.status, 200);
  await res.body?.cancel();
}

/** The message a stored reply answers. */
async function replyTo(t: TestApp, messageId: string): Promise<string | undefined> {
  return (await t.kv.get<MessageRecord>(keys.message(messageId))).value?.replyTo;
}

browserTest(
  "the agent's draft skips a reply hidden by a moderator; a message hidden after the preview is refused once in words, and asking again posts",
  async ({ t, srv, browser }) => {
    const { member: mod } = await as(browser, t, srv.url, "Morgan");
    t.services.config.moderators = [mod.id];
    const { member: bob } = await as(browser, t, srv.url, "Bob");
    const q = await ask(t, bob, {
      title: "Should cities build more bike lanes?",
      description: "Our council is debating protected lanes downtown.",
    });
    const visible = await answer(t, bob, q, "Lanes work where they are cleared in winter.");
    const spam = await answer(t, bob, q, "BUY CHEAP WATCHES at spam.example", visible);
    await hide(t, mod, spam);

    const { page } = await as(browser, t, srv.url, "Ada");
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${srv.url}/questions/${q}`);
    await page.waitForSelector('html[data-islands="ready"]');
    assert.equal(await page.getByText("CHEAP WATCHES").count(), 0, "Ada never sees it");

    const ask1 = page.getByRole("button", { name: "Ask my agent to take part" });
    await ask1.click();
    await page.getByTestId("participate-draft").waitFor();
    await page.getByTestId("participate-draft").getByRole("button", { name: "Post" }).click();
    await page.getByTestId("participate-result").waitFor();
    const link = await page.getByRole("link", { name: "See the reply in the thread" })
      .getAttribute("href");
    const posted = decodeURIComponent(link!.split("#")[1]);
    assert.equal(await replyTo(t, posted), visible, "the reply answers the visible message");

    // Bob answers; Ada's agent drafts a reply to it; a moderator hides it before Post.
    const newest = await answer(t, bob, q, "Paint is not protection.", visible);
    await page.reload();
    await page.waitForSelector('html[data-islands="ready"]');
    await page.getByRole("button", { name: "Ask my agent to take part" }).click();
    await page.getByTestId("participate-draft").waitFor();
    await hide(t, mod, newest);
    await page.getByTestId("participate-draft").getByRole("button", { name: "Post" }).click();
    await page.getByTestId("participate-error").getByText(
      "The message your agent replied to was removed. Ask your agent again for a new draft.",
    ).waitFor();
    await page.getByRole("button", { name: "Ask my agent to take part" }).click();
    await page.getByTestId("participate-draft").waitFor();
    await page.getByTestId("participate-draft").getByRole("button", { name: "Post" }).click();
    await page.getByTestId("participate-result").waitFor();
    assert.equal(await page.getByTestId("participate-error").count(), 0);
    const again = await page.getByRole("link", { name: "See the reply in the thread" })
      .getAttribute("href");
    const second = decodeURIComponent(again!.split("#")[1]);
    assert.notEqual(await replyTo(t, second), newest);
    assert.deepEqual(errors, []);
  },
);
