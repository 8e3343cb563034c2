import assert from "node:assert/strict";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { COMPRESS_MIN_BYTES, encode, loadZlib, zlibLoaded } from "./compress.ts";
import {
  BEST_QUALITY_MAX_BYTES,
  CACHE_HEADER,
  PageCache,
  type PageCacheOptions,
} from "./page_cache.ts";

const SESSION = "parley_session";
const ORIGIN = "http://parley.test";

/** A cache on a clock the test moves by hand, and a renderer that counts its renders. */
function setup(opts: Partial<PageCacheOptions> = {}) {
  let t = 0;
  const cache = new PageCache({ sessionCookie: SESSION, now: () => t, ...opts });
  let renders = 0;
  const page = (body = "<p>page</p>", init: ResponseInit = {}) => () => {
    renders++;
    return Promise.resolve(
      new Response(body, {
        ...init,
        headers: { "content-type": "text/html; charset=utf-8", ...init.headers },
      }),
    );
  };
  return {
    cache,
    page,
    renders: () => renders,
    advance: (ms: number) => t += ms,
  };
}

function get(path: string, headers: HeadersInit = {}, method = "GET") {
  return new Request(`${ORIGIN}${path}`, { method, headers });
}

async function serve(c: ReturnType<typeof setup>, req: Request, render = c.page()) {
  const res = await c.cache.serve(req, render);
  return { status: res.status, how: res.headers.get(CACHE_HEADER), body: await res.text() };
}

Deno.test("PageCache: the first signed-out load renders and is stored, the next one is a hit with the same bytes", async () => {
  const c = setup();
  const first = await serve(c, get("/questions/q-1"), c.page("<h1>Why KV?</h1>"));
  const second = await serve(c, get("/questions/q-1"), c.page("<h1>never rendered</h1>"));
  assert.deepEqual(first, { status: 200, how: "miss", body: "<h1>Why KV?</h1>" });
  assert.deepEqual(second, { status: 200, how: "hit", body: "<h1>Why KV?</h1>" });
  assert.equal(c.renders(), 1);
  assert.deepEqual(c.cache.stats, { hits: 1, misses: 1, drops: 0 });
  assert.equal(c.cache.size, 1);
});

Deno.test("PageCache: keyed by the whole URL and the theme cookie, nothing else", async () => {
  const c = setup();
  const key = (path: string, headers: HeadersInit = {}) => c.cache.keyOf(get(path, headers));
  assert.notEqual(key("/?page=1"), key("/?page=2"));
  assert.notEqual(key("/questions/q-1"), key("/questions/q-1?sort=newest"));
  assert.notEqual(key("/"), key("/", { cookie: "parley_theme=dark" }));
  assert.equal(
    key("/", { cookie: "other=1; parley_theme=dark" }),
    key("/", { cookie: "parley_theme=dark" }),
  );
  // Headers other than the theme do not split the cache.
  assert.equal(key("/", { "accept-language": "fr", "user-agent": "x" }), key("/"));
  for (
    const [path, theme, body] of [["/", "", "light"], ["/", "dark", "dark"], [
      "/?q=kv",
      "",
      "search",
    ]]
  ) {
    const headers: HeadersInit = theme ? { cookie: `parley_theme=${theme}` } : {};
    assert.equal((await serve(c, get(path, headers), c.page(body))).how, "miss");
  }
  assert.equal((await serve(c, get("/", { cookie: "parley_theme=dark" }))).body, "dark");
  assert.equal((await serve(c, get("/"))).body, "light");
  assert.equal((await serve(c, get("/?q=kv"))).body, "search");
  assert.equal(c.renders(), 3);
});

