/**
 * Generated files (the route manifest, the icon module, the icon sprite): written only
 * when their text changed, so a build that changes nothing touches no file, and compared
 * with what a build would write, so `deno task check` can tell a stale committed copy.
 *
 * @module
 */

/**
 * Write `text` to `path` unless the file holds it already; true when it was written.
 *
 * @example
 * ```ts
 * const changed = await writeIfChanged("/tmp/example.gen.ts", "export const x = 1;\n");
 * ```
 */
export async function writeIfChanged(path: string, text: string): Promise<boolean> {
  if (await fileHolds(path, text)) return false;
  await Deno.writeTextFile(path, text);
  return true;
}

/**
 * True when the file at `path` holds exactly `text` (false when it cannot be read).
 *
 * @example
 * ```ts
 * const current = await fileHolds("/tmp/example.gen.ts", "export const x = 1;\n");
 * ```
 */
export async function fileHolds(path: string, text: string): Promise<boolean> {
  try {
    return (await Deno.readTextFile(path)) === text;
  } catch {
    return false;
  }
}
