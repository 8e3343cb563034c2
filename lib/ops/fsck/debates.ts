/**
 * Debates (lib/debates/store.ts, public.ts): every debate is in its owner's history and
 * in the list of all debates, and in the most-watched order at its watch count when it
 * has watchers; every such row names a debate that is there (at that count); each
 * debate's watch count equals its watchers, and every watcher names a debate that exists.
 *
 * @module
 */
import { invertTime } from "../../kv/atomic.ts";
import { keys } from "../../kv/keys.ts";
import type { DebateRecord } from "../../debates/store.ts";
import { defineInvariant } from "./invariant.ts";
import { runPass, type Verdict } from "./pass.ts";
import { withTally } from "./tally.ts";

const NAME = "debates";

/** The problems this invariant reports. */
export const DEBATE_PROBLEMS = {
  malformed: "malformed debate record",
  noHistoryRow: "debate missing from its owner's history",
  noListRow: "debate missing from the list of all debates",
  noWatchRow: "watched debate missing from the most-watched order",
  strayRow: "debate list row that names no debate (or not at that place)",
  orphanWatcher: "watcher of a debate that does not exist",
  counter: "debate watch count differs from its watchers",
} as const;

function isDebate(v: unknown): v is DebateRecord {
  const d = v as DebateRecord | null;
  return !!d && typeof d.id === "string" && typeof d.userId === "string" &&
    Number.isFinite(d.createdAt);
}

const stray = (key: Deno.KvKey): Verdict[] => [{
  kind: DEBATE_PROBLEMS.strayRow,
  removes: true,
  fix: (op) => op.delete(key),
}];

/**
 * Debate lists and watch counts (see the module doc).
 *
 * @example
 * ```ts
 * import { FsckReport } from "./report.ts";
 * declare const kv: Deno.Kv;
 * const report = new FsckReport();
 * await debatesInvariant.check(kv, report); // or .repair(kv, report)
 * report.clean;
 * ```
 */
export const debatesInvariant = defineInvariant(
  NAME,
  "every debate is in its owner's history, the list of all and the most-watched order; watch counts equal watchers",
  (kv, report, repair) =>
    withTally({ encoding: "number" }, async (tally) => {
      await tally.snapshot(kv, ["debate_watches"]);
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "watchers",
        prefix: ["debate_watchers"],
        reads: (e) => typeof e.key[1] === "string" ? [keys.debate(e.key[1])] : [],
        judge: (e, [d]) =>
          d?.versionstamp ? [] : [{
            kind: DEBATE_PROBLEMS.orphanWatcher,
            removes: true,
            fix: (op) => op.delete(e.key),
          }],
        counted: async (e, _got, standing) => {
          if (standing) await tally.add(keys.debateWatches(e.key[1] as string));
        },
      });
      await tally.settle(kv, report, { invariant: NAME, kind: DEBATE_PROBLEMS.counter, repair });
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "records",
        prefix: ["debates"],
        reads: (e) => {
          const d = e.value;
          if (!isDebate(d)) return [];
          const inv = invertTime(d.createdAt);
          return [
            keys.debateByUser(d.userId, inv, d.id),
            keys.debateByTime(inv, d.id),
            keys.debateWatches(d.id),
          ];
        },
        judge: async (e, got) => {
          const d = e.value;
          if (!isDebate(d) || d.id !== e.key[1]) return [{ kind: DEBATE_PROBLEMS.malformed }];
          const [history, list, watches] = got;
          const out: Verdict[] = [];
          if (history.versionstamp === null) {
            out.push({
              kind: DEBATE_PROBLEMS.noHistoryRow,
              fix: (op) => op.set(history.key, d.id),
            });
          }
          if (list.versionstamp === null) {
            out.push({ kind: DEBATE_PROBLEMS.noListRow, fix: (op) => op.set(list.key, d.id) });
          }
          const w = typeof watches.value === "number" ? watches.value : 0;
          if (w > 0) {
            const row = await kv.get(keys.debateByWatches(w, invertTime(d.createdAt), d.id));
            if (row.versionstamp === null) {
              out.push({
                kind: DEBATE_PROBLEMS.noWatchRow,
                fix: (op) => op.check(row).set(row.key, d.id),
              });
            }
          }
          return out;
        },
      });
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "histories",
        prefix: ["debates_by_user"],
        reads: (e) => typeof e.key[3] === "string" ? [keys.debate(e.key[3])] : [],
        judge: (e, [d]) => {
          const r = d?.value;
          const fine = isDebate(r) && r.userId === e.key[1] &&
            invertTime(r.createdAt) === e.key[2];
          return fine ? [] : stray(e.key);
        },
      });
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "list of all",
        prefix: keys.debatesByTimePrefix(),
        reads: (e) => typeof e.key[2] === "string" ? [keys.debate(e.key[2])] : [],
        judge: (e, [d]) => {
          const r = d?.value;
          return isDebate(r) && invertTime(r.createdAt) === e.key[1] ? [] : stray(e.key);
        },
      });
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "most watched",
        prefix: keys.debatesByWatchesPrefix(),
        reads: (e) =>
          typeof e.key[3] === "string" ? [keys.debate(e.key[3]), keys.debateWatches(e.key[3])] : [],
        judge: (e, [d, watches]) => {
          const r = d?.value;
          const fine = isDebate(r) && invertTime(r.createdAt) === e.key[2] &&
            typeof watches.value === "number" && -watches.value === e.key[1];
          return fine ? [] : stray(e.key);
        },
      });
    }),
);