Deno.test("PageCache: a signed-in request (session cookie or Authorization) never reads or fills it", async () => {
  const c = setup();
  await serve(c, get("/"), c.page("<p>public</p>"));
  const signedIn: Record<string, string>[] = [
    { cookie: `${SESSION}=abc` },
    { cookie: `parley_theme=dark; ${SESSION}=abc` },
    { authorization: "Bearer agent_x" },
  ];
  for (const headers of signedIn) {
    assert.equal(c.cache.keyOf(get("/", headers)), null);
    assert.equal(c.cache.hit(get("/", headers)), null);
    const r = await serve(c, get("/", headers), c.page("<p>Hello, Ada</p>"));
    assert.deepEqual([r.how, r.body], [null, "<p>Hello, Ada</p>"], JSON.stringify(headers));
  }
  assert.equal(c.renders(), 1 + signedIn.length, "every signed-in request rendered");
  // The stored page is still the public one: nothing built for Ada was shared.
  assert.equal((await serve(c, get("/"))).body, "<p>public</p>");
  // An empty session cookie is no session.
  assert.notEqual(c.cache.keyOf(get("/", { cookie: `${SESSION}=` })), null);
});

Deno.test("PageCache: only GET pages outside the API, auth and internal paths", () => {
  const c = setup();
  for (
    const path of [
      "/api/questions",
      "/api",
      "/api?x=1",
      "/auth/callback",
      "/local-oauth/authorize",
      "/_parley/x",
    ]
  ) {
    assert.equal(c.cache.keyOf(get(path)), null, path);
  }
  for (const path of ["/", "/apiary", "/questions/q-1", "/u/u-1"]) {
    assert.notEqual(c.cache.keyOf(get(path)), null, path);
  }
  for (const method of ["POST", "PUT", "DELETE", "HEAD"]) {
    assert.equal(c.cache.keyOf(get("/", {}, method)), null, method);
  }
});

Deno.test("PageCache: only a 200 HTML response without Set-Cookie or no-store/private is stored", async () => {
  const c = setup();
  const refused: [string, () => Promise<Response>][] = [
    ["/404", c.page("<p>missing</p>", { status: 404 })],
    ["/cookie", c.page("<p>hi</p>", { headers: { "set-cookie": "a=b" } })],
    ["/json", () => Promise.resolve(Response.json({ a: 1 }))],
    ["/no-store", c.page("<p>x</p>", { headers: { "cache-control": "no-store" } })],
    ["/private", c.page("<p>x</p>", { headers: { "cache-control": "private, max-age=0" } })],
  ];
  for (const [path, render] of refused) {
    const first = await c.cache.serve(get(path), render);
    assert.equal(first.headers.get(CACHE_HEADER), null, path);
    await first.body?.cancel();
    const again = await c.cache.serve(get(path), render);
    assert.equal(again.headers.get(CACHE_HEADER), null, `${path} was not stored`);
    await again.body?.cancel();
  }
  assert.equal(c.cache.size, 0);
});

Deno.test("PageCache: an entry serves for ttlMs, then the page renders again", async () => {
  const c = setup({ ttlMs: 1_000 });
  await serve(c, get("/"), c.page("v1"));
  c.advance(999);
  assert.equal((await serve(c, get("/"), c.page("v2"))).body, "v1");
  assert.ok(c.cache.hit(get("/")));
  c.advance(1);
  assert.equal(c.cache.hit(get("/")), null, "expired");
  assert.deepEqual(await serve(c, get("/"), c.page("v2")), {
    status: 200,
    how: "miss",
    body: "v2",
  });
});

Deno.test("PageCache: a write through this instance drops every page; a failed write or a read does not", async () => {
  const c = setup();
  await serve(c, get("/"), c.page("before"));
  await serve(c, get("/questions/q-1"), c.page("before"));
  const ok = new Response(null, { status: 201 });
  c.cache.noteWrite(get("/", {}, "GET"), ok);
  c.cache.noteWrite(get("/api/likes", {}, "POST"), new Response(null, { status: 429 }));
  assert.equal(c.cache.size, 2, "reads and refused writes keep the pages");
  c.cache.noteWrite(get("/api/likes", {}, "POST"), ok);
  assert.equal(c.cache.size, 0);
  assert.equal(c.cache.stats.drops, 1);
  assert.equal((await serve(c, get("/"), c.page("after"))).body, "after");
});

