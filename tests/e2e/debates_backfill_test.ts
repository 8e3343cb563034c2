/**
 * /debates in Chromium after the backfill: a public debate written before the public
 * index is listed once the job ran, and its link opens its permalink (keyboard), which
 * links back to /debates; a private one is not listed.
 */
import assert from "node:assert/strict";
import { jobRunner } from "@/lib/jobs/runner.ts";
import { saveSettings } from "@/lib/profile/settings.ts";
import { signInAs, type TestApp, waitForJobs } from "../helpers/app.ts";
import { seedFinishedDebate } from "../helpers/debates.ts";
import { browserTest } from "../helpers/browser.ts";

/** A finished debate stored as before `debates_by_time` existed (record and history only). */
const legacyDebate = (t: TestApp, userId: string, topic: string) =>
  seedFinishedDebate(t.kv, userId, topic, { legacy: true });

browserTest(
  "/debates lists a public debate older than its index once the backfill ran; its permalink opens by keyboard",
  async ({ t, srv, browser }) => {
    const ada = await signInAs(t, "Ada");
    const bob = await signInAs(t, "Bob");
    await saveSettings(t.kv, bob.user.id, { debateArchive: "private" });
    const id = await legacyDebate(t, ada.user.id, "Should cities plant more trees?");
    await legacyDebate(t, bob.user.id, "A private old debate");
    await jobRunner(t.kv).pass();
    await waitForJobs();

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${srv.url}/debates`);
    const items = page.locator('[data-testid="public-debate"]');
    await items.first().waitFor();
    assert.deepEqual(
      (await items.allInnerTexts()).map((s) => s.split("\n")[0]),
      ["Should cities plant more trees?"],
    );
    await items.first().getByRole("link").focus();
    await Promise.all([page.waitForURL(`**/debates/${id}`), page.keyboard.press("Enter")]);
    assert.equal(
      await page.getByTestId("debate-topic").innerText(),
      "Should cities plant more trees?",
    );
    await page.getByRole("link", { name: "Public debates" }).click();
    await page.waitForURL("**/debates");
    await context.close();
  },
);
