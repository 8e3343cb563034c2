/**
 * The signed-out page cache (lib/http/page_cache.ts, docs/decisions.md#scale-out): shared only
 * between signed-out visitors, dropped by writes through this instance at once and by
 * writes through another instance within its one-second lifetime.
 */
import assert from "node:assert/strict";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { CACHE_HEADER } from "@/lib/http/page_cache.ts";
import { createTestApp } from "../helpers/app.ts";
import { answer, ask, getAs, member, vote } from "../helpers/community.ts";
import { loadZlib } from "@/lib/http/compress.ts";

async function page(t: Awaited<ReturnType<typeof createTestApp>>, path: string, cookie = "") {
  const res = await t.request(path, { headers: cookie ? { cookie } : {} });
  return { res, html: await res.text(), cache: res.headers.get(CACHE_HEADER) };
}

Deno.test("page cache: a signed-out page never contains a signed-in user's data, and signed-in pages are never cached", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada Secretname");
    const id = await ask(t, ada, { title: "Who can see my name in the header?" });
    // Ada loads first: her page names her and is not stored for anyone.
    const mine = await page(t, "/", ada.cookie);
    assert.match(mine.html, /Ada Secretname|Ada S\./);
    assert.equal(mine.cache, null, "a signed-in page bypasses the cache");
    for (const path of ["/", `/questions/${id}`, "/?q=name", `/u/${ada.id}`]) {
      await getAs(t, ada, path).then((r) => r.body?.cancel());
      const first = await page(t, path);
      const second = await page(t, path);
      assert.equal(first.cache, "miss", path);
      assert.equal(second.cache, "hit", path);
      assert.equal(second.html, first.html, path);
      assert.doesNotMatch(second.html, /href="\/profile"|Sign out|signout/i, path);
      assert.match(second.html, /Sign in/, path);
    }
    // A bearer request never reads or fills the shared cache.
    const bearer = await t.request("/", { headers: { authorization: "Bearer agent_x" } });
    assert.equal(bearer.headers.get(CACHE_HEADER), null);
    await bearer.body?.cancel();
    // After a signed-out load was cached, Ada still gets her own page.
    const again = await page(t, "/", ada.cookie);
    assert.equal(again.cache, null);
    assert.match(again.html, /Ada Secretname|Ada S\./);
  } finally {
    await t.close();
  }
});

Deno.test("page cache: a write is visible to its author and to visitors on the next load", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const grace = await member(t, "Grace");
    const id = await ask(t, ada, { title: "Cached pages and fresh answers" });
    assert.equal((await page(t, `/questions/${id}`)).cache, "miss");
    assert.equal((await page(t, `/questions/${id}`)).cache, "hit");
    assert.equal((await page(t, "/")).cache, "miss");
    await answer(t, grace, id, "An answer written through this instance");
    // The author sees it (signed in, never cached) ...
    const own = await page(t, `/questions/${id}`, grace.cookie);
    assert.match(own.html, /An answer written through this instance/);
    // ... and so does every visitor: the write dropped the cached pages.
    const visitor = await page(t, `/questions/${id}`);
    assert.equal(visitor.cache, "miss");
    assert.match(visitor.html, /An answer written through this instance/);
    // A vote drops the page too (its counts change).
    assert.equal((await page(t, `/questions/${id}`)).cache, "hit");
    await vote(t, grace, "question", id);
    assert.equal((await page(t, `/questions/${id}`)).cache, "miss");
  } finally {
    await t.close();
  }
});