Deno.test("PageCache: concurrent misses of one page share one render; a render that started before a drop is not stored nor joined", async () => {
  const c = setup();
  const gates = new Map<string, () => void>();
  let renders = 0;
  const slow = (body: string) => async () => {
    renders++;
    await new Promise<void>((r) => gates.set(body, r));
    return new Response(body, { headers: { "content-type": "text/html" } });
  };
  const first = serve(c, get("/"), slow("old data"));
  const joined = serve(c, get("/"), slow("never"));
  // A write lands while the render is under way: what it read may be stale.
  c.cache.drop();
  const afterDrop = serve(c, get("/"), slow("new data"));
  gates.get("old data")!();
  const [a, b] = await Promise.all([first, joined]);
  assert.deepEqual([a.how, a.body], ["miss", "old data"]);
  assert.deepEqual([b.how, b.body], ["hit", "old data"], "joined the render under way");
  assert.equal(c.cache.size, 0, "the render from before the drop was not stored");
  gates.get("new data")!();
  const d = await afterDrop;
  assert.deepEqual([d.how, d.body], ["miss", "new data"], "did not join the render from before");
  assert.equal(renders, 2);
  assert.equal((await serve(c, get("/"))).body, "new data", "the render after the drop was stored");
});

Deno.test("PageCache: bounded by entries and bytes, the least recently filled out first; a page over a quarter of the bytes is never stored", async () => {
  const byCount = setup({ maxEntries: 3 });
  for (const path of ["/a", "/b", "/c", "/d"]) await serve(byCount, get(path), byCount.page(path));
  assert.equal(byCount.cache.size, 3);
  assert.equal(byCount.cache.hit(get("/a")), null, "the first filled went first");
  for (const path of ["/b", "/c", "/d"]) assert.ok(byCount.cache.hit(get(path)), path);

  const kb = "x".repeat(1_000);
  const byBytes = setup({ maxBytes: 4_000 });
  for (const path of ["/1", "/2", "/3", "/4", "/5"]) {
    await serve(byBytes, get(path), byBytes.page(kb));
  }
  assert.equal(byBytes.cache.size, 4);
  assert.equal(byBytes.cache.hit(get("/1")), null);
  // A refill moves a page to the back of the line.
  byBytes.advance(10_000);
  await serve(byBytes, get("/2"), byBytes.page(kb));
  await serve(byBytes, get("/6"), byBytes.page(kb));
  assert.equal(byBytes.cache.hit(get("/3")), null, "/3 was now the least recently filled");
  assert.ok(byBytes.cache.hit(get("/2")));
  const big = await serve(byBytes, get("/big"), byBytes.page("y".repeat(1_001)));
  assert.equal(big.how, "miss");
  assert.equal(byBytes.cache.hit(get("/big")), null, "too big to keep");
});

Deno.test("PageCache: its byte bound counts the copies hits make, and expired pages are let go at the next store", async () => {
  await loadZlib();
  const c = setup({ maxBytes: 64_000 });
  const html = (i: number) =>
    `<main>${Array.from({ length: 400 }, (_, j) => `<p>${i}:${j * 7919}</p>`).join("")}</main>`;
  for (let i = 0; i < 20; i++) await serve(c, get(`/p${i}`), c.page(html(i)));
  assert.ok(c.cache.bytes <= 64_000, `${c.cache.bytes} bytes held`);
  const before = c.cache.bytes;
  const size = c.cache.size;
  // Hits ask for every encoding: each copy counts, and the bound still holds.
  for (let i = 0; i < 20; i++) {
    for (const accept of ["br", "gzip", "identity"]) {
      c.cache.hit(get(`/p${i}`, { "accept-encoding": accept }));
    }
  }
  assert.ok(c.cache.bytes > before || c.cache.size < size, "the copies were counted");
  assert.ok(c.cache.bytes <= 64_000, `${c.cache.bytes} bytes held after the hits`);

  c.advance(1_000);
  await serve(c, get("/fresh"), c.page("<p>fresh</p>"));
  assert.equal(c.cache.size, 1, "only the page filled now is held");
  assert.equal(c.cache.bytes, "<p>fresh</p>".length);
});

