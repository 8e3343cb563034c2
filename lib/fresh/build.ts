/**
 * Build steps: write the route manifest (Fresh 1's `fresh.gen.ts`, here
 * `manifest.gen.ts`) and bundle the islands with `deno bundle`, one entry per island,
 * code-split, under a content-derived build id.
 *
 * @module
 */
import { fileHolds, writeIfChanged } from "./generated_file.ts";
import { islandName } from "./islands.ts";
import type { BuildInfo } from "./assets.ts";
import { precompress } from "../http/compress.ts";

const SOURCE = /\.(tsx|ts|jsx|js)$/;

/** Route and island sources under `dir`, sorted; tests (`*_test.ts`) are not routes. */
async function walkSources(dir: string): Promise<string[]> {
  return (await walkAll(dir)).filter((p) => SOURCE.test(p) && !/[._]test\.(tsx?|jsx?)$/.test(p))
    .sort();
}

/** Every route file (`./routes/…`) and island file (`./islands/…`) under `root`. */
async function findSources(root: string): Promise<{ routes: string[]; islands: string[] }> {
  const routes = (await walkSources(`${root}/routes`)).map((p) => `./routes/${p}`);
  const islands = (await walkSources(`${root}/islands`)).map((p) => `./islands/${p}`);
  return { routes, islands };
}

/** `import … from "x"`, `export … from "x"` and `import "x"`; group 1 is `type` when type-only. */
const STATIC_IMPORT =
  /(?:^|[;\n}])\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s*)?["']([^"']+)["']/g;
/** `import("x")` with a literal specifier. */
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/**
 * The local modules `source` (the text of the module at `file`, relative to `root`)
 * imports, static and literal dynamic, type-only imports left out: `./` and `../`
 * specifiers and the `@/` alias of deno.json, as paths relative to `root`.
 *
 * @example
 * ```ts
 * import { localImports } from "./build.ts";
 *
 * localImports("routes/index.tsx", 'import X from "../islands/X.tsx";\nimport type { T } from "@/lib/t.ts";');
 * // ["islands/X.tsx"]
 * ```
 */
export function localImports(file: string, source: string): string[] {
  const out: string[] = [];
  const add = (spec: string) => {
    let path: string;
    if (spec.startsWith("@/")) path = spec.slice(2);
    else if (spec.startsWith("./") || spec.startsWith("../")) {
      path = new URL(spec, `file:///${file}`).pathname.slice(1);
    } else return;
    if (!out.includes(path)) out.push(path);
  };
  for (const m of source.matchAll(STATIC_IMPORT)) if (!m[1]) add(m[2]);
  for (const m of source.matchAll(DYNAMIC_IMPORT)) add(m[1]);
  return out;
}

/**
 * Per route file, the island files its imports reach (through components and other
 * modules, static and literal dynamic imports alike, but not into `manifest.gen.ts`), for
 * the manifest's `routeIslands`:
 * the server loads a route's islands with it, so none loads at start-up. Route files that
 * reach no island are left out.
 */
export async function routeIslands(
  root: string,
  files: { routes: string[]; islands: string[] },
): Promise<Record<string, string[]>> {
  const islands = new Set(files.islands.map((f) => f.slice(2)));
  const importsOf = new Map<string, string[]>();
  const read = async (path: string): Promise<string[]> => {
    let imports = importsOf.get(path);
    if (!imports) {
      let text = "";
      try {
        text = await Deno.readTextFile(`${root}/${path}`);
      } catch (err) {
        if (!(err instanceof Deno.errors.NotFound)) throw err;
      }
      imports = localImports(path, text);
      importsOf.set(path, imports);
    }
    return imports;
  };
  const table: Record<string, string[]> = {};
  for (const route of files.routes) {
    const seen = new Set<string>();
    const queue = [route.slice(2)];
    while (queue.length > 0) {
      const at = queue.pop()!;
      if (seen.has(at)) continue;
      seen.add(at);
      // The manifest's own loaders are not followed: each route loads its own islands.
      if (at !== "manifest.gen.ts") queue.push(...await read(at));
    }
    const reached = [...seen].filter((p) => islands.has(p)).sort().map((p) => `./${p}`);
    if (reached.length > 0) table[route] = reached;
  }
  return table;
}

/** deno fmt's line width (deno.json `fmt.lineWidth`), which the manifest keeps to. */
const MANIFEST_LINE_WIDTH = 100;

