/**
 * The "before" side of the benchmarks, built by the bench itself: a named commit checked
 * out with `git worktree add --detach` into a fresh temporary folder of this checkout,
 * built (`scripts/build.ts` of that tree), handed to the run, then removed
 * (`git worktree remove --force`) — also when the run throws or is interrupted (Ctrl-C,
 * SIGTERM). Where git or the commit is not there (a tarball, a shallow clone), the column
 * is skipped with one line saying why. No fixed paths: every run makes its own folder.
 *
 * @module
 */

/** The commit the speed bench's "before" column is built from: the tree before the speed work. */
export const BEFORE_COMMIT = "b480df7";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

/** What an interrupted run must stop before the process exits (e.g. tree servers). */
const interruptCleanups = new Set<() => void>();

/**
 * Register `stop` to run (synchronously) if the run is interrupted while a before tree
 * exists; returns the function that unregisters it.
 *
 * @example
 * ```ts
 * const child = new Deno.Command("sleep", { args: ["60"] }).spawn();
 * const forget = onInterrupt(() => child.kill("SIGKILL"));
 * forget();
 * ```
 */
export function onInterrupt(stop: () => void): () => void {
  interruptCleanups.add(stop);
  return () => interruptCleanups.delete(stop);
}

/** The outcome of {@link git}: whether it ran and succeeded, and what it printed. */
interface GitRun {
  ok: boolean;
  out: string;
}

async function git(args: string[], cwd = ROOT): Promise<GitRun> {
  try {
    const r = await new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" })
      .output();
    const text = new TextDecoder().decode(r.success ? r.stdout : r.stderr).trim();
    return { ok: r.success, out: text };
  } catch (err) {
    // No git on PATH at all.
    return { ok: false, out: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Why `commit` cannot be checked out here, or null when it can.
 *
 * @example
 * ```ts
 * const why = await unavailable("b480df7"); // null in a full clone
 * ```
 */
export async function unavailable(commit: string): Promise<string | null> {
  const inside = await git(["rev-parse", "--is-inside-work-tree"]);
  if (!inside.ok || inside.out !== "true") {
    return `no git checkout here (${inside.out.split("\n")[0] || "not a work tree"})`;
  }
  const found = await git(["cat-file", "-e", `${commit}^{commit}`]);
  if (!found.ok) {
    const shallow = (await git(["rev-parse", "--is-shallow-repository"])).out === "true";
    return `commit ${commit} is not in this clone${shallow ? " (a shallow clone)" : ""}`;
  }
  return null;
}

/**
 * Run `fn` with a built checkout of `commit` (its root folder), or with null — after one
 * printed line saying why — when it cannot be made. The checkout is a detached worktree
 * in a new temporary folder, removed when `fn` settles or the process is interrupted.
 *
 * @example
 * ```ts
 * await withBeforeTree(BEFORE_COMMIT, async (root) => {
 *   console.log(root ?? "before column skipped");
 * });
 * ```
 */
export async function withBeforeTree<T>(
  commit: string,
  fn: (root: string | null) => Promise<T>,
): Promise<T> {
  const why = await unavailable(commit);
  if (why) {
    console.log(`  before (${commit}): skipped — ${why}`);
    return await fn(null);
  }
  const dir = await Deno.makeTempDir({ prefix: "parley-before-" });
  const removeSync = () => removeTreeSync(dir);
  const onSignal = () => {
    for (const stop of interruptCleanups) {
      try {
        stop();
      } catch { /* already stopped */ }
    }
    removeSync();
    Deno.exit(130);
  };
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  for (const s of signals) Deno.addSignalListener(s, onSignal);
  try {
    const started = performance.now();
    const added = await git(["worktree", "add", "--detach", dir, commit]);
    if (!added.ok) {
      console.log(`  before (${commit}): skipped — git worktree add failed: ${added.out}`);
      return await fn(null);
    }
    const built = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "scripts/build.ts"],
      cwd: dir,
      stdout: "null",
      stderr: "inherit",
    }).output();
    if (!built.success) {
      console.log(`  before (${commit}): skipped — its build failed`);
      return await fn(null);
    }
    console.log(
      `  before (${commit}): checked out and built in ${
        ((performance.now() - started) / 1000).toFixed(0)
      } s at ${dir}`,
    );
    return await fn(dir);
  } finally {
    for (const s of signals) Deno.removeSignalListener(s, onSignal);
    await removeTree(dir);
  }
}

/** Remove the worktree (its folder and git's record of it). */
async function removeTree(dir: string): Promise<void> {
  const r = await git(["worktree", "remove", "--force", dir]);
  if (!r.ok) {
    // Not (or no longer) a registered worktree: remove the folder, forget stale records.
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    await git(["worktree", "prune"]);
  }
}

/** The same, synchronously (from a signal handler, before the process exits). */
function removeTreeSync(dir: string): void {
  try {
    const r = new Deno.Command("git", {
      args: ["worktree", "remove", "--force", dir],
      cwd: ROOT,
      stdout: "null",
      stderr: "null",
    }).outputSync();
    if (r.success) return;
  } catch { /* no git: remove the folder below */ }
  try {
    Deno.removeSync(dir, { recursive: true });
  } catch { /* already gone */ }
}
