/** Island SSR: markers, props serialization, nested islands, refusal of functions. */
import assert from "node:assert/strict";
import { signal } from "@preact/signals";
import { createFreshHandler } from "./server.ts";
import { encodeProps, islandName, IslandPropError, islandsJson, TAG } from "./islands.ts";
import { renderedParts } from "./html_cache.ts";
import type { Manifest } from "./types.ts";

function Counter({ start }: { start: number; onClick?: () => void; when?: Date }) {
  return <button type="button">count {start}</button>;
}
function Outer({ label }: { label: string }) {
  return (
    <div class="outer">
      {label}
      <Counter start={99} />
    </div>
  );
}

const build = {
  buildId: "b1",
  client: "client.js",
  islands: { Counter: "island_Counter.js", Outer: "island_Outer.js" },
  staticFiles: [],
};

function handlerFor(pageBody: () => preact.JSX.Element) {
  const manifest: Manifest = {
    baseUrl: "file:///x/",
    islands: {
      "./islands/Counter.tsx": { default: Counter },
      "./islands/Outer.tsx": { default: Outer },
    },
    routes: {
      "./routes/_app.tsx": {
        default: ({ Component }: { Component: () => preact.JSX.Element }) => (
          <html>
            <head></head>
            <body>
              <Component />
            </body>
          </html>
        ),
      },
      "./routes/index.tsx": { default: pageBody },
    },
  };
  return createFreshHandler(manifest, { build });
}

async function render(pageBody: () => preact.JSX.Element) {
  const res = await handlerFor(pageBody)(new Request("http://x/"), { state: {} });
  return { status: res.status, html: await res.text() };
}

function islandState(html: string): { name: string; props: unknown }[] {
  const m = /<script type="application\/json" id="__parley_islands">(.*?)<\/script>/.exec(html);
  assert.ok(m, "island state script present");
  return JSON.parse(m[1]);
}

Deno.test("an island renders inside a <parley-island> marker and its props are recorded", async () => {
  const { html } = await render(() => <Counter start={3} />);
  assert.match(
    html,
    /<parley-island data-island="Counter" data-i="0"><button type="button">count 3<\/button><\/parley-island>/,
  );
  assert.deepEqual(islandState(html), [{ name: "Counter", props: { start: 3 } }]);
});

Deno.test("the boot script is the build's boot file, no inline code, and only the islands the page uses are preloaded", async () => {
  const { html } = await render(() => <Counter start={1} />);
  assert.match(html, /<script type="module" src="\/_parley\/b1\/boot\.js"><\/script>/);
  assert.doesNotMatch(html, /<script type="module">|nonce=/);
  assert.match(html, /<link rel="modulepreload" href="\/_parley\/b1\/island_Counter\.js">/);
  assert.doesNotMatch(html, /island_Outer/);
});

Deno.test("a page without islands ships no script at all", async () => {
  const { html } = await render(() => <p>static</p>);
  assert.doesNotMatch(html, /<script/);
});

Deno.test("an island inside an island renders as part of the outer one", async () => {
  const { html } = await render(() => <Outer label="hi" />);
  assert.equal((html.match(/<parley-island/g) ?? []).length, 1);
  assert.match(html, /<div class="outer">hi<button type="button">count 99<\/button><\/div>/);
  assert.deepEqual(islandState(html), [{ name: "Outer", props: { label: "hi" } }]);
});

Deno.test("each island instance on a page gets its own props slot", async () => {
  const { html } = await render(() => (
    <>
      <Counter start={1} />
      <Outer label="x" />
      <Counter start={2} />
    </>
  ));
  assert.deepEqual(islandState(html).map((i) => i.name), ["Counter", "Outer", "Counter"]);
  assert.match(html, /data-i="2"><button type="button">count 2/);
});

Deno.test("a function prop fails the render naming the island and the prop", async () => {
  const originalError = console.error;
  const logged: string[] = [];
  console.error = (...args: unknown[]) => logged.push(args.map(String).join(" "));
  try {
    const { status } = await render(() => <Counter start={1} onClick={() => {}} />);
    assert.equal(status, 500);
    assert.ok(
      logged.some((l) => l.includes('Island "Counter" prop "onClick" is a function')),
      logged.join("\n"),
    );
  } finally {
    console.error = originalError;
  }
});

Deno.test("encodeProps() tags Dates and signals, keeps nested plain data plain and names a refused prop's path", () => {
  const when = new Date("2026-01-02T03:04:05.000Z");
  const enc = encodeProps("X", { when, s: signal(5), list: [1, { a: "b" }], skip: undefined });
  assert.deepEqual(enc, {
    when: { [TAG]: "date", v: "2026-01-02T03:04:05.000Z" },
    s: { [TAG]: "signal", v: 5 },
    list: [1, { a: "b" }],
  });
  assert.throws(
    () => encodeProps("X", { deep: { fn: () => 1 } }),
    (err) => err instanceof IslandPropError && /prop "deep\.fn" is a function/.test(err.message),
  );
  assert.throws(() => encodeProps("X", { m: new Map() }), /prop "m" is an instance of Map/);
});

