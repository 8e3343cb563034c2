/**
 * The shape of one group of invariants `deno task fsck` checks (lib/ops/fsck/): a name, a
 * line saying what it holds to, a check that only reads and reports, and a repair that
 * walks the same way and fixes what is derived.
 *
 * @module
 */
import type { FsckReport } from "./report.ts";

/** One group of invariants. */
export interface Invariant {
  /** Short name, as printed: "votes". */
  name: string;
  /** What it holds to, one line (printed by `deno task fsck --list`). */
  summary: string;
  /** Walk the store and report what is wrong; writes nothing to it. */
  check(kv: Deno.Kv, report: FsckReport): Promise<void>;
  /** Walk the store, report what is wrong and fix what is derived. */
  repair(kv: Deno.Kv, report: FsckReport): Promise<void>;
}

/**
 * An {@link Invariant} whose check and repair are one walk, told whether to write.
 *
 * @example
 * ```ts
 * const none = defineInvariant("none", "holds nothing", async (_kv, _report, _repair) => {});
 * ```
 */
export function defineInvariant(
  name: string,
  summary: string,
  walk: (kv: Deno.Kv, report: FsckReport, repair: boolean) => Promise<void>,
): Invariant {
  return {
    name,
    summary,
    check: (kv, report) => walk(kv, report, false),
    repair: (kv, report) => walk(kv, report, true),
  };
}
