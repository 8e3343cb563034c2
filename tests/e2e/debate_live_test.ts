/**
 * The live debate page follows the stream: new text stays in the viewport (desktop and
 * phone), focus moves to the transcript, and a dropped connection resumes through
 * GET /api/debates/:id/events without duplicated or lost text.
 */
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { createTestApp, serveOnLoopback, signInAs, type TestApp } from "../helpers/app.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { type FakeCall, startFakeLlm, textOfLength, VALID_SYNTHESIS } from "../helpers/fake_llm.ts";

const slow = (c: FakeCall) =>
  c.stream
    ? { text: textOfLength(180, `c${c.index}w`), tokenDelayMs: 25 }
    : { text: VALID_SYNTHESIS };

async function pageFor(
  browser: Browser,
  t: TestApp,
  url: string,
  viewport: { width: number; height: number },
) {
  const { cookie } = await signInAs(t, "Ada");
  const [name, value] = cookie.split("=");
  const context = await browser.newContext({ viewport });
  await context.addCookies([{ name, value, url }]);
  return { page: await context.newPage(), cookie };
}

/** Cut a streamed response after `frames` SSE frames (the connection drops). */
function cutAfter(res: Response, frames: number): Response {
  let seen = 0;
  const decoder = new TextDecoder();
  const body = res.body!.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, c) {
        seen += (decoder.decode(chunk, { stream: true }).match(/\n\n/g) ?? []).length;
        c.enqueue(chunk);
        if (seen >= frames) c.error(new Error("[expected] the test drops the connection"));
      },
    }),
  );
  return new Response(body, { status: res.status, headers: res.headers });
}

/**
 * A browser test against a debate-ready app: the slow fake model, the app on loopback (or the
 * test's own handler around it), Chromium — all closed afterwards.
 */
function debateBrowserTest(
  name: string,
  fn: (ctx: { t: TestApp; srv: { url: string }; browser: Browser }) => Promise<void>,
  serve: (t: TestApp) => Deno.ServeHandler = (t) => t.app.fetch,
): void {
  Deno.test({
    name,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const llm = startFakeLlm(slow);
      const t = await createTestApp({ env: llm.env });
      const srv = serveOnLoopback(serve(t));
      const browser = await launchBrowser();
      try {
        await fn({ t, srv, browser });
      } finally {
        await browser.close();
        await srv.close();
        await t.close();
        await llm.close();
      }
    },
  });
}

debateBrowserTest(
  "the live debate keeps new text in the viewport at 1280×800 and 390×844 and focuses the transcript",
  async ({ t, srv, browser }) => {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      const { page } = await pageFor(browser, t, srv.url, viewport);
      await page.goto(`${srv.url}/debate`);
      await page.waitForSelector('html[data-islands="ready"]');
      await page.getByLabel("Topic").fill(`Should cities ban cars? ${viewport.width}`);
      // After every text change, check 500 ms later that the newest turn is on screen.
      await page.evaluate(() => {
        const w = window as unknown as { misses: string[]; checks: number };
        w.misses = [];
        w.checks = 0;
        new MutationObserver(() => {
          const phase = document.querySelector(".debate-live")?.getAttribute("data-phase");
          if (phase !== "debating") return;
          setTimeout(() => {
            const live = document.querySelector(".debate-live")?.getAttribute("data-phase");
            if (live !== "debating") return;
            // The reader scrolled up on purpose ("Jump to live" is offered): not a miss.
            if (document.querySelector('[data-testid="debate-jump"]')) return;
            if ((window as unknown as { readerUp?: boolean }).readerUp) return;
            const items = document.querySelectorAll("#debate-transcript > li");
            const last = items[items.length - 1];
            if (!last) return;
            const r = last.getBoundingClientRect();
            w.checks++;
            if (r.bottom > innerHeight + 1 || r.bottom < 0) {
              w.misses.push(`${items.length}: bottom ${Math.round(r.bottom)} of ${innerHeight}`);
            }
          }, 500);
        }).observe(document.body, { childList: true, subtree: true, characterData: true });
      });
      await page.getByRole("button", { name: "Start the debate" }).click();
      await page.locator('[data-testid="debate-turn"]').first().waitFor();
      // Focus moves in an effect, which runs after the paint that showed the first turn:
      // on a loaded machine a moment later, so wait for it (a few seconds at most).
      await page.waitForFunction(() => document.activeElement?.id === "debate-transcript", null, {
        timeout: 5000,
      }).catch(() => {});
      assert.equal(
        await page.evaluate(() => document.activeElement?.id),
        "debate-transcript",
        "focus moved to the transcript",
      );
      assert.equal(await page.locator("#debate-transcript").getAttribute("aria-live"), "polite");
      assert.equal(await page.locator("#debate-transcript").getAttribute("tabindex"), "-1");
      await page.locator('[data-testid="debate-turn"]').nth(5).waitFor({ timeout: 30_000 });
      // The reader scrolls up: the view stays put and offers "Jump to live".
      await page.evaluate(() => {
        (window as unknown as { readerUp?: boolean }).readerUp = true;
        scrollTo(0, 0);
      });
      await page.getByTestId("debate-jump").waitFor({ timeout: 5_000 });
      const y = await page.evaluate(() => scrollY);
      assert.equal(y, 0, "the page does not pull a reader who scrolled up");
      await page.getByTestId("debate-jump").click();
      await page.evaluate(() => (window as unknown as { readerUp?: boolean }).readerUp = false);
      await page.waitForTimeout(300);
      const after = await page.evaluate(() => {
        const items = document.querySelectorAll("#debate-transcript > li");
        return items[items.length - 1].getBoundingClientRect().bottom <= innerHeight + 1;
      });
      assert.ok(after, "Jump to live brings the newest text back into view");
      await page.getByTestId("synthesis").waitFor({ timeout: 60_000 });
      const { misses, checks } = await page.evaluate(() => {
        const w = window as unknown as { misses: string[]; checks: number };
        return { misses: w.misses, checks: w.checks };
      });
      console.log(`${viewport.width}×${viewport.height}: ${checks} in-view checks`);
      assert.ok(checks > 20, `enough checks (${checks})`);
      assert.deepEqual(misses, [], `newest text stayed in view at ${viewport.width}px`);
      await page.context().close();
    }
  },
);