Deno.test("PageCache.hit(): the stored page per Accept-Encoding — brotli, gzip or as is — the same bytes decoded, small pages never compressed", async () => {
  const c = setup();
  const html = `<!doctype html><main>${"<p>An answer about KV.</p>".repeat(200)}</main>`;
  assert.ok(html.length > COMPRESS_MIN_BYTES);
  await serve(c, get("/"), c.page(html, { headers: { etag: '"v1"', "x-frame-options": "DENY" } }));
  if (!zlibLoaded()) {
    // A new instance's hit that would compress goes through the app until node:zlib is
    // in (the app gzips it without); one as it is needs no zlib.
    const hits = c.cache.stats.hits;
    assert.equal(c.cache.hit(get("/", { "accept-encoding": "br" })), null);
    assert.equal(c.cache.stats.hits, hits, "not counted as a hit");
    assert.ok(c.cache.hit(get("/")));
  }
  await loadZlib();
  const cases: [string | null, string | null, (b: Uint8Array) => Uint8Array][] = [
    ["gzip, deflate, br", "br", (b) => brotliDecompressSync(b)],
    ["gzip", "gzip", (b) => gunzipSync(b)],
    ["br;q=0, gzip", "gzip", (b) => gunzipSync(b)],
    ["identity", null, (b) => b],
    [null, null, (b) => b],
  ];
  for (const [accept, encoding, decode] of cases) {
    // Twice: the second answer comes from the variant the first one made.
    for (let i = 0; i < 2; i++) {
      const res = c.cache.hit(get("/", accept ? { "accept-encoding": accept } : {}));
      assert.ok(res, `${accept}`);
      assert.equal(res.headers.get("content-encoding"), encoding, `${accept}`);
      assert.equal(res.headers.get(CACHE_HEADER), "hit");
      assert.match(res.headers.get("vary") ?? "", /Accept-Encoding/i);
      assert.equal(res.headers.get("x-frame-options"), "DENY", "the stored headers go out");
      assert.equal(res.headers.get("etag"), encoding ? 'W/"v1"' : '"v1"');
      const body = new Uint8Array(await res.arrayBuffer());
      assert.equal(new TextDecoder().decode(decode(body)), html, `${accept}`);
      if (encoding) assert.ok(body.byteLength < html.length / 5, `${encoding} compressed`);
    }
  }
  await serve(c, get("/small"), c.page("<p>tiny</p>"));
  const small = c.cache.hit(get("/small", { "accept-encoding": "br, gzip" }));
  assert.equal(small?.headers.get("content-encoding"), null);
  assert.equal(await small?.text(), "<p>tiny</p>");
  assert.equal(c.cache.hit(get("/never-stored")), null);
});

Deno.test("PageCache.joinFill(): requests that arrive while a page is filled get that fill's compressed bytes, compressed once", async () => {
  const c = setup();
  const html = `<main>${"<p>An answer about KV.</p>".repeat(200)}</main>`;
  let release!: () => void;
  const slow = async () => {
    await new Promise<void>((r) => release = r);
    return new Response(html, { headers: { "content-type": "text/html" } });
  };
  const br = { "accept-encoding": "br" };
  assert.equal(c.cache.joinFill(get("/", br)), null, "no fill under way");
  const filling = c.cache.serve(get("/", br), slow);
  const waiters = [c.cache.joinFill(get("/", br)), c.cache.joinFill(get("/", br))];
  assert.equal(c.cache.joinFill(get("/other", br)), null, "another page has no fill under way");
  assert.equal(c.cache.joinFill(get("/", { ...br, cookie: `${SESSION}=s1` })), null, "signed in");
  release();
  const [miss, ...joined] = await Promise.all([filling, ...waiters]);
  assert.equal(miss.headers.get(CACHE_HEADER), "miss");
  assert.equal(miss.headers.get("content-encoding"), "br", "the miss goes out compressed too");
  const bodies: Uint8Array[] = [new Uint8Array(await miss.arrayBuffer())];
  for (const res of joined) {
    assert.ok(res);
    assert.equal(res.headers.get(CACHE_HEADER), "hit");
    assert.equal(res.headers.get("content-encoding"), "br");
    bodies.push(new Uint8Array(await res.arrayBuffer()));
  }
  for (const b of bodies) assert.equal(new TextDecoder().decode(brotliDecompressSync(b)), html);
  assert.deepEqual(bodies[1], bodies[0], "the same compressed bytes: one compression");
  assert.deepEqual(c.cache.stats, { hits: 2, misses: 1, drops: 0 });
});