Deno.test("page cache: a write through another instance shows within one second", async () => {
  const dir = await Deno.makeTempDir();
  const one = await createTestApp({ kvPath: `${dir}/shared.kv` });
  const two = await createTestApp({ kvPath: `${dir}/shared.kv` });
  try {
    const ada = await member(one, "Ada");
    assert.doesNotMatch((await page(two, "/")).html, /Asked on the other instance/);
    assert.equal((await page(two, "/")).cache, "hit");
    await ask(one, ada, { title: "Asked on the other instance" });
    await new Promise((r) => setTimeout(r, 1100));
    const later = await page(two, "/");
    assert.equal(later.cache, "miss");
    assert.match(later.html, /Asked on the other instance/);
  } finally {
    await one.close();
    await two.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("page cache: only 200 HTML without Set-Cookie is stored; themes are kept apart", async () => {
  const t = await createTestApp();
  try {
    const missing = await page(t, "/questions/nope");
    assert.equal(missing.res.status, 404);
    assert.equal((await page(t, "/questions/nope")).cache, null, "a 404 is not stored");
    const api = await t.request("/api/questions");
    assert.equal(api.headers.get(CACHE_HEADER), null, "API answers are not stored");
    await api.body?.cancel();
    const dark = await page(t, "/", "parley_theme=dark");
    const light = await page(t, "/", "parley_theme=light");
    assert.equal(dark.cache, "miss");
    assert.equal(light.cache, "miss");
    assert.match(dark.html, /data-theme="dark"/);
    assert.match(light.html, /data-theme="light"/);
    assert.equal((await page(t, "/", "parley_theme=dark")).cache, "hit");
  } finally {
    await t.close();
  }
});

Deno.test("page cache: a hit carries the security headers and is compressed per Accept-Encoding, the same page in every encoding", async () => {
  const t = await createTestApp();
  // An instance past its first responses (until node:zlib loads they are gzip: compress.ts).
  await loadZlib();
  try {
    const ada = await member(t, "Ada");
    const id = await ask(t, ada, { title: "Compressed hits".padEnd(60, ".") });
    await answer(t, ada, id, "Long enough to compress. ".repeat(100));
    const path = `/questions/${id}`;
    const miss = await t.request(path);
    const plain = await miss.text();
    assert.equal(miss.headers.get(CACHE_HEADER), "miss");
    const csp = miss.headers.get("content-security-policy");
    assert.ok(csp?.includes("script-src 'self'"));
    for (const enc of ["br", "gzip", ""]) {
      for (let i = 0; i < 2; i++) {
        const res = await t.request(path, { headers: enc ? { "accept-encoding": enc } : {} });
        assert.equal(res.headers.get(CACHE_HEADER), "hit");
        assert.equal(res.headers.get("content-security-policy"), csp);
        assert.equal(res.headers.get("x-frame-options"), "DENY");
        assert.match(res.headers.get("vary") ?? "", /Accept-Encoding/i);
        assert.equal(res.headers.get("content-encoding"), enc || null);
        const bytes = new Uint8Array(await res.arrayBuffer());
        const body = enc === "br"
          ? brotliDecompressSync(bytes)
          : enc === "gzip"
          ? gunzipSync(bytes)
          : bytes;
        assert.equal(new TextDecoder().decode(body), plain);
        if (enc) assert.ok(bytes.length < plain.length / 2, `${enc} is smaller`);
      }
    }
  } finally {
    await t.close();
  }
});

Deno.test("page cache: signed-out requests that arrive together share one render and get the same compressed bytes", async () => {
  const t = await createTestApp();
  try {
    const ada = await member(t, "Ada");
    const id = await ask(t, ada, { title: "Arriving together".padEnd(60, ".") });
    await answer(t, ada, id, "Long enough to compress. ".repeat(100));
    const responses = await Promise.all(
      Array.from(
        { length: 5 },
        () => t.request(`/questions/${id}`, { headers: { "accept-encoding": "br" } }),
      ),
    );
    const how = responses.map((r) => r.headers.get(CACHE_HEADER)).sort();
    assert.deepEqual(how, ["hit", "hit", "hit", "hit", "miss"]);
    const bodies = await Promise.all(responses.map(async (r) => {
      assert.equal(r.status, 200);
      assert.equal(r.headers.get("content-encoding"), "br");
      return new Uint8Array(await r.arrayBuffer());
    }));
    for (const b of bodies.slice(1)) assert.deepEqual(b, bodies[0]);
    assert.match(new TextDecoder().decode(brotliDecompressSync(bodies[0])), /Arriving together/);
  } finally {
    await t.close();
  }
});
