/**
 * The strict CSP: `script-src 'self'` with no nonce and no 'unsafe-inline',
 * and every island on every page that has one still hydrates under it — signed in and
 * signed out (the signed-out pages come from the page cache on the second load).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { signInAs } from "../helpers/app.ts";
import { answer, ask, member } from "../helpers/community.ts";
import { browserTest } from "../helpers/browser.ts";

/** Records CSP violations (before any page script runs) and console/page errors. */
async function watch(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return problems;
}

async function assertHydrated(page: Page, url: string, problems: string[]): Promise<number> {
  const res = await page.goto(url);
  assert.equal(res?.status(), 200, url);
  const csp = (await res!.allHeaders())["content-security-policy"];
  assert.ok(csp, `${url} has a CSP`);
  assert.match(csp, /script-src 'self'(;|$)/, url);
  assert.doesNotMatch(csp, /unsafe-inline|nonce-/, url);
  await page.waitForSelector('html[data-islands="ready"]', { timeout: 10_000 });
  const states = await page.$$eval(
    "parley-island",
    (els) => els.map((el) => el.getAttribute("data-hydrated")),
  );
  assert.ok(states.length > 0, `${url} has islands`);
  assert.deepEqual(states.filter((s) => s !== "true"), [], `${url}: every island hydrated`);
  // No inline script at all: the boot code is an immutable file. Data blocks (island props,
  // the question page's JSON-LD) are never run, so they are not scripts here.
  const DATA_TYPES = ["application/json", "application/ld+json"];
  const inline = await page.$$eval(
    "script:not([src])",
    (els, data) => els.filter((e) => !data.includes((e as HTMLScriptElement).type)).length,
    DATA_TYPES,
  );
  assert.equal(inline, 0, `${url} has no inline script`);
  assert.deepEqual(problems, [], url);
  return states.length;
}

browserTest(
  "every island hydrates under the strict CSP (no nonce, no 'unsafe-inline'), signed in and out",
  async ({ t, srv, browser }) => {
    const asker = await member(t, "Asker");
    const answerer = await member(t, "Answerer");
    const q = { id: await ask(t, asker, { title: "Does every island hydrate under the CSP?" }) };
    await answer(t, answerer, q.id, "It should, since the boot script is a file.");

    // Signed out: the home page and a question page, twice each (second from the cache).
    const out = await browser.newPage();
    const outProblems = await watch(out);
    for (const path of ["/", `/questions/${q.id}`, "/", `/questions/${q.id}`]) {
      await assertHydrated(out, `${srv.url}${path}`, outProblems);
    }

    // Signed in: every page with islands (vote/favorite, forms, agent, debate, profile).
    const context = await browser.newContext();
    const { cookie } = await signInAs(t, "Viewer");
    const [name, value] = cookie.split("=");
    await context.addCookies([{ name, value, url: srv.url }]);
    const page = await context.newPage();
    const problems = await watch(page);
    const counts: Record<string, number> = {};
    for (
      const path of [
        "/",
        `/questions/${q.id}`,
        "/ask",
        "/debate",
        "/profile",
        "/profile/agent-keys",
      ]
    ) {
      counts[path] = await assertHydrated(page, `${srv.url}${path}`, problems);
    }
    // The question page holds the vote and favorite islands of the question and its answer.
    assert.ok(counts[`/questions/${q.id}`] >= 4, JSON.stringify(counts));
    await context.close();
  },
);
