/**
 * — what a new user hit, in Chromium at 1280×800 and 390×844: sign-in methods,
 * avatars with initials, the header after saving, profile section links, tap targets,
 * the private-debate page, and axe-core (WCAG 2.1 A/AA + best practices) on every page,
 * signed in and out.
 */
import assert from "node:assert/strict";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createQuestion } from "@/lib/community/questions/write.ts";
import { addMessage } from "@/lib/community/messages/write.ts";
import { flagPost } from "@/lib/moderation/moderation.ts";
import { createDebate, type DebateRecord, newDebateId } from "@/lib/debates/store.ts";
import { saveSettings } from "@/lib/profile/settings.ts";
import { sealIdentity, setIdentity } from "@/lib/auth/identities.ts";
import { signInAs, type TestApp } from "../helpers/app.ts";
import { axeViolations } from "../helpers/axe.ts";
import { browserTest, SCREENSHOT_DIR } from "../helpers/browser.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function context(
  browser: Browser,
  t: TestApp,
  url: string,
  name: string | null,
  viewport = DESKTOP,
): Promise<{ ctx: BrowserContext; userId: string | null }> {
  const ctx = await browser.newContext({ viewport });
  if (!name) return { ctx, userId: null };
  const { user, cookie } = await signInAs(t, name);
  const [cookieName, value] = cookie.split("=");
  await ctx.addCookies([{ name: cookieName, value, url }]);
  return { ctx, userId: user.id };
}

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return errors;
}

async function debate(t: TestApp, userId: string, topic: string): Promise<string> {
  const now = Date.now();
  const record: DebateRecord = {
    id: newDebateId(now),
    userId,
    topic,
    userProfile: { id: userId, name: "Ada", avatar: null, bio: "" },
    opponentProfile: {
      id: "persona-1",
      name: "Dr. Vega",
      avatar: "/favicon.ico",
      bio: "Economist",
      title: "Economist",
    },
    status: "completed",
    synthesis: null,
    messageCount: 0,
    standIn: true,
    createdAt: now,
    updatedAt: now,
  };
  assert.ok(await createDebate(t.kv, record));
  return record.id;
}

browserTest(
  "sign-in methods: with one method bound, the only-method note shows once, beside it",
  async ({ t, srv, browser }) => {
    const { ctx, userId } = await context(browser, t, srv.url, "Solo");
    const rec = await sealIdentity(t.services.secret, {
      provider: "provider_a",
      canonicalUserId: userId!,
      profile: { providerAccountId: "solo-a", name: "Solo", email: null, avatar: null, bio: "" },
      tokens: { accessToken: "at", refreshToken: null, expiresAt: null },
      now: Date.now(),
    });
    await setIdentity(t.kv.atomic(), rec).commit();
    const page = await ctx.newPage();
    await page.goto(`${srv.url}/profile#sign-in-methods`);
    const section = page.getByTestId("sign-in-methods");
    const rows = section.locator("li[data-provider]");
    assert.equal(await rows.count(), 3, "three providers in local mode");
    const notes = section.getByTestId("only-method");
    assert.equal(await notes.count(), 1, "the note appears once");
    const bound = section.locator("li", { has: page.getByText(/^Bound as/) });
    assert.equal(await bound.count(), 1);
    assert.equal(await bound.getByTestId("only-method").count(), 1, "next to the bound method");
    for (const row of await section.locator("li", { hasText: "Not bound" }).all()) {
      assert.equal(await row.getByTestId("only-method").count(), 0);
    }
    await section.screenshot({ path: `${SCREENSHOT_DIR}/sign-in-methods-one.png` });
  },
);

