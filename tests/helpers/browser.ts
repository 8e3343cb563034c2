/**
 * Headless Chromium through playwright-core (Debian's build; Playwright cannot download
 * browsers here). Screenshots land in tests/e2e/screenshots/.
 */
import { type Browser, chromium } from "playwright-core";
import { ROOT } from "./app.ts";

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
