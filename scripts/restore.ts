/**
 * `deno task restore <file> [--force]`: load a backup file into the (empty) store at
 * `KV_PATH` (lib/ops/restore.ts). An interrupted restore continues when the same command
 * runs again. Progress goes to stderr; the summary to stdout; a refusal is one sentence
 * on stderr and exit code 1.
 *
 * @module
 */
import { openKvOrExit } from "../lib/kv/open.ts";
import { progressReporter } from "../lib/ops/progress.ts";
import { restoreStore } from "../lib/ops/restore.ts";
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
  const kv = await openKvOrExit(kvPath); // an older Deno than the store's stops here
  try {
    const verifying = progressReporter("verify", (line) => console.error(line));
    let writing = verifying;
    const outcome = await restoreStore(kv, file, {
      force,
      onProgress: (phase, n) => (phase === "verify" ? verifying : writing).update(n),
      onVerified: ({ header, entries, resumeFrom }) => {
        verifying.finish(entries);
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
    writing.finish(outcome.written);
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
