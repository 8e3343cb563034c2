/**
 * What a new instance loads before its first answer: main.ts's static import graph holds no
 * heavy module (the model client, the MCP SDK, Markdown, search analysis, feeds, the icon
 * package's index, no route at all), and neither do the modules the first `/` loads (the
 * root `_app`, `_middleware`, `_404`, `_500` and the home route). Those load on first use
 * through `import()`, which this walk does not follow; type-only imports are not followed
 * either (they are erased).
 */
import assert from "node:assert/strict";
import { ROOT } from "../helpers/app.ts";

/** npm packages no start-up module may import statically. */
const HEAVY_PACKAGES = [
  "openai",
  "@modelcontextprotocol/sdk",
  "micromark",
  "micromark-extension-gfm",
  "@orama/stemmers",
  "@orama/stopwords",
  "@orama/orama",
  "lucide-preact",
  "linkedom",
  "gpt-tokenizer",
  "unhomoglyph",
  "feedsmith",
  "fast-xml-parser",
  "minisearch",
];

/** Local modules no start-up module may import statically. */
const HEAVY_LOCAL = [
  "lib/markdown.ts",
  "lib/search/analyze.ts",
  "lib/search/search.ts",
  "lib/agent/mcp.ts",
  "lib/moderation/moderation.ts",
];

interface InfoModule {
  specifier: string;
  dependencies?: { specifier: string; isDynamic?: boolean; code?: { specifier: string } }[];
}

/** Every module reached from `entries` by static, non-type imports. */
async function staticGraph(entries: string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  for (const entry of entries) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", entry],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
      roots: string[];
      modules: InfoModule[];
      redirects: Record<string, string>;
    };
    const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
    const queue = [...info.roots];
    while (queue.length > 0) {
      const at = queue.shift()!;
      if (seen.has(at)) continue;
      seen.add(at);
      for (const dep of bySpecifier.get(at)?.dependencies ?? []) {
        if (dep.isDynamic || !dep.code) continue;
        queue.push(info.redirects[dep.code.specifier] ?? dep.code.specifier);
      }
    }
  }
  return seen;
}

/** The npm package of `npm:/name@version/path`, or null for a local or built-in module. */
function packageOf(specifier: string): string | null {
  const m = /^npm:\/?((?:@[^/]+\/)?[^@/]+)/.exec(specifier);
  return m ? m[1] : null;
}

function heavyIn(graph: Set<string>): string[] {
  const found: string[] = [];
  for (const s of graph) {
    const pkg = packageOf(s);
    if (pkg && HEAVY_PACKAGES.includes(pkg)) found.push(s);
    const local = s.startsWith(`file://${ROOT}/`) ? s.slice(`file://${ROOT}/`.length) : null;
    if (local && HEAVY_LOCAL.includes(local)) found.push(local);
  }
  return found.sort();
}

Deno.test("main.ts's static import graph loads no heavy module and no route", async () => {
  const graph = await staticGraph(["main.ts"]);
  assert.ok(graph.size > 20, `only ${graph.size} modules: the walk found nothing`);
  assert.ok([...graph].some((s) => packageOf(s) === "hono"), "hono is in the graph");
  assert.deepEqual(heavyIn(graph), [], "heavy modules must be imported with import() on use");
  const routes = [...graph].filter((s) => s.startsWith(`file://${ROOT}/routes/`));
  assert.deepEqual(routes, [], "routes load when a request first matches them");
});

Deno.test("the modules the first GET / loads import no heavy module", async () => {
  const graph = await staticGraph([
    "main.ts",
    "routes/_app.tsx",
    "routes/_middleware.ts",
    "routes/_404.tsx",
    "routes/_500.tsx",
    "routes/index.tsx",
  ]);
  assert.ok(graph.has(`file://${ROOT}/routes/index.tsx`));
  assert.deepEqual(heavyIn(graph), [], "heavy modules must be imported with import() on use");
});

Deno.test("the walk sees a heavy module where one is imported statically", async () => {
  // The check itself works: the Markdown preview route does import micromark.
  const graph = await staticGraph(["routes/api/markdown/preview.ts"]);
  assert.ok(heavyIn(graph).some((s) => s.includes("micromark")));
});