browserTest(
  "avatars: initials when cleared or broken, everywhere; the header follows a save at once",
  async ({ t, srv, browser }) => {
    const { ctx } = await context(browser, t, srv.url, "Ada Lovelace");
    const page = await ctx.newPage();
    const errors = collectErrors(page);
    await page.goto(`${srv.url}/profile`);
    await page.waitForSelector('html[data-islands="ready"]');
    const header = page.getByTestId("user-avatar");
    const summary = page.getByTestId("profile-avatar");
    // No avatar: initials in the header and the profile, never an empty circle.
    assert.equal((await header.innerText()).trim(), "AL");
    assert.equal((await summary.innerText()).trim(), "AL");

    // A broken URL: accepted, but the initials show and no alt text spills out.
    const broken = `${srv.url}/no-such-image.png`;
    await page.getByRole("textbox", { name: "Avatar URL" }).fill(broken);
    await page.getByRole("textbox", { name: "Display name" }).fill("Grace Hopper");
    await page.getByRole("button", { name: "Save profile" }).click();
    await page.getByText("Profile saved.").waitFor();
    // Without a reload: the header name and avatar follow the save.
    assert.equal(await page.getByTestId("user-name").innerText(), "Grace Hopper");
    assert.equal((await header.locator(".avatar-fallback").innerText()).trim(), "GH");
    assert.equal(await header.locator("img").getAttribute("src"), broken);
    await page.reload();
    for (const el of [page.getByTestId("user-avatar"), page.getByTestId("profile-avatar")]) {
      const img = el.locator("img");
      await img.scrollIntoViewIfNeeded();
      await page.waitForFunction(
        (i) => (i as HTMLImageElement).complete,
        await img.elementHandle(),
        { timeout: 5000 },
      );
      assert.equal(await img.evaluate((i: HTMLImageElement) => i.naturalWidth), 0, "broken");
      assert.equal(await img.getAttribute("alt"), "", "no alt text to spill");
      assert.equal((await el.locator(".avatar-fallback").innerText()).trim(), "GH");
      const [box, fallback] = [
        await el.boundingBox(),
        await el.locator(".avatar-fallback")
          .boundingBox(),
      ];
      assert.ok(box && fallback);
      assert.ok(
        fallback.x >= box.x && fallback.x + fallback.width <= box.x + box.width + 0.5,
        "initials inside the circle",
      );
    }
    await page.getByTestId("profile-summary").screenshot({
      path: `${SCREENSHOT_DIR}/avatar-broken-initials.png`,
    });

    // Cleared: initials again, and the header follows without a reload.
    await page.getByRole("textbox", { name: "Avatar URL" }).fill("");
    await page.getByRole("button", { name: "Save profile" }).click();
    await page.getByText("Profile saved.").waitFor();
    assert.equal(await page.getByTestId("user-avatar").locator("img").count(), 0);
    assert.equal(await page.getByTestId("profile-avatar").locator("img").count(), 0);
    assert.equal((await page.getByTestId("user-avatar").innerText()).trim(), "GH");
    assert.deepEqual(errors, []);
  },
);

browserTest(
  "the bio renders inline Markdown, sanitized",
  async ({ t, srv, browser }) => {
    const { ctx, userId } = await context(browser, t, srv.url, "Ada");
    const page = await ctx.newPage();
    await page.goto(`${srv.url}/profile`);
    await page.waitForSelector('html[data-islands="ready"]');
    await page.getByRole("textbox", { name: "Bio" }).fill(
      "Likes **engines** <script>alert(1)</script> [site](javascript:alert(1))",
    );
    await page.getByRole("button", { name: "Save profile" }).click();
    await page.getByText("Profile saved.").waitFor();
    await page.goto(`${srv.url}/u/${userId}`);
    const bio = page.getByTestId("bio");
    assert.equal(await bio.locator("strong").innerText(), "engines");
    assert.match(await bio.innerText(), /<script>alert\(1\)<\/script>/, "shown as text");
    assert.equal(await bio.locator("a").getAttribute("href"), null, "unsafe link dropped");
  },
);

