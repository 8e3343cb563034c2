/**
 * Profiles end to end in Chromium: edit the profile with live validation, see the change
 * on the public page, and make the activity feed private ("Only me") so a second signed-in
 * user and a signed-out visitor see no Activity section at all (the question itself stays
 * public on its page).
 */
import assert from "node:assert/strict";
import type { BrowserContext } from "playwright-core";
import { signInAs, type TestApp } from "../helpers/app.ts";
import { browserTest, SCREENSHOT_DIR } from "../helpers/browser.ts";
import { createQuestion } from "@/lib/community/questions/write.ts";
import { toggleFavorite } from "@/lib/community/favorites.ts";

async function signedIn(t: TestApp, context: BrowserContext, url: string, name: string) {
  const { user, cookie } = await signInAs(t, name);
  const [cookieName, value] = cookie.split("=");
  await context.addCookies([{ name: cookieName, value, url }]);
  return user;
}

browserTest(
  "edit the profile, see it in public, hide activity from a second user",
  async ({ t, srv, browser }) => {
    const adaCtx = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
    const bobCtx = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
    const ada = await signedIn(t, adaCtx, srv.url, "Ada");
    await signedIn(t, bobCtx, srv.url, "Bob");
    const errors: string[] = [];
    const ada1 = await adaCtx.newPage();
    ada1.on("pageerror", (e) => errors.push(e.message));

    // Ada has a question and a favorite, so her activity tabs have content.
    const q = await createQuestion(t.kv, {
      title: "Ada's public question",
      author: { id: ada.id, name: "Ada", avatar: null },
      createdBy: "user",
    });
    await toggleFavorite(t.kv, { userId: ada.id, targetType: "question", targetId: q.id });

    await ada1.goto(`${srv.url}/profile`);
    await ada1.waitForSelector('html[data-islands="ready"]');
    const name = ada1.getByRole("textbox", { name: "Display name" });
    // Live validation: a forbidden character is flagged before saving.
    await name.fill("Ada <3");
    await ada1.getByText("may contain only letters, digits, spaces, and _ - .").waitFor();
    assert.equal(await ada1.getByRole("button", { name: "Save profile" }).isDisabled(), true);
    await name.fill("Ada Lovelace");
    await ada1.getByRole("textbox", { name: "Bio" }).fill("Poet of numbers.");
    await ada1.getByRole("textbox", { name: "Avatar URL" }).fill("javascript:alert(1)");
    await ada1.getByText("Avatar URL must be an http or https URL").waitFor();
    await ada1.getByRole("textbox", { name: "Avatar URL" }).fill("");
    await ada1.getByRole("button", { name: "Save profile" }).click();
    await ada1.getByText("Profile saved.").waitFor();
    await ada1.screenshot({ path: `${SCREENSHOT_DIR}/profile-edit.png`, fullPage: true });

    // Bob sees the change on Ada's public page, and her favorites while they are public.
    const bob1 = await bobCtx.newPage();
    bob1.on("pageerror", (e) => errors.push(e.message));
    await bob1.goto(`${srv.url}/u/${ada.id}?tab=favorites`);
    await bob1.getByRole("heading", { name: "Ada Lovelace" }).waitFor();
    await bob1.getByText("Poet of numbers.").waitFor();
    assert.equal(await bob1.getByTestId("activity-favorites").count(), 1);
    await bob1.getByTestId("activity-favorites").getByText("Ada's public question").waitFor();

    // Ada makes her activity feed private.
    await ada1.getByRole("group", { name: "Activity feed" }).getByLabel("Only me").check();
    await ada1.getByText("Saved.", { exact: true }).waitFor();

    await bob1.reload();
    await bob1.getByTestId("activity-private").waitFor();
    assert.equal(await bob1.getByTestId("activity-favorites").count(), 0);
    await bob1.screenshot({ path: `${SCREENSHOT_DIR}/profile-private.png`, fullPage: true });
    // No Activity section, no tabs — signed in as someone else or signed out.
    const anon = await (await browser.newContext()).newPage();
    for (const viewer of [bob1, anon]) {
      await viewer.goto(`${srv.url}/u/${ada.id}?tab=questions`);
      await viewer.getByTestId("activity-private").getByText(
        "Ada Lovelace keeps their activity private.",
      )
        .waitFor();
      assert.equal(await viewer.getByRole("heading", { name: "Activity" }).count(), 0);
      assert.equal(await viewer.getByRole("navigation", { name: "Activity" }).count(), 0);
      assert.equal(await viewer.getByText("Ada's public question").count(), 0);
    }
    // The question itself stays public on its page.
    await anon.goto(`${srv.url}/questions/${q.id}`);
    await anon.getByRole("heading", { name: "Ada's public question" }).waitFor();
    // Ada herself still sees her favorites on /profile.
    await ada1.goto(`${srv.url}/profile?tab=favorites`);
    await ada1.getByTestId("activity-favorites").getByText("Ada's public question").waitFor();
    assert.deepEqual(errors, []);
  },
);
