/**
 * Discoverable pages (docs/interface.md#discoverable-pages): robots.txt, and the sitemap
 * index and its pages read with a real XML parser; every listed URL answers 200 through
 * the app, and no hidden or deleted question nor private profile is listed; each page's
 * canonical link, description and cards, read with an HTML parser.
 */
import assert from "node:assert/strict";
import { XMLParser } from "fast-xml-parser";
import { parseHTML } from "linkedom";
import { saveSettings } from "@/lib/profile/settings.ts";
import { createTestApp, jsonWrite, type TestApp } from "../helpers/app.ts";
import { startFakeLlm } from "../helpers/fake_llm.ts";
import { parseSse } from "../helpers/sse.ts";
import { ask, type Member, member, postAs } from "../helpers/community.ts";

const ORIGIN = "https://parley.example";
const parser = new XMLParser({ isArray: (name) => name === "url" || name === "sitemap" });

interface World {
  t: TestApp;
  asker: Member;
  privateMember: Member;
  liveIds: string[];
  hiddenQid: string;
  deletedQid: string;
}

async function world(): Promise<World> {
  const t = await createTestApp({ env: { APP_ORIGIN: ORIGIN } });
  const [asker, mod, privateMember] = await Promise.all(
    ["Asker", "Mo", "Quiet"].map((n) => member(t, n)),
  );
  t.services.config.moderators = [mod.id];
  await saveSettings(t.kv, privateMember.id, { activityVisibility: "private" });
  const liveIds = [
    await ask(t, asker, { title: "How do I water ferns", tags: ["garden"] }),
    await ask(t, asker, { title: "Which soil suits cactus", tags: ["garden", "soil"] }),
  ];
  const hiddenQid = await ask(t, asker, { title: "A question moderators hid", tags: ["garden"] });
  const hide = await postAs(t, mod, "/api/mod/actions", {
    targetType: "question",
    targetId: hiddenQid,
    action: "hide",
  });
  assert.equal(hide.status, 200, await hide.text());
  const deletedQid = await ask(t, asker, { title: "A question its author deleted" });
  const del = await t.request(`/api/questions/${deletedQid}`, {
    method: "DELETE",
    headers: { cookie: asker.cookie, origin: ORIGIN },
  });
  assert.equal(del.status, 200, await del.text());
  return { t, asker, privateMember, liveIds, hiddenQid, deletedQid };
}

/** The path of an absolute URL on the app's origin. */
function pathOf(loc: string): string {
  const u = new URL(loc);
  assert.equal(u.origin, ORIGIN, loc);
  return u.pathname + u.search;
}

Deno.test("robots.txt disallows the API, settings, moderation and sign-in pages and names the sitemap", async () => {
  const t = await createTestApp({ env: { APP_ORIGIN: ORIGIN } });
  try {
    const res = await t.request("/robots.txt");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
    const lines = (await res.text()).split("\n");
    for (const p of ["/api/", "/profile", "/mod", "/signin", "/local-oauth/"]) {
      assert.ok(lines.includes(`Disallow: ${p}`), p);
    }
    assert.ok(lines.includes(`Sitemap: ${ORIGIN}/sitemap.xml`));
  } finally {
    await t.close();
  }
});

Deno.test("the sitemap index and its pages parse, every URL answers 200 with a lastmod, and nothing hidden, deleted or private is listed", async () => {
  const w = await world();
  try {
    const indexRes = await w.t.request("/sitemap.xml");
    assert.equal(indexRes.status, 200);
    assert.match(indexRes.headers.get("content-type") ?? "", /xml/);
    const index = parser.parse(await indexRes.text());
    const sitemaps: { loc: string }[] = index.sitemapindex.sitemap;
    assert.ok(sitemaps.length >= 3);
    const listed: { loc: string; lastmod: string }[] = [];
    for (const s of sitemaps) {
      const res = await w.t.request(pathOf(s.loc));
      assert.equal(res.status, 200, s.loc);
      const doc = parser.parse(await res.text());
      assert.ok(doc.urlset, s.loc);
      listed.push(...(doc.urlset.url ?? []));
    }
    for (const u of listed) {
      assert.ok(!Number.isNaN(Date.parse(u.lastmod)), `${u.loc} lastmod ${u.lastmod}`);
      const res = await w.t.request(pathOf(u.loc));
      await res.body?.cancel();
      assert.equal(res.status, 200, u.loc);
    }
    const locs = listed.map((u) => u.loc);
    for (const id of w.liveIds) assert.ok(locs.includes(`${ORIGIN}/questions/${id}`), id);
    assert.ok(!locs.some((l) => l.includes(w.hiddenQid)), "hidden question listed");
    assert.ok(!locs.some((l) => l.includes(w.deletedQid)), "deleted question listed");
    assert.ok(locs.includes(`${ORIGIN}/u/${w.asker.id}`));
    assert.ok(!locs.some((l) => l.includes(w.privateMember.id)), "private profile listed");
    assert.ok(locs.includes(`${ORIGIN}/?tag=garden`));
    assert.ok(locs.includes(`${ORIGIN}/?tag=soil`));
  } finally {
    await w.t.close();
  }
});

