/**
 * "Ask my agent to take part" in Chromium, in local mode with the offline stand-in
 * model: on a question page the agent's reply appears (progress first, then the reply,
 * labelled), and the link shows it in the thread; on the home page the agent asks or
 * replies and links to it; failures and signed-out visitors get plain messages.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { createQuestion } from "@/lib/community/questions/write.ts";
import { signInAs, type TestApp } from "../helpers/app.ts";
import { browserTest, SCREENSHOT_DIR } from "../helpers/browser.ts";

async function signedInPage(browser: Browser, t: TestApp, url: string, name: string) {
  const { user, cookie } = await signInAs(t, name);
  const [cookieName, value] = cookie.split("=");
  const context = await browser.newContext();
  await context.addCookies([{ name: cookieName, value, url }]);
  return { user, page: await context.newPage() };
}

function collectErrors(page: Page, expected: RegExp[] = []): string[] {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error" && !expected.some((re) => re.test(m.text()))) errors.push(m.text());
  });
  return errors;
}

/** Hold participation requests back a little, so the progress state can be seen. */
async function slowParticipation(page: Page) {
  await page.route("**/api/agent/participate/preview", async (route) => {
    await new Promise((r) => setTimeout(r, 400));
    await route.continue();
  });
}

browserTest(
  "on a question page the agent's reply is shown first with Post / Discard, then posted exactly, labelled “written by <name>'s agent”",
  async ({ t, srv, browser }) => {
    assert.equal(t.services.llm?.standIn, true, "local mode uses the stand-in model");
    const bob = { id: "u-bob", name: "Bob", avatar: null };
    const q = await createQuestion(t.kv, {
      title: "Should cities build more bike lanes?",
      description: "Our council is debating protected lanes downtown.",
      author: bob,
      createdBy: "user",
    });
    const { page } = await signedInPage(browser, t, srv.url, "Ada");
    const errors = collectErrors(page);
    await slowParticipation(page);
    await page.goto(`${srv.url}/questions/${q.id}`);
    await page.waitForSelector('html[data-islands="ready"]');

    await page.getByRole("button", { name: "Ask my agent to take part" }).click();
    await page.getByTestId("participate-progress").waitFor();
    assert.equal(
      await page.getByRole("button", { name: "Ask my agent to take part" }).isDisabled(),
      true,
      "no second request while the first runs",
    );
    await page.getByTestId("standin-note").waitFor();
    // The preview: what the agent is about to post, nothing posted yet.
    const draft = page.getByTestId("participate-draft");
    await draft.waitFor();
    assert.equal(await page.getByTestId("participate-progress").count(), 0);
    const drafted = (await page.getByTestId("participate-draft-text").innerText()).trim();
    assert.ok(drafted.length >= 100, drafted);
    await draft.getByText(/Why: .*the question you chose/).waitFor();
    assert.equal(
      (await t.request(`/api/questions/${q.id}`).then((r) => r.json())).messages.length,
      0,
      "nothing is posted before Post",
    );
    await page.screenshot({ path: `${SCREENSHOT_DIR}/participate-preview.png`, fullPage: true });
    await draft.getByRole("button", { name: "Post" }).click();
    const result = page.getByTestId("participate-result");
    await result.waitFor();
    const reply = (await page.getByTestId("participate-reply").innerText()).trim();
    assert.equal(reply, drafted.length <= 400 ? drafted : reply, "the posted text is the draft");
    const stored = (await t.request(`/api/questions/${q.id}`).then((r) => r.json())).messages;
    assert.equal(stored.length, 1);
    assert.equal(stored[0].content.trim(), drafted, "exactly the previewed text is posted");
    await page.screenshot({ path: `${SCREENSHOT_DIR}/participate-reply.png`, fullPage: true });

    // The link opens the reply in the thread, badged and labelled.
    await Promise.all([
      page.waitForURL(/\?posted=msg-agent-reply-/),
      page.getByRole("link", { name: "See the reply in the thread" }).click(),
    ]);
    const message = page.getByTestId("message").filter({ hasText: reply.slice(0, 40) });
    await message.waitFor();
    await message.getByTestId("badge-agent").getByText("written by Ada's agent").waitFor();
    await message.getByTestId("badge-standin").waitFor();
    await message.getByRole("link", { name: "Ada" }).waitFor();
    await page.getByText("Your message was posted.").waitFor();
    assert.deepEqual(errors, []);
  },
);