/**
 * The text of `manifest.gen.ts` for the given files, in the shape `deno fmt` keeps.
 * Routes and islands are loaders: the server imports a route's module when a request first
 * matches it, and with it the islands `routeIslands` lists for its files (they are
 * recognised by their component while a page renders, so they are registered before).
 * A loader imports by a URL computed at run time (lib/import_on_use.ts), which Deno's
 * start-up module graph does not follow, so a new instance neither loads nor analyses any
 * route or island before its first request; `typeof import("./routes/…")` keeps each
 * module checked against the manifest's types.
 */
export function manifestSource(
  files: { routes: string[]; islands: string[] },
  islandsOfRoutes: Record<string, string[]> = {},
): string {
  const lines = [
    "// DO NOT EDIT. This file is generated by `deno task manifest` (scripts/build.ts)",
    "// from the files under routes/ and islands/. CI fails when it is stale.",
    "",
    `import { importOnUse } from "./lib/import_on_use.ts";`,
    `import type { Manifest } from "./lib/fresh/types.ts";`,
    "",
    "/** A route or island module, imported when first used (lib/import_on_use.ts says why). */",
    "const at = <T>(path: string) => importOnUse<T>(new URL(path, import.meta.url));",
    "",
  ];
  // An entry longer than deno fmt's line width (deno.json: 100) is broken as deno fmt
  // breaks it, so the formatted file stays the generated one.
  const fits = (line: string) => line.length <= MANIFEST_LINE_WIDTH;
  const loader = (f: string) => {
    const call = `at<typeof import("${f}")>("${f}")`;
    const one = `    "${f}": () => ${call},`;
    if (fits(one)) return one;
    const two = `      ${call},`;
    if (fits(two)) return `    "${f}": () =>\n${two}`;
    return `    "${f}": () =>\n      at<typeof import("${f}")>(\n        "${f}",\n      ),`;
  };
  const list = (f: string, items: string[]) => {
    const line = `    "${f}": [${items.map((i) => `"${i}"`).join(", ")}],`;
    if (fits(line)) return line;
    return [`    "${f}": [`, ...items.map((i) => `      "${i}",`), "    ],"].join("\n");
  };
  lines.push("const manifest: Manifest = {");
  lines.push("  routes: {");
  for (const f of files.routes) lines.push(loader(f));
  lines.push("  },");
  lines.push("  islands: {");
  for (const f of files.islands) lines.push(loader(f));
  lines.push("  },");
  lines.push("  routeIslands: {");
  for (const f of files.routes) {
    if (islandsOfRoutes[f]?.length) lines.push(list(f, islandsOfRoutes[f]));
  }
  lines.push("  },");
  lines.push("  baseUrl: import.meta.url,");
  lines.push("};", "", "export default manifest;", "");
  return lines.join("\n");
}

/** The manifest's text for the files under `root` now. */
async function currentManifest(root: string): Promise<string> {
  const files = await findSources(root);
  return manifestSource(files, await routeIslands(root, files));
}

/** Write the manifest; returns true when its content changed. */
export async function writeManifest(root: string): Promise<boolean> {
  return await writeIfChanged(`${root}/manifest.gen.ts`, await currentManifest(root));
}

/** True when the committed manifest matches the files on disk. */
export async function manifestIsCurrent(root: string): Promise<boolean> {
  return await fileHolds(`${root}/manifest.gen.ts`, await currentManifest(root));
}

