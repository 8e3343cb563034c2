/**
 * `deno task backup <file> [--force]`: every key and value of the store at `KV_PATH` (a
 * file, or a KV Connect URL with `DENO_KV_ACCESS_TOKEN`) into one compressed backup file
 * (lib/ops/backup.ts). Progress goes to stderr; the summary to stdout. A file that is the
 * store itself (or any SQLite file, or a folder) is refused, and so is an existing file
 * unless `--force` (lib/ops/backup_target.ts): one sentence on stderr, exit code 2, nothing
 * written. Missing folders of `<file>` are created.
 *
 * @module
 */
import { readBuildInfo } from "../lib/fresh/assets.ts";
import { openKvOrExit } from "../lib/kv/open.ts";
import { backupStore } from "../lib/ops/backup.ts";
import { checkBackupTarget } from "../lib/ops/backup_target.ts";
import { progressReporter } from "../lib/ops/progress.ts";
import { isMissingFile, storePath } from "../lib/ops/store_path.ts";
import { underDeployDeno } from "./deploy_deno.ts";

const USAGE = "Usage: deno task backup <file> [--force]   (the store is KV_PATH; " +
  "--force replaces an existing file)";

/** A file size for people: "340 KB", "12.5 MB". */
function size(bytes: number): string {
  return bytes < 1e6 ? `${Math.ceil(bytes / 1e3)} KB` : `${(bytes / 1e6).toFixed(1)} MB`;
}

async function main(): Promise<number> {
  const kvPath = storePath(Deno.env.toObject());
  const rerun = await underDeployDeno(kvPath, import.meta.url, Deno.args);
  if (rerun !== null) return rerun;
  const args = Deno.args.filter((a) => a !== "--");
  const force = args.includes("--force");
  const files = args.filter((a) => a !== "--force");
  if (files.length !== 1 || files[0].startsWith("-")) {
    console.error(USAGE);
    return 2;
  }
  const file = files[0];
  const storeName = kvPath ?? "the Deno Deploy database";
  if (await isMissingFile(kvPath)) {
    console.error(`There is no store at ${kvPath} (KV_PATH): nothing to back up.`);
    return 1;
  }
  // Before the store is opened: a refused backup writes nothing, not even a .partial.
  const target = await checkBackupTarget(file, { storePath: kvPath, force });
  if (!target.ok) {
    console.error(`Backup refused: ${target.reason}`);
    return 2;
  }
  const build = await readBuildInfo(new URL("../.build", import.meta.url).pathname)
    .then((b) => b.buildId, () => null);
  const kv = await openKvOrExit(kvPath, { access: "read" }); // never raises the recorded Deno
  try {
    const progress = progressReporter("backup", (line) => console.error(line));
    const result = await backupStore(kv, file, { build, onProgress: (n) => progress.update(n) });
    progress.finish(result.entries);
    console.log(
      `Backed up ${result.entries} entries of ${storeName} to ${file} ` +
        `(${size(result.bytes)}, sha256 ${result.sha256}).`,
    );
    return 0;
  } finally {
    kv.close();
  }
}

Deno.exit(await main());
