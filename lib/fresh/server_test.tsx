/**
 * createFreshHandler() against a synthetic manifest: params, rest, groups, ordering,
 * middleware order, layouts, HEAD, 404, 405 and 500, seen through requests.
 */
import assert from "node:assert/strict";
import type { ComponentChildren } from "preact";
import { Head } from "./head.ts";
import type { Context } from "./context.ts";
import { HttpError } from "./error.ts";
import { page as pageResponse } from "./handlers.ts";
import { createFreshHandler } from "./server.ts";
import type { Manifest, PageProps, RouteModule } from "./types.ts";

type State = { trail: string[] };

const page = (name: string): RouteModule => ({
  default: ({ params, state }: PageProps<unknown, State>) => (
    <p id="page" data-trail={state.trail.join("+")}>
      {name}:{Object.entries(params).map(([k, v]) =>
        `${k}=${v}`
      ).join(",")}
    </p>
  ),
});

const layout = (name: string): RouteModule => ({
  default: ({ Component }: PageProps) => (
    <section data-layout={name}>
      <Component />
    </section>
  ),
});

/** A `_middleware` module: its middleware as `handler`, or (`asDefault`) as Fresh 2's default. */
const middleware = (name: string, asDefault = false): RouteModule => {
  const fn = async (ctx: Context<State>) => {
    ctx.state.trail.push(name);
    const res = await ctx.next();
    res.headers.append("x-mw", name);
    return res;
  };
  return asDefault ? { default: fn } : { handler: fn };
};

const manifest: Manifest = {
  baseUrl: "file:///app/",
  islands: {},
  routes: {
    "./routes/_app.tsx": {
      default: ({ Component }: { Component: () => ComponentChildren }) => (
        <html>
          <head>
            <meta charset="utf-8" />
          </head>
          <body>
            <div id="app">
              <Component />
            </div>
          </body>
        </html>
      ),
    },
    "./routes/_middleware.ts": middleware("root"),
    "./routes/_layout.tsx": layout("root"),
    "./routes/_404.tsx": { default: () => <h1>custom not found</h1> },
    "./routes/_500.tsx": { default: () => <h1>custom error</h1> },
    "./routes/index.tsx": page("home"),
    "./routes/about.tsx": {
      default: () => (
        <>
          <Head>
            <title>About us</title>
          </Head>
          <p>about</p>
        </>
      ),
    },
    "./routes/[slug].tsx": page("slug"),
    "./routes/questions/[id].tsx": page("question"),
    "./routes/questions/new.tsx": page("new-question"),
    "./routes/questions/[id]/answers/[answerId].tsx": page("answer"),
    "./routes/docs/[...path].tsx": page("docs"),
    "./routes/(marketing)/_layout.tsx": layout("marketing"),
    "./routes/(marketing)/_middleware.ts": middleware("marketing", true),
    "./routes/(marketing)/pricing.tsx": page("pricing"),
    "./routes/api/_middleware.ts": middleware("api"),
    "./routes/api/items/[id].ts": {
      handler: {
        GET: (ctx: Context<State>) => Response.json({ id: ctx.params.id, trail: ctx.state.trail }),
        POST: () => new Response("created", { status: 201 }),
      },
    },
    "./routes/api/echo.ts": {
      handler: (ctx: Context<State>) => new Response(`method ${ctx.req.method}`),
    },
    "./routes/boom.tsx": {
      handler: { GET: () => Promise.reject(new Error("secret internal detail")) },
      default: () => <p>never</p>,
    },
    "./routes/data.tsx": {
      handler: {
        GET: () => pageResponse({ n: 41 + 1 }, { status: 202, headers: { "x-data": "yes" } }),
      },
      default: ({ data }: PageProps<{ n: number }>) => <p id="data">n={data.n}</p>,
    },
    "./routes/(plain)/_layout.tsx": {
      ...layout("plain"),
      config: { skipInheritedLayouts: true },
    },
    "./routes/(plain)/plain.tsx": page("plain"),
    "./routes/bare.tsx": {
      config: { skipAppWrapper: true, skipInheritedLayouts: true },
      default: () => <p id="bare">bare</p>,
    },
  },
};

const build = { buildId: "test", client: "client.js", islands: {}, staticFiles: [] };
const handle = createFreshHandler(manifest, {
  build,
  plainErrors: (url) => url.pathname.startsWith("/api/"),
});

async function get(path: string, method = "GET") {
  const res = await handle(new Request(`http://localhost${path}`, { method }), {
    state: { trail: [] },
  });
  return { res, body: await res.text() };
}

Deno.test("createFreshHandler() serves index, static and param routes with decoded params", async () => {
  assert.match((await get("/")).body, /home:</);
  assert.match((await get("/questions/q%201")).body, /question:id=q 1</);
  const nested = await get("/questions/q1/answers/a9");
  assert.match(nested.body, /answer:id=q1,answerId=a9</);
});

