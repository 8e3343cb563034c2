import assert from "node:assert/strict";
import { compileRoutes, matchRoute } from "@/lib/fresh/routes.ts";

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
