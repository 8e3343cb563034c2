/**
 * Connecting an app in Chromium: the consent page names the app and where it returns,
 * the person unticks `write` and allows, and the browser really reaches the app's
 * loopback redirect URI (the page's CSP lets its form end there: Chromium checks a form's
 * redirects against `form-action`); the code gives a read-only token; the app shows under
 * Connected apps on the profile and Revoke (with a confirmation) ends its token. The key
 * panel creates a read-only key that is refused a write.
 */
import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import { signInAs, type TestApp } from "../helpers/app.ts";
import { axeViolations } from "../helpers/axe.ts";
import { browserTest, SCREENSHOT_DIR } from "../helpers/browser.ts";
import { authorizePath, formPost, pkce, registerApp } from "../helpers/mcp_oauth.ts";

async function signedIn(t: TestApp, context: BrowserContext, url: string, name: string) {
  const { cookie } = await signInAs(t, name);
  const [cookieName, value] = cookie.split("=");
  await context.addCookies([{ name: cookieName, value, url }]);
}

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  return errors;
}

/** The app's side: a loopback server that records the redirect it receives. */
function appCallback() {
  const received: URL[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    // (Chromium also asks the app for its favicon.)
    if (url.pathname === "/callback") received.push(url);
    return new Response("<!doctype html><title>App</title><p>Connected.</p>", {
      headers: { "content-type": "text/html" },
    });
  });
  const port = (server.addr as Deno.NetAddr).port;
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    received,
    close: () => server.shutdown(),
  };
}

browserTest(
  "oauth consent in the browser: untick write, allow, land on the app's loopback redirect; the read-only token reads only; revoke from Connected apps",
  async ({ t, srv, browser }) => {
    const callback = appCallback();
    try {
      const req = (u: string, init?: RequestInit) => fetch(new URL(u, srv.url), init);
      const app = await registerApp(req, callback.redirectUri, "Browser Test App");
      const { verifier, challenge } = pkce();
      const context = await browser.newContext();
      await signedIn(t, context, srv.url, "Ada");
      const page = await context.newPage();
      const errors = collectErrors(page);
      await page.goto(srv.url + authorizePath(app, challenge));
      await page.getByTestId("consent-client").getByText("Browser Test App").waitFor();
      assert.equal(await page.getByTestId("consent-redirect").textContent(), callback.redirectUri);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/oauth-consent.png` });
      await page.getByRole("checkbox", { name: /write/ }).uncheck();
      await Promise.all([
        page.waitForURL((u) => u.href.startsWith(callback.redirectUri)),
        page.getByRole("button", { name: "Allow" }).click(),
      ]);
      await page.getByText("Connected.").waitFor();
      assert.equal(callback.received.length, 1);
      const back = callback.received[0];
      assert.equal(back.searchParams.get("state"), "state-123");
      const code = back.searchParams.get("code");
      assert.ok(code);

      const tokenRes = await formPost(req, "/oauth/token", {
        grant_type: "authorization_code",
        code,
        redirect_uri: app.redirectUri,
        client_id: app.clientId,
        code_verifier: verifier,
      });
      assert.equal(tokenRes.status, 200);
      const tokens = await tokenRes.json() as { access_token: string; scope: string };
      assert.equal(tokens.scope, "read");
      const bearer = { authorization: `Bearer ${tokens.access_token}` };
      const read = await fetch(`${srv.url}/api/agent/questions`, { headers: bearer });
      assert.equal(read.status, 200);
      await read.body?.cancel();
      const write = await fetch(`${srv.url}/api/agent/questions`, {
        method: "POST",
        headers: { ...bearer, "content-type": "application/json" },
        body: JSON.stringify({ title: "Not with read" }),
      });
      assert.equal(write.status, 403);
      assert.deepEqual(await write.json(), { error: "This token lacks the write scope" });

      await page.goto(`${srv.url}/profile#connected-apps`);
      await page.waitForSelector('html[data-islands="ready"]');
      const list = page.getByTestId("app-list");
      await list.getByText("Browser Test App", { exact: true }).waitFor();
      assert.match((await list.textContent()) ?? "", /read/);
      await page.locator("#connected-apps").screenshot({
        path: `${SCREENSHOT_DIR}/connected-apps.png`,
      });
      await page.getByRole("button", { name: /Revoke app Browser Test App/ }).click();
      await page.getByRole("button", { name: /Confirm revoke/ }).click();
      await page.getByText("No connected apps.").waitFor();
      const after = await fetch(`${srv.url}/api/agent/me`, { headers: bearer });
      assert.equal(after.status, 401);
      await after.body?.cancel();
      assert.deepEqual(errors, []);
    } finally {
      await callback.close();
    }
  },
);

browserTest(
  "agent key panel: a key made with read only is listed as read and refused a write",
  async ({ t, srv, browser }) => {
    const context = await browser.newContext();
    await signedIn(t, context, srv.url, "Ada");
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(`${srv.url}/profile/agent-keys`);
    await page.waitForSelector('html[data-islands="ready"]');
    await page.getByLabel("Key name").fill("reader");
    await page.getByRole("checkbox", { name: /write/ }).uncheck();
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.getByTestId("new-key").textContent())!;
    await page.getByTestId("key-list").getByText("reader", { exact: true }).waitFor();
    assert.equal(await page.getByTestId("key-scopes").textContent(), "read");
    // Unticking both is refused before anything is sent.
    await page.getByRole("checkbox", { name: /read/ }).uncheck();
    await page.getByRole("checkbox", { name: /write/ }).uncheck();
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByRole("alert").filter({ hasText: "at least one" }).waitFor();
    const res = await fetch(`${srv.url}/api/agent/questions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Refused" }),
    });
    assert.equal(res.status, 403);
    assert.deepEqual(await res.json(), { error: "This key lacks the write scope" });
    assert.deepEqual(errors, []);
  },
);

browserTest(
  "the consent page and its error page pass axe-core at 1280 and 390",
  async ({ t, srv, browser }) => {
    const req = (u: string, init?: RequestInit) => fetch(new URL(u, srv.url), init);
    const app = await registerApp(req, "http://127.0.0.1:9/callback", "Axe App");
    const { challenge } = pkce();
    const { cookie } = await signInAs(t, "Ada");
    const [cookieName, value] = cookie.split("=");
    const failures: string[] = [];
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      // bypassCSP: axe-core is injected as an inline script.
      const ctx = await browser.newContext({ viewport, bypassCSP: true });
      await ctx.addCookies([{ name: cookieName, value, url: srv.url }]);
      const page = await ctx.newPage();
      for (
        const path of [
          authorizePath(app, challenge),
          authorizePath({ ...app, clientId: "client_nope" }, challenge),
        ]
      ) {
        await page.goto(srv.url + path);
        for (const v of await axeViolations(page)) failures.push(`${viewport.width} ${path}: ${v}`);
      }
      await ctx.close();
    }
    assert.deepEqual(failures, []);
  },
);
