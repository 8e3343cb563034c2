/**
 * The Deno that Deno Deploy runs (pinned once, in deno.json's `deploy-deno` task), and a way
 * to run a command under it. KV values are V8-serialized and an older V8 cannot read what a
 * newer one wrote, so every task that writes to a store other than a local file (a KV
 * Connect URL: the production database) runs under this Deno, never under a newer one.
 *
 * @module
 */

/** The `deploy-deno` task of deno.json: the command that runs the Deploy runtime's Deno. */
export async function deployDenoCommand(root = new URL("..", import.meta.url)): Promise<string> {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  const task = config?.tasks?.["deploy-deno"];
  if (typeof task !== "string") throw new Error('deno.json has no "deploy-deno" task');
  return task;
}

/**
 * The pinned Deploy runtime version, e.g. `"2.5.0"`.
 *
 * @example
 * ```ts
 * const version = await deployDenoVersion(); // "2.5.0"
 * ```
 */
export async function deployDenoVersion(root?: URL): Promise<string> {
  const task = await deployDenoCommand(root);
  const m = /deno@(\d+\.\d+\.\d+)/.exec(task);
  if (!m) throw new Error(`deno.json's "deploy-deno" task names no deno@x.y.z: ${task}`);
  return m[1];
}

/** True when `kvPath` is a KV Connect URL (a remote store), not a local file. */
export function isRemoteStore(kvPath: string | undefined): boolean {
  return !!kvPath && /^https?:\/\//.test(kvPath);
}

/**
 * Re-run this script under the Deploy runtime's Deno when it is about to write to a
 * remote store and this process is a different Deno. Resolves to `null` when no re-run is
 * needed (the caller goes on), or to the child's exit code (the caller exits with it).
 *
 * @example
 * ```ts
 * const code = await underDeployDeno(Deno.env.get("KV_PATH"), import.meta.url, Deno.args);
 * if (code !== null) Deno.exit(code);
 * ```
 */
export async function underDeployDeno(
  kvPath: string | undefined,
  script: string,
  args: string[],
): Promise<number | null> {
  if (!isRemoteStore(kvPath)) return null;
  const version = await deployDenoVersion();
  if (Deno.version.deno === version) return null;
  console.error(
    `Writing to a remote store: re-running under Deno ${version} (Deno Deploy's runtime), ` +
      `not ${Deno.version.deno}, so the production instances can read every value written.`,
  );
  const child = new Deno.Command("npx", {
    args: ["-y", `deno@${version}`, "run", "-A", new URL(script).pathname, ...args],
    env: { DENO_TLS_CA_STORE: "system" },
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  return (await child.status).code;
}