browserTest(
  "profile section links: each part is one tap away, and the links stay in view (390×844)",
  async ({ t, srv, browser }) => {
    const { ctx } = await context(browser, t, srv.url, "Ada", PHONE);
    const page = await ctx.newPage();
    await page.goto(`${srv.url}/profile`);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    const nav = page.getByTestId("profile-sections");
    const labels = await nav.getByRole("link").allInnerTexts();
    assert.deepEqual(labels, [
      "Overview",
      "Activity",
      "Settings",
      "API keys",
      "Connected apps",
      "Sign-in methods",
      "Your data",
    ]);
    for (const label of [...labels].reverse()) {
      await nav.getByRole("link", { name: label }).click();
      const id = (await nav.getByRole("link", { name: label }).getAttribute("href"))!.slice(1);
      await page.waitForFunction((i) => location.hash === `#${i}`, id);
      const top = await page.locator(`#${id}`).evaluate((el) => el.getBoundingClientRect().top);
      assert.ok(top >= 0 && top < PHONE.height / 2, `${label} scrolled into view (top ${top})`);
      const navBox = await nav.boundingBox();
      assert.ok(navBox && navBox.y >= -1 && navBox.y < 5, `links stay in view (${navBox?.y})`);
    }
    console.log(`profile page height at 390×844: ${height} px`);
  },
);

/** Wait for hydration on pages that have islands (pages without ship no script). */
async function islandsReady(page: Page) {
  if (await page.locator("parley-island").count()) {
    await page.waitForSelector('html[data-islands="ready"]');
  }
}

/** Bounding boxes of every visible control on a page: [label, width, height]. */
async function controlSizes(page: Page): Promise<[string, number, number][]> {
  return await page.evaluate(() => {
    const selector =
      "button, .btn, a.tag, .nav a, .tabs a, .section-nav a, .pagination a, select, " +
      "input:not([type=hidden]):not([type=checkbox]):not([type=radio]), .user-chip, .brand";
    const out: [string, number, number][] = [];
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === "hidden") continue;
      const label = `${el.tagName.toLowerCase()}.${el.className} “${
        (el.innerText || el.getAttribute("aria-label") || "").trim().slice(0, 30)
      }”`;
      out.push([label, Math.round(r.width * 10) / 10, Math.round(r.height * 10) / 10]);
    }
    return out;
  });
}

