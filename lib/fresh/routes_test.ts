import assert from "node:assert/strict";
import { compileRoutes, matchRoute, preloadRoutes } from "@/lib/fresh/routes.ts";
import manifest from "@/manifest.gen.ts";

/** What a scan of every route's URLPattern finds for `path`: the file and decoded params. */
function scanned(table: ReturnType<typeof compileRoutes>, path: string) {
  for (const r of table.routes) {
    const m = r.matcher.exec({ pathname: path });
    if (!m) continue;
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(m.pathname.groups)) {
      if (v === undefined) params[k] = "";
      else {
        try {
          params[k] = decodeURIComponent(v);
        } catch {
          params[k] = v;
        }
      }
    }
    return { file: r.file, params };
  }
  return null;
}

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

Deno.test("matchRoute() finds the route and params a URLPattern scan finds, for every route of the app", () => {
  // Built from file names only: no route module is imported. Paths as `new URL()` gives
  // them (`new URL()` resolves dot segments before a path gets here).
  const table = compileRoutes(manifest.routes);
  const values = ["q1", "a%20b", "%c3%a9", "%C3%A9", "a%zz", "x.y", "~a_b-c", "a:b@c", "a b", "é"];
  const paths = new Set<string>(["/", "//", "/api", "/api/", "/nothing/here"]);
  for (const r of table.routes) {
    for (const v of values) {
      const path = r.pattern.replace(/:[A-Za-z_][A-Za-z0-9_]*\*?/g, v);
      paths.add(path);
      paths.add(`${path}/`);
      paths.add(`${path}/extra`);
      paths.add(path.toUpperCase());
      paths.add(path.replace(/\/[^/]*$/, "/"));
    }
  }
  let segmentwise = 0;
  for (const path of paths) {
    const got = matchRoute(table, path);
    assert.deepEqual(
      got && { file: got.route.file, params: got.params },
      scanned(table, path),
      path,
    );
    if (got?.route.segmentwise) segmentwise++;
  }
  // Most of the app's paths are decided without URLPattern.
  assert.ok(segmentwise > paths.size / 4, `${segmentwise} of ${paths.size}`);
});