Deno.test("PageCache.joinFill(): a fill whose response may not be shared sends its waiters through the app", async () => {
  const c = setup();
  let release!: () => void;
  const filling = c.cache.serve(get("/"), async () => {
    await new Promise<void>((r) => release = r);
    return new Response("<p>for one</p>", {
      headers: { "content-type": "text/html", "set-cookie": "a=1" },
    });
  });
  const waiter = c.cache.joinFill(get("/"));
  release();
  await (await filling).text();
  assert.equal(await waiter, null);
});

Deno.test("PageCache: a refill that renders the same bytes keeps the compressed body; once the bytes outlive a refill a small page is compressed at the best quality", async () => {
  await loadZlib();
  const c = setup({ ttlMs: 1_000 });
  // Varied enough text that brotli's best quality beats its fast one.
  const words = ["vote", "answer", "question", "Deno", "KV", "island", "brotli", "cache"];
  const html = `<main>${
    Array.from({ length: 400 }, (_, i) => `<p>${words[(i * 7) % 8]} ${i * 37 % 101}</p>`).join("")
  }</main>`;
  const br = { "accept-encoding": "br" };
  const body = async (res: Response | null) => new Uint8Array(await res!.arrayBuffer());
  await serve(c, get("/", br), c.page(html));
  const fast = await body(c.cache.hit(get("/", br)));
  const utf8 = (s: string) => new TextEncoder().encode(s);
  assert.deepEqual(fast, encode(utf8(html), "br"), "a new page: the fast quality");
  c.advance(1_000);
  // The refill renders the same bytes: the entry lasted a refill, so br is made again at best.
  assert.equal((await serve(c, get("/", br), c.page(html))).how, "miss");
  const best = await body(c.cache.hit(get("/", br)));
  assert.deepEqual(best, encode(utf8(html), "br", { best: true }));
  assert.ok(best.byteLength < fast.byteLength, `${best.byteLength} < ${fast.byteLength}`);
  // A write drops the page; the render after it has the same bytes: the best body is kept.
  c.cache.drop();
  await serve(c, get("/", br), c.page(html));
  assert.deepEqual(await body(c.cache.hit(get("/", br))), best);
  // Other bytes are a new version: fast again, and of the new bytes.
  c.advance(1_000);
  const changed = html.replace("vote", "poll");
  await serve(c, get("/", br), c.page(changed));
  const fresh = await body(c.cache.hit(get("/", br)));
  assert.deepEqual(fresh, encode(utf8(changed), "br"), "the new bytes, at the fast quality again");
  assert.equal(c.renders(), 4);
});

Deno.test("PageCache: a page over BEST_QUALITY_MAX_BYTES stays at the fast quality however long its bytes last", async () => {
  await loadZlib();
  const c = setup({ ttlMs: 1_000 });
  const html = Array.from({ length: 9_000 }, (_, i) => `<p>${i}</p>`).join("");
  assert.ok(html.length > BEST_QUALITY_MAX_BYTES);
  const br = { "accept-encoding": "br" };
  const fast = encode(new TextEncoder().encode(html), "br");
  for (let fill = 0; fill < 3; fill++) {
    await serve(c, get("/", br), c.page(html));
    assert.deepEqual(new Uint8Array(await c.cache.hit(get("/", br))!.arrayBuffer()), fast);
    c.advance(1_000);
  }
});
