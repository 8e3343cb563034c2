/** The generated manifest: loaders for routes and islands, and each route's islands. */
import assert from "node:assert/strict";
import { localImports, manifestSource, routeIslands } from "./build.ts";

Deno.test("manifestSource() maps each route and island to a loader Deno's start-up graph does not follow", () => {
  const text = manifestSource(
    { routes: ["./routes/index.tsx"], islands: ["./islands/Counter.tsx"] },
    { "./routes/index.tsx": ["./islands/Counter.tsx"] },
  );
  // Start-up neither loads nor analyses routes and islands (main.ts's start-up budget): no
  // static import of them and no literal import() either, only erased type imports.
  assert.doesNotMatch(text, /^import (?!type ).* from "\.\/(routes|islands)\//m);
  assert.doesNotMatch(text, /(?<!typeof )import\("/);
  assert.match(
    text,
    /^ {4}"\.\/routes\/index\.tsx": \(\) => at<typeof import\("\.\/routes\/index\.tsx"\)>\("\.\/routes\/index\.tsx"\),$/m,
  );
  assert.match(
    text,
    /^ {4}"\.\/islands\/Counter\.tsx": \(\) =>\n {6}at<typeof import\("\.\/islands\/Counter\.tsx"\)>\("\.\/islands\/Counter\.tsx"\),$/m,
  );
  assert.match(
    text,
    /^ {2}routeIslands: \{\n {4}"\.\/routes\/index\.tsx": \["\.\/islands\/Counter\.tsx"\],$/m,
  );
});

Deno.test("manifestSource() breaks entries longer than deno fmt's line width as deno fmt does", async () => {
  const long = "./routes/.well-known/oauth-protected-resource/index.ts";
  const islands = [
    "./islands/A.tsx",
    "./islands/AgentProfileEditor.tsx",
    "./islands/DebateLive.tsx",
  ];
  const text = manifestSource(
    { routes: ["./routes/index.tsx", "./routes/_middleware.ts", long], islands },
    { [long]: islands, "./routes/index.tsx": ["./islands/A.tsx"] },
  );
  assert.match(
    text,
    /^ {4}"\.\/routes\/\.well-known\/oauth-protected-resource\/index\.ts": \(\) =>\n {6}at<typeof import\("\.\/routes\/\.well-known\/oauth-protected-resource\/index\.ts"\)>\(\n {8}"\.\/routes\/\.well-known\/oauth-protected-resource\/index\.ts",\n {6}\),$/m,
  );
  // deno fmt leaves it as generated.
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/manifest.gen.ts`, text);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["fmt", "--check", "--line-width=100", `${dir}/manifest.gen.ts`],
      stdout: "null",
      stderr: "null",
    }).output();
    assert.equal(out.code, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("localImports() keeps local value imports, static and dynamic, and drops type-only ones", () => {
  const source = [
    'import { a, type B } from "./a.ts";',
    'import type { C } from "../lib/c.ts";',
    "import {",
    "  d,",
    "  e,",
    '} from "@/lib/d.ts";',
    'export { f } from "./f.ts";',
    'export type { G } from "./g.ts";',
    'import "./side_effect.ts";',
    'import { h } from "preact";',
    'const lazy = () => import("../../islands/Lazy.tsx");',
  ].join("\n");
  assert.deepEqual(localImports("routes/x/page.tsx", source).sort(), [
    "islands/Lazy.tsx",
    "lib/d.ts",
    "routes/x/a.ts",
    "routes/x/f.ts",
    "routes/x/side_effect.ts",
  ]);
});

Deno.test("routeIslands() lists the islands a route reaches through its components", async () => {
  const root = await Deno.makeTempDir({ prefix: "parley-build-test-" });
  try {
    const write = async (path: string, text: string) => {
      await Deno.mkdir(`${root}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
      await Deno.writeTextFile(`${root}/${path}`, text);
    };
    await write("islands/Vote.tsx", "export default function Vote() { return null; }\n");
    await write("islands/Bell.tsx", "export default function Bell() { return null; }\n");
    await write("components/Header.tsx", 'import Bell from "../islands/Bell.tsx";\n');
    await write("components/Types.ts", 'import type Vote from "../islands/Vote.tsx";\n');
    await write("routes/_app.tsx", 'import { Header } from "@/components/Header.tsx";\n');
    await write("routes/q.tsx", 'import Vote from "../islands/Vote.tsx";\n');
    await write("routes/plain.tsx", 'import type { T } from "../components/Types.ts";\n');
    const table = await routeIslands(root, {
      routes: ["./routes/_app.tsx", "./routes/plain.tsx", "./routes/q.tsx"],
      islands: ["./islands/Bell.tsx", "./islands/Vote.tsx"],
    });
    assert.deepEqual(table, {
      "./routes/_app.tsx": ["./islands/Bell.tsx"],
      "./routes/q.tsx": ["./islands/Vote.tsx"],
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
