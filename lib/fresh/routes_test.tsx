/** From route file names to a sorted, matchable table. */
import assert from "node:assert/strict";
import { compareRoutes, compileRoutes, matchRoute, routePattern } from "./routes.ts";
import type { RouteModule } from "./types.ts";

const page: RouteModule = { default: () => null };

Deno.test("routePattern() maps files to Fresh patterns and drops groups", () => {
  assert.equal(routePattern("./routes/index.tsx").pattern, "/");
  assert.equal(routePattern("./routes/questions/[id].tsx").pattern, "/questions/:id");
  assert.equal(routePattern("./routes/docs/[...path].tsx").pattern, "/docs/:path*");
  assert.equal(routePattern("./routes/(marketing)/pricing.tsx").pattern, "/pricing");
  assert.equal(routePattern("./routes/api/index.ts").pattern, "/api");
});

Deno.test("compareRoutes() sorts static segments before params and params before rest", () => {
  const sorted = [
    "./routes/[...all].tsx",
    "./routes/[slug].tsx",
    "./routes/about.tsx",
    "./routes/index.tsx",
  ].map((f) => ({ f, ...routePattern(f) })).sort(compareRoutes).map((r) => r.pattern);
  assert.deepEqual(sorted, ["/", "/about", "/:slug", "/:all*"]);
});

Deno.test("matchRoute() keeps a malformed percent-escape as written", () => {
  const table = compileRoutes({ "./routes/q/[id].tsx": page });
  assert.deepEqual(matchRoute(table, "/q/%E0%A4%A")?.params, { id: "%E0%A4%A" });
  assert.equal(matchRoute(table, "/nowhere"), null);
});

Deno.test("compileRoutes() refuses two files claiming one pattern", () => {
  assert.throws(
    () => compileRoutes({ "./routes/(a)/x.tsx": page, "./routes/(b)/x.tsx": page }),
    /both match \/x/,
  );
});

Deno.test("compileRoutes() refuses a handler or middleware written as (req, ctx)", () => {
  const legacy = (_req: Request, _ctx: unknown) => new Response();
  assert.throws(
    () => compileRoutes({ "./routes/x.ts": { handler: { GET: legacy } as never } }),
    /routes\/x\.ts: GET declares 2 parameters/,
  );
  assert.throws(
    () => compileRoutes({ "./routes/_middleware.ts": { default: legacy as never } }),
    /_middleware\.ts: handler declares 2 parameters/,
  );
  const fine = compileRoutes({
    "./routes/_middleware.ts": { default: (ctx: { next(): Promise<Response> }) => ctx.next() },
    "./routes/x.ts": { handler: { GET: () => new Response() } },
  });
  assert.equal(fine.routes.length, 1);
});

Deno.test("compileRoutes() imports a loader's module on the route's first load only, once", async () => {
  const imported: string[] = [];
  const loader = (file: string, module: RouteModule) => () => {
    imported.push(file);
    return Promise.resolve(module);
  };
  const table = compileRoutes({
    "./routes/_middleware.ts": loader("mw", { handler: (ctx) => ctx.next() }),
    "./routes/a.tsx": loader("a", page),
    "./routes/b.tsx": loader("b", page),
  });
  assert.deepEqual(imported, []);
  const hit = matchRoute(table, "/a")!;
  const [first, second] = await Promise.all([hit.route.load(), hit.route.load()]);
  assert.equal(first, second);
  assert.equal(hit.route.loaded, first);
  assert.equal(first.module, page);
  assert.equal(first.middlewares.length, 1);
  assert.deepEqual(imported.sort(), ["a", "mw"]);
});

Deno.test("compileRoutes() refuses a loaded handler written as (req, ctx) when it loads", async () => {
  const legacy = (_req: Request, _ctx: unknown) => new Response();
  const table = compileRoutes({
    "./routes/x.ts": () => Promise.resolve({ handler: { GET: legacy } as never }),
  });
  await assert.rejects(() => matchRoute(table, "/x")!.route.load(), /declares 2 parameters/);
});
