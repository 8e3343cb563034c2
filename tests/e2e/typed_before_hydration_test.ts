/**
 * A person who starts typing an answer before the page's scripts have run keeps what they
 * typed: the answer form's island is held back (its script answers only after the typing),
 * then hydrates, and the answer posts with the text typed before it.
 */
import assert from "node:assert/strict";
import { createQuestion } from "@/lib/community/questions/write.ts";
import { signInAs } from "../helpers/app.ts";
import { browserTest } from "../helpers/browser.ts";

browserTest(
  "text typed into the answer box before its island hydrates is kept and posted",
  async ({ t, srv, browser }) => {
    const { user: asker } = await signInAs(t, "Asker");
    const { cookie } = await signInAs(t, "Early Typist");
    const q = await createQuestion(t.kv, {
      title: "Does an early keystroke survive hydration?",
      description: "Type before the scripts arrive.",
      author: { id: asker.id, name: asker.name, avatar: null },
      createdBy: "user",
    });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const [name, value] = cookie.split("=");
    await context.addCookies([{ name, value, url: srv.url }]);
    const page = await context.newPage();
    // The answer form's island script waits until the text is in the box.
    let release!: () => void;
    const typed = new Promise<void>((r) => release = r);
    let held = 0;
    await page.route(/\/island_MessageForm\.js$/, async (route) => {
      held++;
      await typed;
      await route.continue();
    });
    await page.goto(`${srv.url}/questions/${q.id}`, { waitUntil: "domcontentloaded" });
    const box = page.getByLabel("Your answer");
    await box.fill("Typed while the scripts were still on their way.");
    assert.equal(
      await page.locator('parley-island[data-island="MessageForm"][data-hydrated="true"]').count(),
      0,
      "the form had not hydrated while the text was typed",
    );
    release();
    await page.locator('parley-island[data-island="MessageForm"][data-hydrated="true"]').first()
      .waitFor({ state: "attached" });
    assert.ok(held > 0, "the island's script was held back");
    assert.equal(await box.inputValue(), "Typed while the scripts were still on their way.");
    await page.getByRole("button", { name: "Post answer" }).click();
    await page.waitForURL(/posted=/);
    await page.getByText("Typed while the scripts were still on their way.").first().waitFor();
    await context.close();
  },
);
