/**
 * A privacy switch changed elsewhere stays changed when the person goes back to a
 * /profile page they had open: the browser must not put the switches back as they were
 * then, which the page's island would take for choices made before it ran and save.
 */
import assert from "node:assert/strict";
import { getSettings, saveSettings } from "@/lib/profile/settings.ts";
import { signInAs } from "../helpers/app.ts";
import { browserTest } from "../helpers/browser.ts";

browserTest(
  "going back to /profile keeps a privacy switch changed elsewhere, and saves nothing",
  async ({ t, srv, browser }) => {
    const { user, cookie } = await signInAs(t, "Back Button");
    const context = await browser.newContext();
    const [name, value] = cookie.split("=");
    await context.addCookies([{ name, value, url: srv.url }]);
    const page = await context.newPage();
    const puts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "PUT" && r.url().endsWith("/api/profile/settings")) {
        puts.push(r.postData() ?? "");
      }
    });
    await page.goto(`${srv.url}/profile`);
    await page.waitForSelector('html[data-islands="ready"]');
    const onlyMe = page.getByRole("group", { name: "Activity feed" }).getByLabel("Only me");
    await onlyMe.check();
    await page.getByText("Saved.", { exact: true }).waitFor();
    assert.equal((await getSettings(t.kv, user.id)).activityVisibility, "private");
    await page.goto(`${srv.url}/`);
    // Changed back in another tab.
    await saveSettings(t.kv, user.id, { activityVisibility: "public" });
    const sent = puts.length;
    await page.goBack();
    await page.waitForSelector('html[data-islands="ready"]');
    // Time for a save the island would start once hydrated.
    await page.waitForTimeout(500);
    assert.deepEqual(puts.slice(sent), [], "nothing saved on the way back");
    assert.equal((await getSettings(t.kv, user.id)).activityVisibility, "public");
    assert.equal(await onlyMe.isChecked(), false, "the page shows the setting as it is");
    await context.close();
  },
);
