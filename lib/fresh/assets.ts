/**
 * Where built assets are served from. Island bundles and the files of `static/` live
 * under one build id, so every URL changes when any byte does and can be cached forever.
 *
 * @module
 */

/** What `scripts/build.ts` wrote to `.build/build.json`. */
export interface BuildInfo {
  buildId: string;
  /** Bundle file of the client boot module. */
  client: string;
  /** Bundle file of the module a page loads to hydrate its islands (absent in old builds). */
  boot?: string;
  /** Island name → bundle file. */
  islands: Record<string, string>;
  /** Files copied from `static/` (relative paths). */
  staticFiles: string[];
}

/** URL prefix of everything built: `/_parley/<buildId>/`. */
const ASSET_ROOT = "/_parley";

let base = `${ASSET_ROOT}/dev`;

/** Set the build id used by {@link asset} (done once at start-up). */
export function setBuildId(buildId: string): void {
  base = `${ASSET_ROOT}/${buildId}`;
}

/**
 * In the browser, set what {@link asset} answers from the URL of the build's folder (the
 * boot module's `./`), so islands render the same asset URLs as the server did (an icon's
 * sprite URL above all: hydration keeps the server's markup, and a re-render must match).
 *
 * @example
 * ```ts
 * import { asset, setBuildBase } from "./assets.ts";
 *
 * setBuildBase("https://parley.example/_parley/0123456789ab/");
 * asset("icons.svg"); // "/_parley/0123456789ab/s/icons.svg"
 * ```
 */
export function setBuildBase(folderUrl: string): void {
  base = new URL(folderUrl).pathname.replace(/\/+$/, "");
}

/**
 * The immutable URL of a file from `static/`.
 *
 * @example
 * ```tsx
 * import { asset } from "./assets.ts";
 *
 * const stylesheet = <link rel="stylesheet" href={asset("styles.css")} />;
 * ```
 */
export function asset(path: string): string {
  return `${base}/s/${path.replace(/^\/+/, "")}`;
}

/** The URL of a bundle file. */
export function bundleUrl(file: string): string {
  return `${base}/${file}`;
}

/** Read `.build/build.json`; a clear error tells how to build when it is missing. */
export async function readBuildInfo(buildDir: string): Promise<BuildInfo> {
  try {
    return JSON.parse(await Deno.readTextFile(`${buildDir}/build.json`)) as BuildInfo;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new Error(`No build found in ${buildDir}: run \`deno task build\` first`);
    }
    throw err;
  }
}