Deno.test("createFreshHandler() prefers a static route over a param route at the same depth", async () => {
  assert.match((await get("/questions/new")).body, /new-question/);
  assert.match((await get("/about")).body, /<p>about<\/p>/);
  assert.match((await get("/anything")).body, /slug:slug=anything</);
});

Deno.test("createFreshHandler() gives a rest param any depth of path, including none", async () => {
  assert.match((await get("/docs/a/b/c")).body, /docs:path=a\/b\/c</);
  assert.match((await get("/docs")).body, /docs:path=</);
});

Deno.test("createFreshHandler() adds no path segment for a group folder but scopes its layout and middleware", async () => {
  const pricing = await get("/pricing");
  assert.match(pricing.body, /pricing/);
  assert.match(pricing.body, /data-layout="root"><section data-layout="marketing">/);
  assert.match(pricing.body, /data-trail="root\+marketing"/);
  const about = await get("/about");
  assert.doesNotMatch(about.body, /marketing/);
});

Deno.test("createFreshHandler() runs middleware root first and unwinds it in reverse", async () => {
  const { res, body } = await get("/api/items/7");
  assert.deepEqual(JSON.parse(body), { id: "7", trail: ["root", "api"] });
  assert.equal(res.headers.get("x-mw"), "api, root");
});

Deno.test("createFreshHandler() nests layouts inside _app and puts a <Head> title in the head", async () => {
  const { body } = await get("/about");
  assert.match(
    body,
    /^<!DOCTYPE html><html><head><meta charset="utf-8"\/><title>About us<\/title>/,
  );
  assert.match(body, /<div id="app"><section data-layout="root"><p>about<\/p><\/section><\/div>/);
});

Deno.test("page() passes its data to the page and its options to the response", async () => {
  const { res, body } = await get("/data");
  assert.equal(res.status, 202);
  assert.equal(res.headers.get("x-data"), "yes");
  assert.match(body, /n=42/);
});

Deno.test("createFreshHandler() renders a page with skipAppWrapper and skipInheritedLayouts alone", async () => {
  const { body } = await get("/bare");
  assert.equal(body, '<!DOCTYPE html><p id="bare">bare</p><title></title>');
});

Deno.test("createFreshHandler() drops the layouts above one that sets skipInheritedLayouts", async () => {
  const { body } = await get("/plain");
  assert.match(body, /<div id="app"><section data-layout="plain"><p id="page"/);
  assert.doesNotMatch(body, /data-layout="root"/);
});

Deno.test("createFreshHandler() answers HEAD from GET without a body", async () => {
  const { res, body } = await get("/about", "HEAD");
  assert.equal(res.status, 200);
  assert.equal(body, "");
  assert.match(res.headers.get("content-type") ?? "", /text\/html/);
});

Deno.test("createFreshHandler() answers a method the route lacks with 405 and Allow", async () => {
  const put = await get("/api/items/7", "PUT");
  assert.equal(put.res.status, 405);
  assert.equal(put.res.headers.get("allow"), "GET, HEAD, POST");
  const post = await get("/about", "POST");
  assert.equal(post.res.status, 405);
  assert.equal(post.res.headers.get("allow"), "GET, HEAD");
});

Deno.test("createFreshHandler() lets a handler function answer every method", async () => {
  assert.equal((await get("/api/echo", "DELETE")).body, "method DELETE");
});

Deno.test("createFreshHandler() renders _404 inside _app with status 404 for an unknown path", async () => {
  const { res, body } = await get("/questions/q1/nope/deeper/still");
  assert.equal(res.status, 404);
  assert.match(body, /<div id="app"><h1>custom not found<\/h1><\/div>/);
  assert.equal(res.headers.get("x-mw"), "root");
});

Deno.test("createFreshHandler() answers 404 as JSON on a plain-error path", async () => {
  const { res, body } = await get("/api/nothing/here");
  assert.equal(res.status, 404);
  assert.deepEqual(JSON.parse(body), { error: "Not found" });
});

Deno.test("createFreshHandler() renders _500 without the error's text when a handler throws", async () => {
  const originalError = console.error;
  console.error = () => {};
  try {
    const { res, body } = await get("/boom");
    assert.equal(res.status, 500);
    assert.match(body, /custom error/);
    assert.doesNotMatch(body, /secret internal detail|at |Error:/);
  } finally {
    console.error = originalError;
  }
});