Deno.test("sitemap pages past the end are empty and unknown kinds or pages answer 404", async () => {
  const t = await createTestApp({ env: { APP_ORIGIN: ORIGIN } });
  try {
    const past = parser.parse(await (await t.request("/sitemaps/questions/99.xml")).text());
    assert.equal(past.urlset.url, undefined);
    for (const p of ["/sitemaps/users/1.xml", "/sitemaps/questions/0.xml", "/sitemaps/tags/x"]) {
      const res = await t.request(p);
      await res.body?.cancel();
      assert.equal(res.status, 404, p);
    }
  } finally {
    await t.close();
  }
});

/** The head's tags of a page, read with an HTML parser. */
function headOf(html: string) {
  const { document } = parseHTML(html);
  const all = (selector: string) =>
    [...document.querySelectorAll(selector)].map((e) =>
      (e as unknown as { getAttribute(n: string): string | null }).getAttribute("content") ??
        (e as unknown as { getAttribute(n: string): string | null }).getAttribute("href") ?? ""
    );
  return {
    canonical: all('link[rel="canonical"]'),
    description: all('meta[name="description"]'),
    og: (p: string) => all(`meta[property="og:${p}"]`),
    twitter: (p: string) => all(`meta[name="twitter:${p}"]`),
    document,
  };
}

Deno.test("every page has one canonical link and one meta description; question, debate and profile pages carry OpenGraph and Twitter cards", async () => {
  const fake = startFakeLlm();
  const t = await createTestApp({ env: { ...fake.env, APP_ORIGIN: ORIGIN } });
  try {
    const asker = await member(t, "Asker");
    const qid = await ask(t, asker, {
      title: "How do I water ferns",
      description: "Mine wilt <b>every</b> summer.",
      tags: ["garden"],
    });
    const started = await t.request("/api/debate", {
      method: "POST",
      headers: jsonWrite(t, asker.cookie),
      body: JSON.stringify({ topic: "Tabs or spaces?", userProfile: { name: "Asker" } }),
    });
    const debateId = parseSse(await started.text())[0].data.id as string;
    const pages = [
      "/",
      "/?tag=garden&sort=hot",
      "/ask",
      "/debate",
      "/signin",
      "/docs/api",
      `/questions/${qid}`,
      `/u/${asker.id}`,
      `/debates/${debateId}`,
    ];
    for (const path of pages) {
      const res = await t.request(path);
      assert.equal(res.status, 200, path);
      const head = headOf(await res.text());
      assert.equal(head.canonical.length, 1, `${path}: canonical ${head.canonical}`);
      assert.ok(head.canonical[0].startsWith(`${ORIGIN}/`), head.canonical[0]);
      assert.equal(head.description.length, 1, `${path}: description ${head.description}`);
      assert.ok(head.description[0].length > 0 && head.description[0].length <= 160, path);
    }
    const tagged = headOf(await (await t.request("/?tag=garden&sort=hot&page=1")).text());
    assert.deepEqual(tagged.canonical, [`${ORIGIN}/?tag=garden`], "sort and page 1 dropped");
    const cards: [string, string, string][] = [
      [`/questions/${qid}`, "article", "How do I water ferns"],
      [`/debates/${debateId}`, "article", "Debate: Tabs or spaces?"],
      [`/u/${asker.id}`, "profile", "Asker on Parley"],
    ];
    for (const [path, type, title] of cards) {
      const head = headOf(await (await t.request(path)).text());
      assert.deepEqual(head.og("type"), [type], path);
      assert.deepEqual(head.og("title"), [title], path);
      assert.deepEqual(head.og("url"), [`${ORIGIN}${path}`], path);
      assert.deepEqual(head.og("description"), head.description, path);
      assert.deepEqual(head.twitter("card"), ["summary"], path);
      assert.deepEqual(head.twitter("title"), [title], path);
    }
    const question = headOf(await (await t.request(`/questions/${qid}`)).text());
    assert.equal(question.description[0], "Mine wilt every summer.");
    const plain = headOf(await (await t.request("/ask")).text());
    assert.deepEqual(plain.og("title"), [], "no cards on a form page");
  } finally {
    await t.close();
    await fake.close();
  }
});
