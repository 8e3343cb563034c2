/**
 * Sign-in end to end in Chromium: through a local provider (the app on a real port with
 * APP_ORIGIN matching, so the callback really fetches the local token and profile
 * endpoints), the name in the header, the profile page, and signing out — all plain
 * links and forms under the production CSP.
 */
import assert from "node:assert/strict";
import { launchBrowser, SCREENSHOT_DIR } from "../helpers/browser.ts";
import { localModeServer } from "../helpers/oauth.ts";

Deno.test({
  name: "sign in through local provider_b, see the name in the header, sign out",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const srv = await localModeServer();
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));

      await page.goto(`${srv.origin}/`);
      await page.getByRole("link", { name: "Sign in" }).click();
      await page.waitForURL(`${srv.origin}/signin?returnTo=%2F`);
      // A signed-out visit to /profile asks to sign in and comes back afterwards.
      await page.goto(`${srv.origin}/profile`);
      await page.waitForURL(`${srv.origin}/signin?returnTo=%2Fprofile`);
      await page.getByTestId("local-signin-note").waitFor();
      await page.screenshot({ path: `${SCREENSHOT_DIR}/signin.png`, fullPage: true });

      await page.getByRole("link", { name: /Continue with Provider B/ }).click();
      await page.waitForURL(/\/local-oauth\/provider_b\/authorize\?/);
      await page.getByText("Local mode.").waitFor();
      await page.screenshot({ path: `${SCREENSHOT_DIR}/local-oauth-chooser.png`, fullPage: true });
      // Linus keeps his email private: the emails fallback supplies it.
      await page.getByTestId("local-account-2001").click();

      // Back where sign-in started, signed in.
      await page.waitForURL(`${srv.origin}/profile`);
      const name = page.getByTestId("user-name");
      await name.waitFor();
      assert.equal(await name.textContent(), "Linus Local");
      const cookies = await page.context().cookies();
      const session = cookies.find((c) => c.name === "parley_session");
      assert.ok(session?.httpOnly, "session cookie is HttpOnly");
      assert.ok(!cookies.some((c) => c.name.endsWith("_auth_payload")), "payload consumed");
      assert.ok(!cookies.some((c) => c.name.includes("oauth")), "flow cookies deleted");
      assert.equal(
        await page.evaluate(() => document.cookie.includes("parley_session")),
        false,
        "scripts cannot read the session cookie",
      );

      await page.getByRole("heading", { name: "Linus Local" }).waitFor();
      await page.getByText("Bound as Linus Local").waitFor();
      await page.screenshot({ path: `${SCREENSHOT_DIR}/profile-signed-in.png`, fullPage: true });
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Questions" })
        .click();
      await page.waitForURL(`${srv.origin}/`);
      assert.equal(await page.getByTestId("user-name").textContent(), "Linus Local");

      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(`${srv.origin}/`);
      await page.getByRole("link", { name: "Sign in" }).waitFor();
      assert.equal(await page.getByTestId("user-name").count(), 0);
      const after = await page.evaluate(async () => (await fetch("/api/auth/session")).status);
      assert.equal(after, 401);
      // The 401 above is expected; nothing else went wrong (no CSP violations).
      assert.deepEqual(errors.filter((e) => !/401/.test(e)), []);
    } finally {
      await browser.close();
      await srv.close();
    }
  },
});

Deno.test({
  name: "cancelling sign-in at the provider says “Sign-in cancelled” neutrally, not a red failure",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const srv = await localModeServer();
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${srv.origin}/signin`);
      await page.getByRole("link", { name: /Continue with Provider C/ }).click();
      await page.getByRole("button", { name: "Cancel and return to Parley" }).click();
      await page.waitForURL(`${srv.origin}/?error=oauth_error`);
      const banner = page.getByTestId("signin-cancelled");
      await banner.waitFor();
      assert.match((await banner.textContent()) ?? "", /^Sign-in cancelled\./);
      assert.equal(await page.getByTestId("signin-error").count(), 0);
      assert.equal(await banner.getAttribute("role"), "status");
      assert.match(await banner.getAttribute("class") ?? "", /alert-info/);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/signin-error.png` });
    } finally {
      await browser.close();
      await srv.close();
    }
  },
});