Deno.test("a middleware that replaces ctx.state hands the new object to later middleware, handler and page", async () => {
  type Replaced = { trail: string[]; who: string };
  const replacing = createFreshHandler({
    baseUrl: "file:///x/",
    islands: {},
    routes: {
      "./routes/_middleware.ts": {
        handler: (ctx: Context<Replaced>) => {
          ctx.state = { trail: ["replaced"], who: "ada" };
          return ctx.next();
        },
      },
      "./routes/api/_middleware.ts": {
        handler: (ctx: Context<Replaced>) => {
          ctx.state.trail.push("api");
          return ctx.next();
        },
      },
      "./routes/api/who.ts": {
        handler: (ctx: Context<Replaced>) => Response.json(ctx.state),
      },
      "./routes/who.tsx": {
        default: ({ state }: PageProps<unknown, Replaced>) => <p id="who">{state.who}</p>,
      },
    },
  }, { build });
  const init = { state: { trail: [] } };
  const api = await replacing(new Request("http://localhost/api/who"), init);
  assert.deepEqual(await api.json(), { trail: ["replaced", "api"], who: "ada" });
  const page = await replacing(new Request("http://localhost/who"), init);
  assert.match(await page.text(), /<p id="who">ada<\/p>/);
});

/** A handler of its own small manifest: one route at `/x` plus `_app` and `_404`. */
function single(route: RouteModule, plainErrors?: (url: URL) => boolean) {
  return createFreshHandler({
    baseUrl: "file:///x/",
    islands: {},
    routes: {
      "./routes/_app.tsx": {
        default: ({ Component }: PageProps) => (
          <html>
            <head></head>
            <body>
              <Component />
            </body>
          </html>
        ),
      },
      "./routes/_404.tsx": {
        default: ({ error }: PageProps) => (
          <h1 id="missing">{error instanceof HttpError ? error.message : "no error"}</h1>
        ),
      },
      "./routes/x.tsx": route,
    },
  }, { build, plainErrors });
}

Deno.test("a thrown HttpError(404) renders _404 with the error as its prop and its headers", async () => {
  const handle = single({
    handler: {
      GET: () => {
        throw new HttpError(404, "Gone away", { headers: { "x-why": "gone" } });
      },
    },
    default: () => <p>never</p>,
  });
  const res = await handle(new Request("http://localhost/x"), { state: {} });
  assert.equal(res.status, 404);
  assert.equal(res.headers.get("x-why"), "gone");
  assert.match(await res.text(), /<body><h1 id="missing">Gone away<\/h1><\/body>/);
  const unknown = await handle(new Request("http://localhost/nowhere"), { state: {} });
  assert.equal(unknown.status, 404);
  assert.match(await unknown.text(), /<h1 id="missing">Not found<\/h1>/);
});

Deno.test("a thrown HttpError(404) on a plain-error path answers the JSON 404", async () => {
  const handle = single({
    handler: () => {
      throw new HttpError(404);
    },
  }, () => true);
  const res = await handle(new Request("http://localhost/x"), { state: {} });
  assert.equal(res.status, 404);
  assert.deepEqual(await res.json(), { error: "Not found" });
});

Deno.test("ctx.redirect() answers 302 by default and keeps a path on this site", async () => {
  const handle = single({
    handler: {
      GET: (ctx) => ctx.redirect(ctx.url.searchParams.get("to")!),
      POST: (ctx) => ctx.redirect("/done?x=1", 303),
    },
  });
  const get = await handle(new Request("http://localhost/x?to=//evil.example/a"), { state: {} });
  assert.equal(get.status, 302);
  assert.equal(get.headers.get("location"), "/evil.example/a");
  const post = await handle(new Request("http://localhost/x", { method: "POST" }), { state: {} });
  assert.equal(post.status, 303);
  assert.equal(post.headers.get("location"), "/done?x=1");
});

Deno.test("ctx.info is the connection the caller gives, a loopback address without one", async () => {
  const handle = single({
    handler: (ctx) => Response.json(ctx.info.remoteAddr),
  });
  const info: Deno.ServeHandlerInfo = {
    remoteAddr: { transport: "tcp", hostname: "203.0.113.7", port: 51000 },
    completed: Promise.resolve(),
  };
  const given = await handle(new Request("http://localhost/x"), { state: {}, info });
  assert.deepEqual(await given.json(), info.remoteAddr);
  const none = await handle(new Request("http://localhost/x"), { state: {} });
  assert.deepEqual(await none.json(), { transport: "tcp", hostname: "127.0.0.1", port: 0 });
});

Deno.test("a page's props carry the request's context: req, info, params, route, no error", async () => {
  const handle = createFreshHandler({
    baseUrl: "file:///x/",
    islands: {},
    routes: {
      "./routes/q/[id].tsx": {
        default: ({ req, info, params, route, error, data }: PageProps) => (
          <p id="props" data-error={String(error)} data-data={String(data)}>
            {[req.method, (info.remoteAddr as Deno.NetAddr).hostname, params.id, route].join(" ")}
          </p>
        ),
      },
    },
  }, { build });
  const res = await handle(new Request("http://localhost/q/7"), { state: {} });
  assert.match(
    await res.text(),
    /<p id="props" data-error="null" data-data="undefined">GET 127\.0\.0\.1 7 \/q\/:id<\/p>/,
  );
});
