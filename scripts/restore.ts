/**
 * `deno task restore <file> [--force]`: load a backup file into the (empty) store at
 * `KV_PATH` (lib/ops/restore.ts). An interrupted restore continues when the same command
 * runs again. Progress goes to stderr; the summary to stdout; a refusal is one sentence
 * on stderr and exit code 1. The file is verified before the store is opened: a missing,
 * unreadable or damaged file leaves no store behind (opening a store file creates it).
 *
 * @module
 */
import { openKvOrExit } from "../lib/kv/open.ts";
import { type ProgressReporter, progressReporter } from "../lib/ops/progress.ts";
import { restoreStore, verifyBackup } from "../lib/ops/restore.ts";
import { storePath } from "../lib/ops/store_path.ts";
import { underDeployDeno } from "./deploy_deno.ts";

const USAGE = "Usage: deno task restore <file> [--force]   (the store is KV_PATH)";

async function main(): Promise<number> {
  const kvPath = storePath(Deno.env.toObject());
  // Values written now must be readable by the production instances (docs/decisions.md#store-version).
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
  const verifying = progressReporter("verify", (line) => console.error(line));
  const verified = await verifyBackup(file, (n) => verifying.update(n));
  if (!verified.ok) {
    console.error(`Restore into ${storeName} refused. ${verified.reason}`);
    return 1;
  }
  verifying.finish(verified.backup.entries);
  const kv = await openKvOrExit(kvPath); // an older Deno than the store's stops here
  try {
    // Made once the store's checks pass: its rate counts from the first write.
    let writing: ProgressReporter | undefined;
    const outcome = await restoreStore(kv, file, {
      force,
      verified: verified.backup,
      onProgress: (_phase, n) => writing?.update(n),
      onVerified: ({ header, entries, resumeFrom }) => {
        console.error(
          `${file}: a backup of ${header.createdAt} (build ${header.build ?? "unknown"}, ` +
            `Deno ${header.deno}), ${entries} entries, checksum verified.`,
        );
        if (resumeFrom > 0) {
          console.error(`Resuming: an earlier run restored the first ${resumeFrom} entries.`);
        }
        writing = progressReporter("restore", (line) => console.error(line));
      },
    });
    if (!outcome.ok) {
      console.error(`Restore into ${storeName} refused. ${outcome.reason}`);
      return 1;
    }
    writing?.finish(outcome.written);
    const expired = outcome.expired ? `; ${outcome.expired} expired records left out` : "";
    const resumed = outcome.resumedFrom ? ` (resumed after ${outcome.resumedFrom})` : "";
    console.log(
      `Restored ${outcome.entries} entries of ${file} into ${storeName}${resumed}${expired}.`,
    );
    return 0;
  } finally {
    kv.close();
  }
}

Deno.exit(await main());
