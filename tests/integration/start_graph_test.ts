/**
 * What a new instance loads before its first answer: main.ts's static import graph holds no
 * heavy module (the model client, the MCP SDK, Markdown, search analysis, feeds, the icon
 * package's index, no route and no island at all), and neither do the modules the first `/`
 * loads (the root `_app`, `_middleware`, `_404`, `_500` and the home route, with only the
 * islands those render). Those load on first use through `import()`, which this walk does
 * not follow; type-only imports are not followed either (they are erased). Islands load
 * with the routes that reach them, from the manifest's `routeIslands`, which the last test
 * holds to the real import graph.
 */
import assert from "node:assert/strict";
import { ROOT } from "../helpers/app.ts";
import manifest from "@/manifest.gen.ts";

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

interface Info {
  roots: string[];
  modules: InfoModule[];
  redirects: Record<string, string>;
}

/** `deno info --json <entry>`: the module graph, dynamic imports included. */
async function info(entry: string): Promise<Info> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout)) as Info;
}

/**
 * Every module of `graph` reached from `roots` by non-type imports: static ones, and with
 * `dynamic` literal `import()`s too (what Deno's own graph follows before it runs code).
 */
function reached(
  graph: Info,
  roots: string[],
  seen = new Set<string>(),
  dynamic = false,
): Set<string> {
  const bySpecifier = new Map(graph.modules.map((m) => [m.specifier, m]));
  const queue = [...roots];
  while (queue.length > 0) {
    const at = queue.shift()!;
    if (seen.has(at)) continue;
    seen.add(at);
    for (const dep of bySpecifier.get(at)?.dependencies ?? []) {
      if ((dep.isDynamic && !dynamic) || !dep.code) continue;
      queue.push(graph.redirects[dep.code.specifier] ?? dep.code.specifier);
    }
  }
  return seen;
}

/** Every module reached from `entries` by static, non-type imports. */
async function staticGraph(entries: string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  for (const entry of entries) {
    const graph = await info(entry);
    reached(graph, graph.roots, seen);
  }
  return seen;
}

/** The island files (`./islands/…`) among `graph`'s modules. */
function islandsIn(graph: Set<string>): string[] {
  return [...graph].filter((s) => s.startsWith(`file://${ROOT}/islands/`))
    .map((s) => `./${s.slice(`file://${ROOT}/`.length)}`).sort();
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
  assert.deepEqual(islandsIn(graph), [], "islands load with the routes that render them");
});

/** The route files the first `GET /` loads. */
const FIRST_GET_FILES = [
  "./routes/_app.tsx",
  "./routes/_middleware.ts",
  "./routes/_404.tsx",
  "./routes/_500.tsx",
  "./routes/index.tsx",
];

Deno.test("the modules the first GET / loads import no heavy module", async () => {
  const graph = await staticGraph(["main.ts", ...FIRST_GET_FILES]);
  assert.ok(graph.has(`file://${ROOT}/routes/index.tsx`));
  assert.deepEqual(heavyIn(graph), [], "heavy modules must be imported with import() on use");
  // Reading pages import the reads of votes (lib/community/voters.ts), not the writes and
  // what they pull in.
  for (const writes of ["lib/community/votes.ts", "lib/notifications/notifications.ts"]) {
    assert.ok(!graph.has(`file://${ROOT}/${writes}`), `${writes} is not needed to read`);
  }
  // Building zod schemas costs at start: the home page's query comes from its own module,
  // the embedder chooser takes only the stand-in model's name (each ~3–5 ms, Deno 2.9).
  for (const other of ["lib/schemas/community.ts", "lib/schemas/llm.ts"]) {
    assert.ok(!graph.has(`file://${ROOT}/${other}`), `${other} is built on first use`);
  }
  // On Deno 2.9 the first `node:` module loads Node compatibility (~20 ms): compress.ts and
  // ids.ts import node:zlib and node:crypto when first needed, after the first response.
  assert.deepEqual([...graph].filter((s) => s.startsWith("node:")), []);
  // Only the islands the home page and the header render, not every island of the site.
  const listed = FIRST_GET_FILES.flatMap((f) => manifest.routeIslands?.[f] ?? []);
  assert.deepEqual(islandsIn(graph), [...new Set(listed)].sort());
  assert.ok(islandsIn(graph).length < Object.keys(manifest.islands).length / 2);
});

Deno.test("the walk sees a heavy module where one is imported statically", async () => {
  // The check itself works: the Markdown preview route does import micromark.
  const graph = await staticGraph(["routes/api/markdown/preview.ts"]);
  assert.ok(heavyIn(graph).some((s) => s.includes("micromark")));
});

Deno.test("the graph Deno builds before main.ts runs, literal import()s included, is start-up's only", async () => {
  // Deno reads and analyses every module a literal `import("…")` reaches before running
  // anything; the manifest's and the job kinds' loaders use lib/import_on_use.ts instead.
  const graph = await info("main.ts");
  const all = reached(graph, graph.roots, new Set(), true);
  // Built-in `node:` modules cost the graph nothing (lib/kv/open.ts imports node:sqlite so).
  const files = (set: Set<string>) => [...set].filter((s) => !s.startsWith("node:")).sort();
  assert.deepEqual(
    files(reached(graph, graph.roots)),
    files(all),
    "no literal import() under main.ts",
  );
  const local = (dir: string) => [...all].filter((s) => s.startsWith(`file://${ROOT}/${dir}/`));
  assert.deepEqual(local("routes"), []);
  assert.deepEqual(local("islands"), []);
  assert.deepEqual(heavyIn(all), []);
  for (const job of ["lib/debates/job.ts", "lib/search/job.ts", "lib/ops/compact.ts"]) {
    assert.ok(!all.has(`file://${ROOT}/${job}`), `${job} is imported on first use`);
  }
});

Deno.test("the manifest lists, for every route file, each island its imports reach", async () => {
  // One graph of every route (an entry importing them all, in .build/), walked per route
  // file by static imports: an island missing from `routeIslands` would render without
  // its marker (never hydrated), so every one reached must be listed.
  const entry = `${ROOT}/.build/start_graph_routes_${crypto.randomUUID()}.ts`;
  await Deno.mkdir(`${ROOT}/.build`, { recursive: true });
  await Deno.writeTextFile(
    entry,
    Object.keys(manifest.routes).map((f) => `import "../${f.slice(2)}";\n`).join(""),
  );
  let graph: Info;
  try {
    graph = await info(entry);
  } finally {
    await Deno.remove(entry);
  }
  const missing: string[] = [];
  for (const file of Object.keys(manifest.routes)) {
    const listed = new Set(manifest.routeIslands?.[file] ?? []);
    const specifier = `file://${ROOT}/${file.slice(2)}`;
    for (const island of islandsIn(reached(graph, [specifier]))) {
      if (!listed.has(island)) missing.push(`${file} → ${island}`);
    }
  }
  assert.deepEqual(missing, []);
  // The walk itself works: the question page reaches its vote buttons.
  assert.ok(
    islandsIn(reached(graph, [`file://${ROOT}/routes/questions/[id].tsx`])).includes(
      "./islands/VoteButtons.tsx",
    ),
  );
});
