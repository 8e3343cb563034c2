import assert from "node:assert/strict";
import { compileRoutes, matchRoute, preloadRoutes } from "@/lib/fresh/routes.ts";

Deno.test("matchRoute() skips impossible routes yet matches exactly as a scan of every URLPattern", () => {
  const page = { default: () => null };
  const table = compileRoutes({
    "./routes/index.tsx": page,
    "./routes/(main)/questions/[id].tsx": page,
    "./routes/questions/new.tsx": page,
    "./routes/api/questions/index.ts": page,
    "./routes/api/questions/[id]/index.ts": page,
    "./routes/api/agent/(key)/questions/index.ts": page,
    "./routes/docs/[...path].tsx": page,
    "./routes/[user].tsx": page,
    "./routes/skill.md.ts": page,
  });
  const paths = [
    "/",
    "/questions/q1",
    "/questions/new",
    "/questions/",
    "/questions",
    "/api/questions",
    "/api/questions/",
    "/api/questions/a%20b",
    "/api/agent/questions",
    "/docs",
    "/docs/a/b",
    "/ada",
    "/skill.md",
    "/nothing/here/at/all",
    "//",
  ];
  for (const path of paths) {
    const naive = table.routes.find((r) => r.matcher.exec({ pathname: path }));
    assert.equal(matchRoute(table, path)?.route.file, naive?.file, path);
  }
  assert.equal(matchRoute(table, "/api/questions/a%20b")?.params.id, "a b");
});

Deno.test("preloadRoutes() starts the given files' imports only, and leaves a failed one to its request", async () => {
  const started: string[] = [];
  const loader = (file: string, fail = false) => () => {
    started.push(file);
    return fail
      ? Promise.reject(new Error(`no ${file}`))
      : Promise.resolve({ default: () => null });
  };
  const routes = {
    "./routes/_app.tsx": loader("_app"),
    "./routes/index.tsx": loader("index", true),
    "./routes/other.tsx": loader("other"),
  };
  preloadRoutes(routes, ["./routes/_app.tsx", "./routes/index.tsx", "./routes/missing.tsx"]);
  assert.deepEqual(started, ["_app", "index"]);
  // The failed import is caught (no unhandled rejection fails this test); the route's own
  // loader imports again when a request needs it.
  await new Promise((r) => setTimeout(r, 0));
  const table = compileRoutes(routes);
  await assert.rejects(table.routes.find((r) => r.pattern === "/")!.load(), /no index/);
  assert.deepEqual(started, ["_app", "index", "index"]);
});
