/**
 * "Delete my account" end to end in Chromium: the typed name is checked, a confirm step
 * comes before anything happens, and afterwards the person is signed out on the home page
 * and their public profile is gone while their kept question shows "deleted user".
 */
import assert from "node:assert/strict";
import { signInAs, waitForJobs } from "../helpers/app.ts";
import { browserTest, SCREENSHOT_DIR } from "../helpers/browser.ts";
import { askQuestion } from "@/lib/community/questions/write.ts";

browserTest(
  "delete my account: type the name, confirm, signed out; the kept question shows deleted user",
  async ({ t, srv, browser }) => {
    const ctx = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
    const { user, cookie } = await signInAs(t, "Zephyrine Quill");
    const [cookieName, value] = cookie.split("=");
    await ctx.addCookies([{ name: cookieName, value, url: srv.url }]);
    const asked = await askQuestion(t.kv, {
      userId: user.id,
      title: "Where do kept questions go?",
      createdBy: "user",
    });
    assert.ok(asked.ok);
    const errors: string[] = [];
    const page = await ctx.newPage();
    page.on("pageerror", (e) => errors.push(e.message));

    await page.goto(`${srv.url}/profile#your-data`);
    await page.waitForSelector('html[data-islands="ready"]');
    assert.equal(
      await page.getByTestId("download-data").getAttribute("href"),
      "/api/profile/export",
    );
    const form = page.getByTestId("delete-account-form");
    // A wrong name is caught before anything is sent.
    await form.getByRole("textbox").fill("Zephyrine");
    await page.getByTestId("delete-account").click();
    await form.getByText("Type your name exactly as it is shown above.").waitFor();
    await form.getByRole("textbox").fill("Zephyrine Quill");
    await form.getByLabel('Keep them, shown as by "deleted user"').check();
    await page.getByTestId("delete-account").click();
    // The confirm step; cancel returns to the form with nothing done.
    await page.getByText("Delete your account for good?").waitFor();
    await page.getByRole("button", { name: "Cancel" }).click();
    await form.waitFor();
    assert.equal((await t.request(`/api/profile/public/${user.id}`)).status, 200);
    await page.getByTestId("delete-account").click();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/account-delete-confirm.png` });
    await page.getByTestId("delete-account-confirm").click();
    await page.waitForURL(`${srv.url}/?account=deleted`);
    await page.getByTestId("account-deleted").waitFor();
    // Signed out: the header offers sign-in again, the profile page sends to sign-in.
    await page.goto(`${srv.url}/profile`);
    await page.waitForURL(/\/signin/);
    await waitForJobs();
    await page.goto(`${srv.url}/u/${user.id}`);
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
    await page.goto(`${srv.url}/questions/${asked.question.id}`);
    await page.getByTestId("author-gone").first().getByText("deleted user").waitFor();
    assert.equal(await page.getByText("Zephyrine").count(), 0);
    assert.deepEqual(errors, []);
  },
);
