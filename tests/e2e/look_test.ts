/**
 * The look of the signed-in pages (issue 27, items 1 and 9): on phones from 320 to 390 px no
 * page scrolls sideways with a two-word display name (the moderation log included); at
 * 1280 the header is one row with any name up to 40 characters, and the header and every
 * page's body start at the same x. Screenshots of home, a question, /mod and /profile at
 * 1280 and 390 land in tests/e2e/screenshots/look-*.png.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { axeViolations } from "../helpers/axe.ts";
import { type Member, member } from "../helpers/community.ts";
import { seedThread } from "../helpers/look_seed.ts";
import { browserTest, SCREENSHOT_DIR } from "../helpers/browser.ts";

/** How far the page scrolls sideways (0 when nothing overflows). */
async function sideways(page: Page): Promise<number> {
  return await page.evaluate(() => document.documentElement.scrollWidth - globalThis.innerWidth);
}

async function signedInPage(
  browser: Browser,
  srv: { url: string },
  who: Member,
  width: number,
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height: width >= 1000 ? 800 : 844 },
    bypassCSP: true,
  });
  const [name, value] = who.cookie.split("=");
  await context.addCookies([{ name, value, url: srv.url }]);
  return await context.newPage();
}

browserTest(
  "signed in with a two-word name, no page scrolls sideways at 320, 360 and 390 px",
  async ({ t, srv, browser }) => {
    const mod = await member(t, "Grace Hopper");
    t.services.config.moderators = [mod.id];
    const qid = await seedThread(t, mod);
    const paths = ["/", `/questions/${qid}`, "/mod", "/profile", `/u/${mod.id}`, "/ask"];
    for (const width of [320, 360, 390]) {
      const page = await signedInPage(browser, srv, mod, width);
      for (const path of paths) {
        await page.goto(`${srv.url}${path}`);
        assert.equal(await sideways(page), 0, `${path} scrolls sideways at ${width} px`);
        const signOut = await page.getByRole("button", { name: "Sign out" }).boundingBox();
        assert.ok(signOut, `${path}: Sign out is shown at ${width} px`);
        assert.ok(signOut.x + signOut.width <= width, `${path}: Sign out is off-screen`);
        if (path === "/mod") {
          // The log table scrolls inside its own box rather than widening the page.
          const table = await page.locator(".table-scroll").boundingBox();
          assert.ok(table, "the moderation log is shown");
          assert.ok(table.x >= 0 && table.x + table.width <= width, "the log fits");
        }
        if (width === 390) {
          const shot = { "/": "home", "/mod": "mod", "/profile": "profile" }[path] ??
            (path.startsWith("/questions/") ? "question" : null);
          if (shot) await page.screenshot({ path: `${SCREENSHOT_DIR}/look-${shot}-390.png` });
          if (path !== "/ask") {
            assert.deepEqual(await axeViolations(page), [], `${path} at 390`);
          }
        }
      }
      await page.context().close();
    }
  },
);

browserTest(
  "at 1280 the header is one row with a 40-character name and shares the body's container",
  async ({ t, srv, browser }) => {
    const mod = await member(t, "Maximiliana Wolkenstein-Rosenthal Brandt");
    assert.equal(mod.name.length, 40);
    t.services.config.moderators = [mod.id];
    const qid = await seedThread(t, mod);
    const page = await signedInPage(browser, srv, mod, 1280);
    const shots: Record<string, string> = {
      "/": "home",
      [`/questions/${qid}`]: "question",
      "/mod": "mod",
      "/profile": "profile",
    };
    for (const path of [...Object.keys(shots), "/ask", "/debate", "/docs/api", `/u/${mod.id}`]) {
      await page.goto(`${srv.url}${path}`);
      const layout = await page.evaluate(() => {
        const box = (sel: string) => document.querySelector(sel)!.getBoundingClientRect();
        const brand = box(".site-header .brand");
        const header = box(".site-header .container");
        // The page's first visible block (a heading, a card, a form).
        const first = [...document.querySelectorAll("main .container > *")]
          .map((el) => el.getBoundingClientRect())
          .find((r) => r.height > 0)!;
        const body = box("main .container");
        const name = document.querySelector<HTMLElement>("[data-testid='user-name']")!;
        const items = [...document.querySelectorAll(".site-header .container > *")]
          .map((el) => el.getBoundingClientRect())
          .filter((r) => r.height > 0);
        return {
          brandX: brand.x,
          firstX: first.x,
          header: [header.x, header.width],
          body: [body.x, body.width],
          headerHeight: header.height,
          tallestItem: Math.max(...items.map((r) => r.height)),
          oneRow: items.every((r) => r.top < brand.bottom && r.bottom > brand.top),
          nameEllipsis: getComputedStyle(name).textOverflow === "ellipsis",
        };
      });
      assert.deepEqual(layout.body, layout.header, `${path}: the body's column is the header's`);
      assert.equal(layout.firstX, layout.brandX, `${path}: the page starts at the logo's x`);
      assert.ok(
        layout.headerHeight < layout.tallestItem * 2,
        `${path}: the header is ${layout.headerHeight}px high (two rows)`,
      );
      assert.ok(layout.oneRow, `${path}: header items sit on one row`);
      assert.ok(layout.nameEllipsis, "a long name ends in an ellipsis");
      assert.equal(await sideways(page), 0, `${path} scrolls sideways at 1280`);
      if (shots[path]) {
        await page.screenshot({ path: `${SCREENSHOT_DIR}/look-${shots[path]}-1280.png` });
        assert.deepEqual(await axeViolations(page), [], `${path} at 1280`);
      }
    }
  },
);