Deno.test("islandsJson() output cannot close its script element", () => {
  const props = { s: "</script><script>alert(1)</script>\u2028" };
  const json = islandsJson([{ name: "A", json: JSON.stringify(props) }]);
  assert.doesNotMatch(json, /<|\u2028/);
  assert.deepEqual(JSON.parse(json), [{ name: "A", props }]);
});

Deno.test("islandName() names an island by its file name, as an identifier", () => {
  assert.equal(islandName("./islands/VoteButtons.tsx"), "VoteButtons");
  assert.equal(islandName("./islands/forms/new-question.ts"), "new_question");
});

let tallyRenders = 0;
function Tally({ n }: { n: number }) {
  tallyRenders++;
  return <span>tally {n}</span>;
}

Deno.test("an island's server HTML is rendered once per props and reused, with its props recorded each time", async () => {
  renderedParts.clear();
  tallyRenders = 0;
  const manifest: Manifest = {
    baseUrl: "file:///x/",
    islands: { "./islands/Tally.tsx": { default: Tally } },
    routes: {
      "./routes/index.tsx": {
        default: () => (
          <>
            <Tally n={1} />
            <Tally n={1} />
            <Tally n={2} />
          </>
        ),
      },
    },
  };
  const handler = createFreshHandler(manifest, {
    build: { ...build, islands: { Tally: "island_Tally.js" } },
  });
  const pages: string[] = [];
  for (let i = 0; i < 3; i++) {
    pages.push(await (await handler(new Request("http://x/"), { state: {} })).text());
  }
  // Two distinct props, three pages of three islands: two renders in all.
  assert.equal(tallyRenders, 2);
  for (const html of pages) {
    assert.deepEqual(islandState(html), [
      { name: "Tally", props: { n: 1 } },
      { name: "Tally", props: { n: 1 } },
      { name: "Tally", props: { n: 2 } },
    ]);
    assert.match(html, /data-i="1"><span>tally 1<\/span>.*data-i="2"><span>tally 2<\/span>/);
  }
  assert.equal(pages[0], pages[2]);
});

Deno.test("flat props are recorded as encodeProps() would: undefined left out, non-finite numbers null", async () => {
  const { html } = await render(() => (
    <Counter start={Number.NaN} {...{ label: "x", gone: undefined, on: true, none: null }} />
  ));
  const [instance] = islandState(html);
  assert.deepEqual(instance.props, { start: null, label: "x", on: true, none: null });
  assert.deepEqual(
    instance.props,
    encodeProps("Counter", {
      start: Number.NaN,
      label: "x",
      gone: undefined,
      on: true,
      none: null,
    }),
  );
});

function Lazy({ n }: { n: number }) {
  return <span>lazy {n}</span>;
}
function Unused() {
  return <span>unused</span>;
}

Deno.test("islands given as loaders load with the first route that reaches them, and only those", async () => {
  const loads: string[] = [];
  const loader = (name: string, component: (props: { n: number }) => preact.JSX.Element) => () => {
    loads.push(name);
    return Promise.resolve({ default: component });
  };
  const manifest: Manifest = {
    baseUrl: "file:///x/",
    islands: {
      "./islands/Lazy.tsx": loader("Lazy", Lazy),
      "./islands/Unused.tsx": loader("Unused", Unused),
    },
    routeIslands: { "./routes/index.tsx": ["./islands/Lazy.tsx"] },
    routes: {
      "./routes/index.tsx": () => Promise.resolve({ default: () => <Lazy n={3} /> }),
      "./routes/other.tsx": () => Promise.resolve({ default: () => <Unused /> }),
    },
  };
  const handler = createFreshHandler(manifest, {
    build: { ...build, islands: { Lazy: "island_Lazy.js", Unused: "island_Unused.js" } },
  });
  assert.deepEqual(loads, [], "no island loads before a request");
  const first = await (await handler(new Request("http://x/"), { state: {} })).text();
  assert.deepEqual(islandState(first), [{ name: "Lazy", props: { n: 3 } }]);
  assert.deepEqual(loads, ["Lazy"]);
  // Loaded once: the next request finds it registered.
  const second = await (await handler(new Request("http://x/"), { state: {} })).text();
  assert.equal(second, first);
  assert.deepEqual(loads, ["Lazy"]);
  // A route whose islands the table does not list gets no island loaded for it: the
  // table is what registers them (tests/integration/start_graph_test.ts checks it is
  // complete for the real routes).
  const other = await (await handler(new Request("http://x/other"), { state: {} })).text();
  assert.match(other, /<span>unused<\/span>/);
  assert.doesNotMatch(other, /parley-island/);
  assert.deepEqual(loads, ["Lazy"]);
});
