/**
 * `deno task build`: regenerate `manifest.gen.ts`, `components/icons.gen.ts` and the icon
 * sprite `static/icons.svg`, then bundle the islands (and copy `static/`, the sprite with
 * it, under the build's immutable URL).
 *
 * Flags: `--manifest-only` skips bundling; with `--check` it only verifies that the
 * committed generated files are current (CI) and exits 1 when one is stale.
 *
 * @module
 */
import { buildAssets, manifestIsCurrent, writeManifest } from "../lib/fresh/build.ts";
import { staleIconFiles, writeIcons } from "../lib/fresh/icons_gen.ts";

const root = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const args = new Set(Deno.args);

if (args.has("--check")) {
  if (!(await manifestIsCurrent(root))) {
    console.error("manifest.gen.ts is stale: run `deno task manifest` and commit it.");
    Deno.exit(1);
  }
  const staleIcons = await staleIconFiles(root);
  if (staleIcons.length > 0) {
    const are = staleIcons.length > 1 ? "are" : "is";
    console.error(`${staleIcons.join(" and ")} ${are} stale: run \`deno task manifest\`, commit.`);
    Deno.exit(1);
  }
  console.log("manifest.gen.ts, components/icons.gen.ts and static/icons.svg are current.");
  Deno.exit(0);
}

const changed = await writeManifest(root);
if (changed) console.log("Wrote manifest.gen.ts");
for (const file of await writeIcons(root)) console.log(`Wrote ${file}`);
if (!args.has("--manifest-only")) {
  const started = performance.now();
  const info = await buildAssets(root);
  console.log(
    `Built ${Object.keys(info.islands).length} islands as build ${info.buildId} in ${
      Math.round(performance.now() - started)
    } ms`,
  );
}
