/**
 * `deno task fsck [--repair]`: run every invariant of the registry (./invariants.ts)
 * over a store. A check only reads. A repair walks each invariant in registry order,
 * fixing what is derived as it goes (later invariants count what earlier ones fixed),
 * then checks the whole store again from the start: that second report is the verdict.
 *
 * @module
 */
import type { Invariant } from "./invariant.ts";
import { INVARIANTS } from "./invariants.ts";
import { FsckReport } from "./report.ts";

/** Options of {@link runFsck}. */
export interface FsckOptions {
  /** Fix what is derived, then check again. */
  repair?: boolean;
  /** The invariants to run (all of the registry by default), in this order. */
  invariants?: readonly Invariant[];
  /** Progress lines (stderr in the task). */
  progress?: (line: string) => void;
}

/** What {@link runFsck} found and, in a repair, what the check after it found. */
export interface FsckResult {
  /** The check (or the repair's own findings, with what it fixed). */
  found: FsckReport;
  /** After a repair: a fresh check of the repaired store. Null for a check. */
  after: FsckReport | null;
  /**
   * True when the check (or the check after the repair) confirmed no problem. Suspects a
   * live writer changed before they could be confirmed are counted apart
   * ({@link FsckReport.moved}) and do not make a store unclean.
   */
  clean: boolean;
}

/**
 * Check (and with `repair`, repair) `kv`.
 *
 * @example
 * ```ts
 * const kv = await Deno.openKv(":memory:");
 * const { clean, found } = await runFsck(kv);
 * if (!clean) console.log(found.lines().join("\n"));
 * kv.close();
 * ```
 */
export async function runFsck(kv: Deno.Kv, opts: FsckOptions = {}): Promise<FsckResult> {
  const invariants = opts.invariants ?? INVARIANTS;
  const found = new FsckReport({ progress: opts.progress });
  for (const inv of invariants) {
    await (opts.repair ? inv.repair(kv, found) : inv.check(kv, found));
  }
  if (!opts.repair) return { found, after: null, clean: found.clean };
  const after = new FsckReport({ progress: opts.progress });
  for (const inv of invariants) await inv.check(kv, after);
  return { found, after, clean: after.clean };
}
