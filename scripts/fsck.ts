/**
 * `deno task fsck [--repair]`: check the store at `KV_PATH` against the invariants of
 * lib/ops/fsck/ (what is derived from what: counters, index rows, feeds, search
 * postings), print what is wrong with a count per problem and a few example keys, and
 * exit 0 when clean, 1 when not. With `--repair` it fixes what is derived, then checks
 * again; the exit code is that second check's. `--list` prints the invariants.
 *
 * Progress goes to stderr, the report to stdout. A repair of a KV Connect store runs under
 * Deno Deploy's Deno (scripts/deploy_deno.ts), like a restore.
 *
 * @module
 */
import { openKvOrExit } from "../lib/kv/open.ts";
import { INVARIANTS } from "../lib/ops/fsck/invariants.ts";
import type { FsckReport } from "../lib/ops/fsck/report.ts";
import { runFsck } from "../lib/ops/fsck/run.ts";
import { isMissingFile, storePath } from "../lib/ops/store_path.ts";
import { underDeployDeno } from "./deploy_deno.ts";

const USAGE = "Usage: deno task fsck [--repair] [--list]   (the store is KV_PATH)";

/** The report under its title line ("…: clean." with only the unjudged suspects, if any). */
function print(title: string, report: FsckReport): void {
  console.log(title);
  for (const line of report.lines()) console.log(`  ${line}`);
}

async function main(): Promise<number> {
  const args = Deno.args.filter((a) => a !== "--");
  const unknown = args.filter((a) => a !== "--repair" && a !== "--list");
  if (unknown.length > 0) {
    console.error(USAGE);
    return 2;
  }
  if (args.includes("--list")) {
    for (const inv of INVARIANTS) console.log(`${inv.name}: ${inv.summary}`);
    return 0;
  }
  const repair = args.includes("--repair");
  const kvPath = storePath(Deno.env.toObject());
  if (repair) {
    const rerun = await underDeployDeno(kvPath, import.meta.url, Deno.args);
    if (rerun !== null) return rerun;
  }
  const storeName = kvPath ?? "the Deno Deploy database";
  if (await isMissingFile(kvPath)) {
    console.error(`There is no store at ${kvPath} (KV_PATH): nothing to check.`);
    return 1;
  }
  // A check only reads: it never raises the store's recorded Deno version.
  const kv = await openKvOrExit(kvPath, { access: repair ? "write" : "read" });
  try {
    const { found, after, clean } = await runFsck(kv, {
      repair,
      progress: (line) => console.error(line),
    });
    if (!repair) {
      print(
        found.clean ? `${storeName}: clean.` : `${storeName}: ${found.problems} problems.`,
        found,
      );
      return clean ? 0 : 1;
    }
    print(
      found.clean
        ? `${storeName}: clean, nothing to repair.`
        : `${storeName}: ${found.problems} problems, ${found.fixed} fixed.`,
      found,
    );
    print(
      after!.clean
        ? "Checked again after the repair: clean."
        : `Checked again after the repair: ${after!.problems} problems left.`,
      after!,
    );
    return clean ? 0 : 1;
  } finally {
    kv.close();
  }
}

Deno.exit(await main());
