/**
 * `deno task build`: regenerate `manifest.gen.ts` and `components/icons.gen.ts`, then
 * bundle the islands.
 *
 * Flags: `--manifest-only` skips bundling; with `--check` it only verifies that the
 * committed manifest is current (CI) and exits 1 when it is stale.
 *
 * @module
 */
import { buildAssets, manifestIsCurrent, writeManifest } from "../lib/fresh/build.ts";
import { iconsAreCurrent, writeIcons } from "../lib/fresh/icons_gen.ts";

const root = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const args = new Set(Deno.args);

if (args.has("--check")) {
  if (!(await manifestIsCurrent(root))) {
    console.error("manifest.gen.ts is stale: run `deno task manifest` and commit it.");
    Deno.exit(1);
  }
  if (!(await iconsAreCurrent(root))) {
    console.error("components/icons.gen.ts is stale: run `deno task manifest` and commit it.");
    Deno.exit(1);
  }
  console.log("manifest.gen.ts and components/icons.gen.ts are current.");
  Deno.exit(0);
}

const changed = await writeManifest(root);
if (changed) console.log("Wrote manifest.gen.ts");
if (await writeIcons(root)) console.log("Wrote components/icons.gen.ts");
if (!args.has("--manifest-only")) {
  const started = performance.now();
  const info = await buildAssets(root);
  console.log(
    `Built ${Object.keys(info.islands).length} islands as build ${info.buildId} in ${
      Math.round(performance.now() - started)
    } ms`,
  );
}
