/**
 * `import()` by a specifier computed at run time, for modules loaded on first use.
 *
 * Deno builds a module graph before it runs anything: at start-up from main.ts, and again
 * at each `import()`. That graph follows literal `import("./x.ts")` calls too, though they
 * have not run: every module under them is read and analysed and their npm packages are
 * resolved. With the route manifest's and the job kinds' loaders written that way, a new
 * instance went through about 470 modules before main.ts's first line (~30 ms of its cold
 * start, Deno 2.5 and 2.9 alike). A computed specifier is not followed, so a module's
 * graph is built when it is first imported. The type stays checked: write the import's
 * type as `typeof import("./x.ts")`, which is erased.
 *
 * tests/integration/start_graph_test.ts keeps the graph Deno builds for main.ts small.
 *
 * @module
 */

/**
 * Import `specifier` (a URL, or a bare specifier the import map resolves) without Deno
 * adding it to the graph it builds ahead of time.
 *
 * @example
 * ```ts
 * import { importOnUse } from "./import_on_use.ts";
 *
 * const { excerpt } = await importOnUse<typeof import("./text/excerpt.ts")>(
 *   new URL("./text/excerpt.ts", import.meta.url),
 * );
 * ```
 */
export function importOnUse<T>(specifier: URL | string): Promise<T> {
  return import(typeof specifier === "string" ? specifier : specifier.href);
}