browserTest(
  "on the home page the agent asks or replies and links to it; failures read plainly",
  async ({ t, srv, browser }) => {
    const anon = await browser.newPage();
    await anon.goto(`${srv.url}/`);
    await anon.getByTestId("participate-signed-out").waitFor();
    assert.equal(
      await anon.getByRole("button", { name: "Ask my agent to take part" }).count(),
      0,
    );
    const { page } = await signedInPage(browser, t, srv.url, "Grace");
    const errors = collectErrors(page, [/500/, /401/, /429/]);
    await page.goto(`${srv.url}/`);
    await page.waitForSelector('html[data-islands="ready"]');
    // Discard posts nothing.
    await page.getByRole("button", { name: "Ask my agent to take part" }).click();
    await page.getByTestId("participate-draft").getByText("Your agent wants to ask:").waitFor();
    await page.getByRole("button", { name: "Discard" }).click();
    await page.getByTestId("participate-discarded").waitFor();
    assert.equal((await t.request("/api/questions").then((r) => r.json())).questions.length, 0);
    await page.getByRole("button", { name: "Ask my agent to take part" }).click();
    await page.getByTestId("participate-draft").getByRole("button", { name: "Post" }).click();
    const result = page.getByTestId("participate-result");
    await result.waitFor();
    // With no question yet, asking is the only possible action.
    await result.getByText("Your agent asked a new question:").waitFor();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/participate-ask.png`, fullPage: true });
    await Promise.all([
      page.waitForURL(/\/questions\/q-agent-[a-z0-9]+\?asked=1$/),
      page.getByRole("link", { name: "Open the question" }).click(),
    ]);
    await page.getByText("Your question is live.").waitFor();
    await page.getByTestId("question").getByTestId("badge-agent").waitFor();
    // Its initial message carries the description.
    assert.equal(await page.getByTestId("message").count(), 1);

    // A failing model is reported in words, and the button works again.
    await page.goto(`${srv.url}/`);
    await page.waitForSelector('html[data-islands="ready"]');
    await page.route("**/api/agent/participate/preview", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ error: "Agent participation failed" }),
      }));
    await page.getByRole("button", { name: "Ask my agent to take part" }).click();
    await page.getByTestId("participate-error").getByText("Agent participation failed")
      .waitFor();
    assert.equal(
      await page.getByRole("button", { name: "Ask my agent to take part" }).isDisabled(),
      false,
    );
    // An ended session asks to sign in again, with a way back to this page.
    await page.unroute("**/api/agent/participate/preview");
    await page.route("**/api/agent/participate/preview", (route) =>
      route.fulfill({
        status: 401,
        contentType: "application/json",
        body: JSON.stringify({ error: "Unauthorized" }),
      }));
    await page.getByRole("button", { name: "Ask my agent to take part" }).click();
    const ended = page.getByTestId("participate-error");
    await ended.getByText(/session has ended/).waitFor();
    assert.equal(
      await ended.getByRole("link", { name: "Sign in" }).getAttribute("href"),
      "/signin?returnTo=%2F",
    );
    // Over the limit, it says how long to wait (from Retry-After) and holds the button.
    await page.unroute("**/api/agent/participate/preview");
    await page.route("**/api/agent/participate/preview", (route) =>
      route.fulfill({
        status: 429,
        contentType: "application/json",
        headers: { "retry-after": "42" },
        body: JSON.stringify({ error: "Rate limit exceeded" }),
      }));
    await page.getByRole("button", { name: "Ask my agent to take part" }).click();
    await page.getByTestId("participate-error").getByText(/try again in 4\d seconds/).waitFor();
    assert.equal(
      await page.getByRole("button", { name: "Ask my agent to take part" }).isDisabled(),
      true,
      "held until the wait is over",
    );
    assert.deepEqual(errors.filter((e) => !/429/.test(e)), []);

    // Signed out, a question page's sign-in prompt mentions the agent.
    const { id: qid } = await createQuestion(t.kv, {
      title: "Signed-out view",
      author: { id: "u-x", name: "X", avatar: null },
      createdBy: "user",
    });
    await anon.goto(`${srv.url}/questions/${qid}`);
    await anon.getByTestId("signin-prompt").getByText(/ask your agent to take part/).waitFor();
    assert.equal(
      await anon.getByTestId("signin-prompt").getByRole("link", { name: "Sign in" })
        .getAttribute("href"),
      `/signin?returnTo=${encodeURIComponent(`/questions/${qid}`)}`,
    );
  },
);
