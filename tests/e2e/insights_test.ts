/**
 * The thread summary and opinion map on a question page in Chromium, written by the
 * in-app stand-in model through the job runner: both labelled AI-written, the map an SVG
 * drawn on the server whose answers are links Tab reaches (Enter goes to the answer), the
 * summary's citations linking to answers; axe clean and no sideways scroll at 1280 and 390.
 */
import assert from "node:assert/strict";
import { waitForJobs } from "../helpers/app.ts";
import { axeViolations } from "../helpers/axe.ts";
import { browserTest, SCREENSHOT_DIR } from "../helpers/browser.ts";
import { answer, ask, getAs, member } from "../helpers/community.ts";

const VIEWS = [
  "Yes, you should adopt it, because it saves time on every release.",
  "No, avoid it: the migration is never worth the risk for a small team.",
  "It depends on the team size and whether you have tests.",
  "Yes, I recommend it too, and it is also cheaper to host.",
  "Never do that in the middle of a project, it is a bad idea.",
  "Definitely yes, we use it every day without trouble.",
  "Only if you have good tests, otherwise no.",
  "Agree with the others, it is worth it for hiring alone.",
  "I would not, because maintenance costs grow over time.",
];

browserTest(
  "question page: the AI-written summary and opinion map, nodes reachable by Tab at 1280 and 390, axe clean",
  async ({ t, srv, browser }) => {
    const asker = await member(t, "Asker");
    const qid = await ask(t, asker, {
      title: "Should a small team adopt the new framework this year?",
      description: "We are five people with a two-year-old codebase.",
    });
    const ids: string[] = [];
    for (const [i, text] of VIEWS.entries()) {
      ids.push(await answer(t, await member(t, `Person ${i + 1}`), qid, text));
    }
    // A first request schedules the job; the stand-in writes both.
    const first = await getAs(t, null, `/api/questions/${qid}/map`);
    assert.equal(first.status, 200);
    await first.body?.cancel();
    await waitForJobs();

    for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
      const context = await browser.newContext({ viewport, bypassCSP: true });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(`${srv.url}/questions/${qid}`);

      const summary = page.getByTestId("thread-summary");
      await summary.waitFor();
      assert.match(await summary.innerText(), /AI-written/);
      const cites = summary.locator("a.cite");
      assert.ok(await cites.count() > 0, "the summary cites answers");
      const citeHref = await cites.first().getAttribute("href");
      assert.ok(
        ids.some((id) => citeHref === `#${id}`),
        `a citation links to an answer: ${citeHref}`,
      );

      const map = page.getByTestId("opinion-map");
      assert.match(await map.innerText(), /AI-written/);
      const svg = page.getByTestId("opinion-map-svg");
      assert.ok(await svg.isVisible(), "the picture is visible");
      const box = (await svg.boundingBox())!;
      assert.ok(box.width > 300 && box.width <= viewport.width, `picture width ${box.width}`);
      const nodes = svg.locator("a.map-node");
      assert.equal(await nodes.count(), VIEWS.length);
      // Each answer's shape is a target of at least 24×24 px, on a phone too.
      const targets = await nodes.evaluateAll((els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return Math.min(r.width, r.height);
        })
      );
      assert.ok(Math.min(...targets) >= 24, `map targets at ${viewport.width}: ${targets}`);
      // Shapes say the stance besides colour: more than one kind of shape is drawn.
      const shapes = await svg.locator(".map-shape").evaluateAll((
        els,
      ) => [...new Set(els.map((e) => e.tagName))]);
      assert.ok(shapes.length >= 2, `shapes: ${shapes}`);
      // The text list names every answer too.
      assert.equal(await map.locator(".map-list a").count(), VIEWS.length);

      // Tab from the top of the page reaches the first node of the picture.
      await page.locator("body").focus();
      let reached = "";
      for (let i = 0; i < 80 && !reached; i++) {
        await page.keyboard.press("Tab");
        reached = await page.evaluate(() => {
          const el = document.activeElement;
          return el?.closest("svg.map-picture") ? el.getAttribute("href") ?? "" : "";
        });
      }
      assert.ok(reached, "Tab reaches a node of the map");
      const target = decodeURIComponent(reached.slice(1));
      assert.ok(ids.includes(target), `the node links to an answer: ${reached}`);
      await page.keyboard.press("Enter");
      await page.waitForFunction((id) => location.hash === `#${id}`, target);
      assert.ok(await page.locator(`[id="${target}"]`).isVisible());

      assert.deepEqual(await axeViolations(page), [], `axe at ${viewport.width}`);
      const overflow = await page.evaluate(() =>
        document.documentElement.scrollWidth - document.documentElement.clientWidth
      );
      assert.ok(overflow <= 0, `no sideways scroll at ${viewport.width} (${overflow}px)`);
      await summary.scrollIntoViewIfNeeded();
      await page.screenshot({
        path: `${SCREENSHOT_DIR}/insights-${viewport.width}.png`,
        fullPage: true,
      });
      await map.screenshot({ path: `${SCREENSHOT_DIR}/insights-map-${viewport.width}.png` });
      assert.deepEqual(errors, []);
      await context.close();
    }
  },
);
