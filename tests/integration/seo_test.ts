/**
 * Discoverable pages (docs/interface.md#discoverable-pages): robots.txt, and the sitemap
 * index and its pages read with a real XML parser; every listed URL answers 200 through
 * the app, and no hidden or deleted question nor private profile is listed.
 */
import assert from "node:assert/strict";
import { XMLParser } from "fast-xml-parser";
import { saveSettings } from "@/lib/profile/settings.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
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
