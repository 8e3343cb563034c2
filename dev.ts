/**
 * Development entry: build, start `main.ts`, and on every change under routes/,
 * islands/, components/, lib/ or static/ rebuild (manifest + island bundles) and restart.
 *
 * @module
 */
import { buildAssets, writeManifest } from "./lib/fresh/build.ts";

const root = new URL(".", import.meta.url).pathname.replace(/\/$/, "");
const WATCH = ["routes", "islands", "components", "lib", "static"].map((d) => `${root}/${d}`);

let child: Deno.ChildProcess | null = null;

async function rebuild(): Promise<boolean> {
  try {
    await writeManifest(root);
    const info = await buildAssets(root, { minify: false });
    console.log(`[dev] build ${info.buildId} ready`);
    return true;
  } catch (err) {
    console.error(`[dev] build failed: ${err instanceof Error ? err.message : err}`);
    return false;
  }
}

async function restart(): Promise<void> {
  if (child) {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
  }
  child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${root}/main.ts`],
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
}

if (await rebuild()) await restart();

let timer: ReturnType<typeof setTimeout> | undefined;
for await (const event of Deno.watchFs(WATCH)) {
  // Our own manifest write would loop forever; everything else triggers a rebuild.
  if (event.paths.every((p) => p.endsWith("manifest.gen.ts") || p.includes("/.build/"))) continue;
  clearTimeout(timer);
  timer = setTimeout(async () => {
    console.log(`[dev] change: ${event.paths.map((p) => p.slice(root.length + 1)).join(", ")}`);
    if (await rebuild()) await restart();
  }, 150);
}