async function sha256Hex(data: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", data as BufferSource);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Bundle the islands and copy `static/` into `<root>/.build/static/<buildId>/`, write
 * `.br` and `.gz` beside each JS, CSS and SVG asset over 1 KiB, then write
 * `.build/build.json`. The build id hashes every output byte (before compression).
 */
export async function buildAssets(root: string, { minify = true } = {}): Promise<BuildInfo> {
  const { islands } = await findSources(root);
  const buildDir = `${root}/.build`;
  const entriesDir = `${buildDir}/entries`;
  const tmpOut = `${buildDir}/tmp-${crypto.randomUUID()}`;
  await Deno.remove(entriesDir, { recursive: true }).catch(() => {});
  await Deno.mkdir(entriesDir, { recursive: true });
  // Entry stubs sit in one folder so every output lands flat in the out dir.
  await Deno.writeTextFile(
    `${entriesDir}/client.ts`,
    `export { boot } from "../../lib/fresh/client.ts";\n`,
  );
  // The page's boot module: an immutable file, so pages carry no inline script.
  await Deno.writeTextFile(
    `${entriesDir}/boot.ts`,
    `import { start } from "../../lib/fresh/client.ts";\nawait start(new URL("./", import.meta.url).href);\n`,
  );
  const islandFiles: Record<string, string> = {};
  for (const f of islands) {
    const name = islandName(f);
    await Deno.writeTextFile(
      `${entriesDir}/island_${name}.ts`,
      `export { default } from "../.${f}";\n`,
    );
    islandFiles[name] = `island_${name}.js`;
  }
  const entryPaths = [
    `${entriesDir}/client.ts`,
    `${entriesDir}/boot.ts`,
    ...islands.map((f) => `${entriesDir}/island_${islandName(f)}.ts`),
  ];
  const args = [
    "bundle",
    "--quiet",
    "--platform",
    "browser",
    "--format",
    "esm",
    "--code-splitting",
    ...(minify ? ["--minify"] : []),
    "--outdir",
    tmpOut,
    ...entryPaths,
  ];
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    await Deno.remove(tmpOut, { recursive: true }).catch(() => {});
    throw new Error(`deno bundle failed:\n${new TextDecoder().decode(out.stderr)}`);
  }
  // Copy static files beside the bundles under `s/`.
  const staticFiles = (await walkAll(`${root}/static`)).sort();
  for (const f of staticFiles) {
    const dest = `${tmpOut}/s/${f}`;
    await Deno.mkdir(dest.slice(0, dest.lastIndexOf("/")), { recursive: true });
    await Deno.copyFile(`${root}/static/${f}`, dest);
  }
  const outputs = (await walkAll(tmpOut)).sort();
  const hashInput: Uint8Array[] = [];
  for (const f of outputs) {
    hashInput.push(new TextEncoder().encode(f), await Deno.readFile(`${tmpOut}/${f}`));
  }
  const total = hashInput.reduce((n, b) => n + b.length, 0);
  const joined = new Uint8Array(total);
  let off = 0;
  for (const b of hashInput) {
    joined.set(b, off);
    off += b.length;
  }
  const buildId = (await sha256Hex(joined)).slice(0, 12);
  for (const name of Object.keys(islandFiles)) {
    if (!outputs.includes(islandFiles[name])) {
      throw new Error(
        `deno bundle produced no ${islandFiles[name]}; outputs: ${outputs.join(", ")}`,
      );
    }
  }
  // Pre-compressed variants beside each text asset (served per Accept-Encoding by
  // lib/http/static.ts); written after hashing, since they follow from the same bytes.
  await Promise.all(
    outputs.filter((f) => /\.(js|css|svg)$/.test(f)).map((f) => precompress(`${tmpOut}/${f}`)),
  );
  const finalDir = `${buildDir}/static/${buildId}`;
  await Deno.mkdir(`${buildDir}/static`, { recursive: true });
  await Deno.remove(finalDir, { recursive: true }).catch(() => {});
  await Deno.rename(tmpOut, finalDir);
  const info: BuildInfo = {
    buildId,
    client: "client.js",
    boot: "boot.js",
    islands: islandFiles,
    staticFiles,
  };
  await Deno.writeTextFile(`${buildDir}/build.json`, JSON.stringify(info, null, 2) + "\n");
  await pruneOldBuilds(`${buildDir}/static`, buildId);
  return info;
}

/** Keep the newest few builds so a page loaded before a rebuild can still fetch its chunks. */
async function pruneOldBuilds(dir: string, keep: string): Promise<void> {
  const dirs: { name: string; mtime: number }[] = [];
  for (const e of Deno.readDirSync(dir)) {
    if (!e.isDirectory || e.name === keep) continue;
    const st = await Deno.stat(`${dir}/${e.name}`);
    dirs.push({ name: e.name, mtime: st.mtime?.getTime() ?? 0 });
  }
  dirs.sort((a, b) => b.mtime - a.mtime);
  for (const d of dirs.slice(3)) await Deno.remove(`${dir}/${d.name}`, { recursive: true });
}

async function walkAll(dir: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return out;
    throw err;
  }
  for (const e of entries) {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory) out.push(...await walkAll(`${dir}/${e.name}`, path));
    else if (e.isFile) out.push(path);
  }
  return out;
}
