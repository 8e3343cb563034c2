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
