/** Rendered parts reused by key: bounds, reuse, and no islands inside a cached part. */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { cachedElement, HtmlCache, renderedParts } from "./html_cache.ts";
import { createFreshHandler } from "./server.ts";

Deno.test("HtmlCache keeps at most maxEntries, dropping the oldest first", () => {
  const cache = new HtmlCache({ maxEntries: 2, maxBytes: 1 << 20 });
  cache.set("a", "<a>");
  cache.set("b", "<b>");
  cache.set("c", "<c>");
  assert.equal(cache.size, 2);
  assert.equal(cache.get("a"), undefined);
  assert.equal(cache.get("c"), "<c>");
});

Deno.test("HtmlCache stays under maxBytes and refuses an entry too big to be worth keeping", () => {
  const cache = new HtmlCache({ maxEntries: 100, maxBytes: 2000 });
  for (let i = 0; i < 10; i++) cache.set(`k${i}`, "x".repeat(40));
  // 2 bytes a code unit and 128 an entry: (2 + 40) * 2 + 128 = 212 bytes, so 9 fit in 2000.
  assert.equal(cache.size, 9);
  assert.equal(cache.get("k0"), undefined);
  cache.set("big", "y".repeat(100)); // 334 bytes > 2000 / 8
  assert.equal(cache.get("big"), undefined);
});

Deno.test("cachedElement() renders a key once and reuses its HTML while the key is the same", () => {
  renderedParts.clear();
  let renders = 0;
  const Part = ({ title }: { title: string }) => {
    renders++;
    return <strong>{title}</strong>;
  };
  const page = (title: string) =>
    renderToString(
      <ul>
        {cachedElement(
          "li",
          { class: "item" },
          JSON.stringify(["t", title]),
          () => <Part title={title} />,
        )}
      </ul>,
    );
  assert.equal(page("<Hi>"), '<ul><li class="item"><strong>&lt;Hi></strong></li></ul>');
  assert.equal(page("<Hi>"), '<ul><li class="item"><strong>&lt;Hi></strong></li></ul>');
  assert.equal(renders, 1);
  assert.equal(page("Other"), '<ul><li class="item"><strong>Other</strong></li></ul>');
  assert.equal(renders, 2);
});

Deno.test("an island inside a cached part fails the render instead of losing its props", async () => {
  renderedParts.clear();
  const Counter = ({ n }: { n: number }) => <button type="button">{n}</button>;
  const handler = createFreshHandler({
    baseUrl: "file:///x/",
    islands: { "./islands/Counter.tsx": { default: Counter } },
    routes: {
      "./routes/index.tsx": {
        default: () => cachedElement("div", {}, "with-island", () => <Counter n={1} />),
      },
    },
  }, {
    build: { buildId: "b", client: "c.js", islands: { Counter: "i.js" }, staticFiles: [] },
  });
  const originalError = console.error;
  const logged: string[] = [];
  console.error = (...args: unknown[]) => logged.push(args.map(String).join(" "));
  try {
    const res = await handler(new Request("http://x/"), { state: {} });
    assert.equal(res.status, 500);
    await res.body?.cancel();
  } finally {
    console.error = originalError;
  }
  assert.ok(logged.some((l) => l.includes('Island "Counter" inside a cached part')), logged.join());
});
