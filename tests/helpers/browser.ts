/**
 * Headless Chromium through playwright-core (Debian's build; Playwright cannot download
 * browsers here). Screenshots land in tests/e2e/screenshots/.
 */
import { type Browser, chromium, type Page } from "playwright-core";
import { createTestApp, ROOT, serveOnLoopback, type TestApp, type TestAppOptions } from "./app.ts";

/** Flags that keep Chromium off the (closed) network and quiet. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export const SCREENSHOT_DIR = `${ROOT}/tests/e2e/screenshots`;

/**
 * Launch Chromium.
 *
 * @example
 * ```ts
 * const browser = await launchBrowser();
 * const page = await browser.newPage();
 * ```
 */
export async function launchBrowser(): Promise<Browser> {
  await Deno.mkdir(SCREENSHOT_DIR, { recursive: true });
  return await chromium.launch({
    executablePath: Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
}

/** What a {@link browserTest} body gets: the app, its loopback server, and Chromium. */
export interface BrowserTestContext {
  t: TestApp;
  srv: { url: string; port: number };
  browser: Browser;
}

/**
 * A browser test: the app over fresh KV on a loopback port and a Chromium instance, all
 * closed afterwards whatever happens.
 *
 * @example
 * ```ts
 * browserTest("the home page loads", async ({ srv, browser }) => {
 *   const page = await browser.newPage();
 *   await page.goto(srv.url);
 * });
 * ```
 */
export function browserTest(
  name: string,
  fn: (ctx: BrowserTestContext) => Promise<void>,
  opts: TestAppOptions = {},
): void {
  Deno.test({
    name,
    // Chromium and the server outlive single ops; they are closed in `finally`.
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const t = await createTestApp(opts);
      const srv = serveOnLoopback(t.app.fetch);
      const browser = await launchBrowser();
      try {
        await fn({ t, srv, browser });
      } finally {
        await browser.close();
        await srv.close();
        await t.close();
      }
    },
  });
}

/**
 * Wait until every island on the page has hydrated: a click before then reaches a
 * server-rendered button with no handler yet, and is lost.
 *
 * @example
 * ```ts
 * import type { Page } from "playwright-core";
 * declare const page: Page;
 * await hydrated(page);
 * ```
 */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll("parley-island")].every((e) =>
      (e as HTMLElement).dataset.hydrated === "true" || !e.hasAttribute("data-island")
    )
  ).catch(() => {});
  await page.waitForTimeout(150);
}