browserTest(
  "tap targets: every control is at least 44×44 px at 390×844; the desktop stays compact",
  async ({ t, srv, browser }) => {
    const { ctx, userId } = await context(browser, t, srv.url, "Ada", PHONE);
    const q = await createQuestion(t.kv, {
      title: "Should cities build more bike lanes?",
      description: "Our council is debating it.",
      tags: ["cities", "cycling"],
      author: { id: "u-bob", name: "Bob", avatar: null },
      createdBy: "user",
    });
    await addMessage(t.kv, {
      questionId: q.id,
      author: { id: "u-cat", name: "Cat", avatar: null },
      content: "Yes, with winter maintenance.",
      createdBy: "user",
      authorType: "user",
    }, { now: Date.now() });
    const page = await ctx.newPage();
    const report: string[] = [];
    let smallest = Infinity;
    for (const path of ["/", `/questions/${q.id}`, "/profile", `/u/${userId}`, "/ask"]) {
      await page.goto(`${srv.url}${path}`);
      await islandsReady(page);
      const sizes = await controlSizes(page);
      assert.ok(sizes.length > 3, `${path}: controls found`);
      const small = sizes.filter(([, w, h]) => w < 44 || h < 44);
      assert.deepEqual(small, [], `${path}: controls under 44×44`);
      const min = Math.min(...sizes.map(([, w, h]) => Math.min(w, h)));
      smallest = Math.min(smallest, min);
      const tag = sizes.find(([l]) => l.startsWith("a.tag"));
      const vote = sizes.find(([l]) => l.includes("vote-up"));
      report.push(
        `${path}: ${sizes.length} controls, smallest side ${min} px` +
          (tag ? `, tag ${tag[1]}×${tag[2]}` : "") + (vote ? `, vote ${vote[1]}×${vote[2]}` : ""),
      );
    }
    await page.goto(`${srv.url}/questions/${q.id}`);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/tap-targets-phone.png`, fullPage: true });
    console.log(`tap targets at 390×844 (smallest side ${smallest} px):\n  ${report.join("\n  ")}`);

    // Links in running text get at least 24 px of height (WCAG 2.5.8): the author's name in
    // a meta line, and "Older notifications" (Ada's question has 31 answers: 2 pages of
    // notifications, and of answers).
    const long = await createQuestion(t.kv, {
      title: "Which lock should I buy for my bike?",
      description: "It sleeps outside.",
      tags: ["cycling"],
      author: { id: userId!, name: "Ada", avatar: null },
      createdBy: "user",
    });
    for (let i = 0; i < 31; i++) {
      await addMessage(t.kv, {
        questionId: long.id,
        author: { id: `u-${i}`, name: `Rider ${i}`, avatar: null },
        content: `A U-lock, answer ${i}.`,
        createdBy: "user",
        authorType: "user",
      }, { now: Date.now() });
    }
    await page.goto(`${srv.url}/questions/${long.id}`);
    const authors = await page.locator(".author-line a").evaluateAll((els) =>
      els.map((e) => e.getBoundingClientRect().height)
    );
    assert.ok(authors.length > 1, "author links found");
    assert.ok(Math.min(...authors) >= 24, `author links at least 24 px tall: ${authors}`);
    await page.goto(`${srv.url}/notifications`);
    const older = await page.getByRole("link", { name: "Older notifications" }).boundingBox();
    assert.ok(older && older.height >= 24, `"Older notifications" height ${older?.height}`);

    // The home page's tabs stay in one row (a search adds "Best match": four tabs).
    await page.goto(`${srv.url}/?q=bike`);
    const tabs = await page.locator(".tabs a").evaluateAll((els) =>
      els.map((e) => Math.round(e.getBoundingClientRect().top))
    );
    assert.equal(tabs.length, 4);
    assert.equal(new Set(tabs).size, 1, `tabs in one row (tops ${tabs})`);
    await page.locator(".tabs").screenshot({ path: `${SCREENSHOT_DIR}/tabs-phone.png` });

    // Desktop with a mouse keeps the compact layout; the answer pager's page numbers are
    // still at least 32 px square.
    const desk = await browser.newContext({ viewport: DESKTOP });
    const dp = await desk.newPage();
    await dp.goto(`${srv.url}/questions/${q.id}`);
    const tagBox = await dp.locator("a.tag").first().boundingBox();
    assert.ok(tagBox && tagBox.height < 30, `desktop tag stays compact (${tagBox?.height})`);
    await dp.goto(`${srv.url}/questions/${long.id}`);
    const numbers = await dp.locator(".pagination-pages a").evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return [r.width, r.height];
      })
    );
    assert.equal(numbers.length, 2, "pages 1 and 2");
    for (const [w, h] of numbers) assert.ok(w >= 32 && h >= 32, `page number ${w}×${h}`);
    await dp.getByTestId("thread-pager").screenshot({
      path: `${SCREENSHOT_DIR}/thread-pager-1280.png`,
    });
    await desk.close();
  },
);

browserTest(
  "a private debate's link says it is private, and nothing else about it",
  async ({ t, srv, browser }) => {
    const { user: owner } = await signInAs(t, "Zed Quill");
    const id = await debate(t, owner.id, "A secret topic about taxes");
    await saveSettings(t.kv, owner.id, { debateArchive: "private" });
    const { ctx } = await context(browser, t, srv.url, "Someone else");
    const page = await ctx.newPage();
    const res = await page.goto(`${srv.url}/debates/${id}`);
    assert.equal(res?.status(), 404);
    await page.getByRole("heading", { name: "This debate is private" }).waitFor();
    const text = await page.locator("main").innerText();
    assert.doesNotMatch(text, /secret topic|taxes|Zed|Quill|moved/i);
    const missing = await page.goto(`${srv.url}/debates/debate_1_nosuch`);
    assert.equal(missing?.status(), 404);
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
  },
);

browserTest(
  "axe-core finds 0 violations (WCAG 2.1 A/AA + best practices) on every page, both sizes, signed in and out",
  async ({ t, srv, browser }) => {
    const { user: ada, cookie } = await signInAs(t, "Ada");
    const q = await createQuestion(t.kv, {
      title: "Should cities build more bike lanes?",
      description: "Our council is debating **protected** lanes.",
      tags: ["cities"],
      author: { id: ada.id, name: "Ada", avatar: null },
      createdBy: "user",
    });
    await addMessage(t.kv, {
      questionId: q.id,
      author: { id: "u-cat", name: "Cat", avatar: null },
      content: "Yes — see `Copenhagen`.",
      createdBy: "agent",
      authorType: "user",
    }, { now: Date.now() });
    const publicDebate = await debate(t, ada.id, "Cities and bikes");
    const { user: owner } = await signInAs(t, "Private Owner");
    const privateDebate = await debate(t, owner.id, "Hidden");
    await saveSettings(t.kv, owner.id, { debateArchive: "private" });
    // Ada moderates: /mod shows its queue (a flagged answer) and log to the signed-in runs.
    t.services.config.moderators = [ada.id];
    const flagged = await addMessage(t.kv, {
      questionId: q.id,
      author: { id: owner.id, name: "Private Owner", avatar: null },
      content: "Buy cheap watches here.",
      createdBy: "user",
      authorType: "user",
    }, { now: Date.now() });
    assert.ok(flagged.ok && "message" in flagged);
    assert.ok(
      (await flagPost(t.kv, {
        userId: ada.id,
        targetType: "message",
        targetId: flagged.message.id,
        reason: "spam",
        note: null,
      })).ok,
    );

    // Every page, signed in and out (the signed-in-only ones show sign-in to the others).
    const pages = [
      "/",
      "/?sort=hot",
      "/?error=oauth_error",
      "/?error=auth_failed",
      "/?q=bike+lanes",
      "/?q=nothing-matches-this",
      "/?tag=cities",
      `/questions/${q.id}`,
      `/questions/${q.id}/revisions`,
      "/ask",
      "/debate",
      "/debates",
      `/debates/${publicDebate}`,
      `/debates/${privateDebate}`,
      "/signin",
      "/docs/api",
      `/u/${ada.id}`,
      `/u/${owner.id}`,
      "/profile",
      "/profile?tab=favorites",
      "/profile/agent-keys",
      "/notifications",
      "/mod",
      "/no-such-page",
    ];
    const [cookieName, value] = cookie.split("=");
    const counts: string[] = [];
    const failures: string[] = [];
    for (const signedIn of [false, true]) {
      for (const viewport of [DESKTOP, PHONE]) {
        // bypassCSP: axe-core is injected as an inline script.
        const ctx = await browser.newContext({ viewport, bypassCSP: true });
        if (signedIn) await ctx.addCookies([{ name: cookieName, value, url: srv.url }]);
        const page = await ctx.newPage();
        let total = 0;
        for (const path of pages) {
          await page.goto(`${srv.url}${path}`);
          await islandsReady(page);
          const violations = await axeViolations(page);
          total += violations.length;
          for (const v of violations) {
            failures.push(
              `${signedIn ? "in" : "out"} ${viewport.width}×${viewport.height} ${path}: ${v}`,
            );
          }
        }
        counts.push(
          `${
            signedIn ? "signed in " : "signed out"
          } ${viewport.width}×${viewport.height}: ${pages.length} pages, ${total} violations`,
        );
        await ctx.close();
      }
    }
    console.log(`axe-core:\n  ${counts.join("\n  ")}`);
    assert.deepEqual(failures, []);
  },
);
