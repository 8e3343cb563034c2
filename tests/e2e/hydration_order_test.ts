/**
 * Islands hydrate in slices, those in the viewport first: on a phone-sized window of a
 * long question page opened at an answer halfway down, every island the person can see is
 * hydrated before any island above or below the viewport, every island ends up hydrated,
 * and the page's controls work after.
 */
import assert from "node:assert/strict";
import { answer, ask, member } from "../helpers/community.ts";
import { browserTest } from "../helpers/browser.ts";

browserTest(
  "on a long question page opened at an answer, the islands in view hydrate before those above and below it, and all of them do",
  async ({ t, srv, browser }) => {
    const asker = await member(t, "Asker");
    const qid = await ask(t, asker, { title: "Which islands wake first?", tags: ["islands"] });
    const people = await Promise.all(["Ada", "Bo", "Cy", "Di", "Ed"].map((n) => member(t, n)));
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      ids.push(
        await answer(
          t,
          people[i % people.length],
          qid,
          `Answer ${i}: wake the visible ones first.`,
        ),
      );
    }
    const viewer = await member(t, "Viewer");
    const [name, value] = viewer.cookie.split(/=(.*)/s);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addCookies([{ name, value, url: srv.url }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // A phone-speed CPU, so hydration takes several slices.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await page.addInitScript(() => {
      const order: string[] = [];
      (globalThis as unknown as { hydrationOrder: string[] }).hydrationOrder = order;
      new MutationObserver((records) => {
        for (const r of records) {
          const el = r.target as HTMLElement;
          if (el.dataset.hydrated === "true" && el.dataset.i) order.push(el.dataset.i);
        }
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-hydrated"] });
    });
    // Opened at an answer halfway down (a link to it), so the viewport is not the top of
    // the document: document order alone would wake the islands above it first.
    await page.goto(`${srv.url}/questions/${qid}#${ids[10]}`);
    await page.waitForSelector('html[data-islands="ready"]', { timeout: 30_000 });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });

    assert.ok(await page.evaluate(() => scrollY > 0), "opened scrolled to the answer");
    const islands = await page.$$eval("parley-island[data-i]", (els) =>
      els.map((el) => {
        const box = (el.firstElementChild ?? el).getBoundingClientRect();
        return {
          i: (el as HTMLElement).dataset.i!,
          hydrated: (el as HTMLElement).dataset.hydrated === "true",
          visible: box.bottom >= 0 && box.top <= innerHeight,
        };
      }));
    const order = await page.evaluate(() =>
      (globalThis as unknown as { hydrationOrder: string[] }).hydrationOrder
    );
    assert.ok(islands.length > 60, `a long page: ${islands.length} islands`);
    assert.deepEqual(islands.filter((x) => !x.hydrated), [], "every island hydrated");
    assert.equal(new Set(order).size, islands.length, "each hydrated once");
    const position = new Map(order.map((i, k) => [i, k]));
    const seen = islands.filter((x) => x.visible).map((x) => position.get(x.i)!);
    const away = islands.filter((x) => !x.visible).map((x) => position.get(x.i)!);
    assert.ok(seen.length > 0 && away.length > 0, `${seen.length} seen, ${away.length} away`);
    assert.ok(
      Math.max(...seen) < Math.min(...away),
      `the viewport's islands first: seen at ${seen}, the others from ${Math.min(...away)}`,
    );

    // An island far below the fold works once reached: the last answer's vote.
    const last = page.getByRole("group", { name: /Votes on .+'s answer/ }).last();
    await last.scrollIntoViewIfNeeded();
    await last.getByRole("button", { name: /^Upvote/ }).click();
    await last.locator('button[aria-pressed="true"]').waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  },
);
