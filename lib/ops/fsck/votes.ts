/**
 * Votes (lib/community/votes.ts): each up/down counter of a post equals its voters'
 * entries of that direction; every vote names an existing post and has its row in the
 * voter's activity (`user_votes`), and every activity row is a vote that exists.
 *
 * Votes on a post that does not exist (a record lost, or a backup that caught the vote
 * but not the post) are removed with their activity rows; the counters are then
 * recounted from what remains.
 *
 * @module
 */
import { invertTime } from "../../kv/atomic.ts";
import { keys } from "../../kv/keys.ts";
import type { VoteRecord } from "../../community/votes.ts";
import { isCompactVote, storedVote, voteOf } from "../../community/vote_rows.ts";
import { isCompactUserVote, voteTypeOfRow } from "../../community/user_vote_rows.ts";
import { defineInvariant } from "./invariant.ts";
import { runPass, type Verdict } from "./pass.ts";
import { withTally } from "./tally.ts";
import { isNowhere, targetRecordKey } from "./targets.ts";

const NAME = "votes";

/** The problems this invariant reports. */
export const VOTE_PROBLEMS = {
  counter: "vote counter differs from the post's voter entries",
  orphan: "vote on a post that does not exist",
  malformed: "malformed vote entry",
  noActivity: "vote without its row in the voter's activity",
  staleActivity: "activity row of a vote that does not exist",
  legacyActivity: "activity row in the old shape (a copy of its key)",
  legacyVote: "vote row in the old shape ({voteType, createdAt}, not a signed time)",
} as const;

function activityKey(key: Deno.KvKey, v: VoteRecord): Deno.KvKey {
  const [, type, id, userId] = key as [string, string, string, string];
  return keys.userVote(userId, invertTime(v.createdAt), type, id);
}

/**
 * Vote counters, voter entries and the voters' activity rows (see the module doc).
 *
 * @example
 * ```ts
 * import { FsckReport } from "./report.ts";
 * declare const kv: Deno.Kv;
 * const report = new FsckReport();
 * await votesInvariant.check(kv, report); // or .repair(kv, report)
 * report.clean;
 * ```
 */
export const votesInvariant = defineInvariant(
  NAME,
  "vote counters equal voter entries; every vote names an existing post and has its activity row",
  (kv, report, repair) =>
    withTally({}, async (tally) => {
      await tally.snapshot(kv, ["vote_counts"]);
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "votes",
        prefix: ["votes"],
        reads: (e) => {
          const [, type, id] = e.key;
          const vote = voteOf(e.value);
          const ok = e.key.length === 4 && typeof e.key[3] === "string" && vote;
          return ok ? [targetRecordKey(type, id), activityKey(e.key, vote)] : [];
        },
        judge: (e, got) => {
          if (got.length === 0 || isNowhere(got[0].key)) {
            return [{ kind: VOTE_PROBLEMS.malformed }];
          }
          const [target, row] = got;
          const vote = voteOf(e.value)!;
          if (target.versionstamp === null) {
            return [{
              kind: VOTE_PROBLEMS.orphan,
              removes: true,
              fix: (op) => op.delete(e.key).delete(activityKey(e.key, vote)),
            }];
          }
          const out: Verdict[] = [];
          if (voteTypeOfRow(row.value) !== vote.voteType) {
            out.push({
              kind: VOTE_PROBLEMS.noActivity,
              // The row's value is the direction (lib/community/user_vote_rows.ts).
              fix: (op) => op.set(row.key, vote.voteType),
            });
          }
          if (!isCompactVote(e.value)) {
            out.push({
              kind: VOTE_PROBLEMS.legacyVote,
              // One signed number (lib/community/vote_rows.ts).
              fix: (op) => op.set(e.key, storedVote(vote.voteType, vote.createdAt)),
            });
          }
          return out;
        },
        counted: async (e, got, standing) => {
          if (!standing || got.length === 0 || got[0].versionstamp === null) return;
          const [, type, id] = e.key as [string, string, string];
          await tally.add(keys.voteCount(type, id, voteOf(e.value)!.voteType));
        },
      });
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "activity rows",
        prefix: ["user_votes"],
        reads: (e) => {
          const [, userId, , type, id] = e.key;
          return typeof userId === "string" && typeof type === "string" && typeof id === "string"
            ? [keys.vote(type, id, userId)]
            : [];
        },
        judge: (e, got) => {
          const vote = voteOf(got[0]?.value);
          const fine = vote !== null && invertTime(vote.createdAt) === e.key[2] &&
            vote.voteType === voteTypeOfRow(e.value);
          if (!fine) {
            return [{
              kind: VOTE_PROBLEMS.staleActivity,
              removes: true,
              fix: (op) => op.delete(e.key),
            }];
          }
          return isCompactUserVote(e.value) ? [] : [{
            kind: VOTE_PROBLEMS.legacyActivity,
            fix: (op) => op.set(e.key, vote.voteType),
          }];
        },
      });
      await tally.settle(kv, report, { invariant: NAME, kind: VOTE_PROBLEMS.counter, repair });
    }),
);