// The drops of the resume test: what each /events request sent as Last-Event-ID.
const lastEventIds: (string | null)[] = [];
let eventsCalls = 0;

debateBrowserTest(
  "a dropped debate stream resumes through /events (Last-Event-ID on the second drop) and completes without duplicated text",
  async ({ t, srv, browser }) => {
    const { page, cookie } = await pageFor(browser, t, srv.url, { width: 1280, height: 800 });
    await page.goto(`${srv.url}/debate`);
    await page.waitForSelector('html[data-islands="ready"]');
    await page.evaluate(() => {
      const w = window as unknown as { sawReconnecting: boolean };
      w.sawReconnecting = false;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="debate-reconnecting"]')) {
          w.sawReconnecting = true;
        }
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByLabel("Topic").fill("Should cities ban cars downtown?");
    await page.getByRole("button", { name: "Start the debate" }).click();
    await page.getByTestId("synthesis").waitFor({ timeout: 60_000 });
    assert.ok(
      await page.evaluate(() =>
        (window as unknown as { sawReconnecting: boolean })
          .sawReconnecting
      ),
      "a Reconnecting… status showed",
    );
    assert.ok(eventsCalls >= 2, "resumed twice");
    assert.equal(lastEventIds[0], null, "the first resume replays from the start");
    assert.match(String(lastEventIds[1]), /^\d+$/, "the second resumes after the last id");
    const shown = await page.locator('[data-testid="debate-turn"] p').allTextContents();
    const id = (await page.getByTestId("debate-saved").locator("a").getAttribute("href"))!
      .split("/").at(-1)!;
    const saved = await (await t.request(`/api/debates/${id}`, { headers: { cookie } })).json();
    assert.equal(saved.messages.length, 10);
    assert.deepEqual(
      shown.map((s) => s.trim()),
      saved.messages.map((m: { content: string }) => m.content),
      "each turn shows its text exactly once",
    );
  },
  (t) => async (req, info) => {
    const url = new URL(req.url);
    const res = await t.app.fetch(req, info);
    if (req.method === "POST" && url.pathname === "/api/debate" && res.ok) {
      return cutAfter(res, 40); // init + some turns, then the line drops
    }
    if (url.pathname.endsWith("/events")) {
      lastEventIds.push(req.headers.get("last-event-id"));
      if (eventsCalls++ === 0) return cutAfter(res, 30);
    }
    return res;
  },
);

debateBrowserTest(
  "Share offers the public debate's link through the Web Share API, else copies it; Stop leaves the debate running and saved",
  async ({ t, srv, browser }) => {
    for (const mode of ["share", "copy"] as const) {
      const { page, cookie } = await pageFor(browser, t, srv.url, { width: 1280, height: 800 });
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"], {
        origin: srv.url,
      });
      await page.addInitScript((m: string) => {
        const w = window as unknown as { shared: unknown[] };
        w.shared = [];
        if (m === "share") {
          Object.defineProperty(navigator, "share", {
            value: (data: unknown) => {
              w.shared.push(data);
              return Promise.resolve();
            },
          });
        } else {
          Object.defineProperty(navigator, "share", { value: undefined });
        }
      }, mode);
      await page.goto(`${srv.url}/debate`);
      await page.waitForSelector('html[data-islands="ready"]');
      await page.getByLabel("Topic").fill(`Share test ${mode}`);
      await page.getByRole("button", { name: "Start the debate" }).click();
      await page.getByTestId("debate-share").click();
      let url: string;
      if (mode === "share") {
        const shared = await page.evaluate(() =>
          (window as unknown as { shared: { url: string }[] }).shared
        );
        assert.equal(shared.length, 1);
        url = shared[0].url;
      } else {
        await page.getByText("Link copied.").waitFor();
        url = await page.evaluate(() => navigator.clipboard.readText());
      }
      assert.match(url, new RegExp(`^${srv.url}/debates/debate_\\d+_[a-z0-9]+$`));
      // Stop: the client stops following; the server finishes and saves the debate.
      await page.getByTestId("debate-stop").click();
      await page.getByTestId("debate-stopped").waitFor();
      const id = url.split("/").at(-1)!;
      let status = "in_progress";
      for (let i = 0; i < 200 && status === "in_progress"; i++) {
        await new Promise((r) => setTimeout(r, 100));
        status = (await (await t.request(`/api/debates/${id}`, { headers: { cookie } })).json())
          .status;
      }
      assert.equal(status, "completed", "the stopped debate completed server-side");
      await page.context().close();
    }
  },
);
