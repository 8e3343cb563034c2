/**
 * Member statistics (lib/profile/user_stats.ts), recounted from what they count:
 * `questions` — the member's live questions not hidden by moderation; `answers` — their
 * live, unhidden messages that count toward statistics (a hidden post leaves both as a
 * deleted one does, lib/moderation/public_counts.ts); `upvotes_received` — up-votes on their questions and messages (a
 * deleted post keeps its votes and so its share); `favorites_received` — favorites of
 * their posts. The peaks `best_question_upvotes` and `best_answer_upvotes` must be at
 * least the up-votes one of their posts has now, and `answer_accepted` at least 1 when an
 * answer of theirs is accepted (a peak never comes down, so only a shortfall is wrong).
 * AI experts' posts count toward nobody's statistics, as when they are written.
 *
 * The recount is gathered per member in a scratch store (./tally.ts) while the posts,
 * votes and favorites are walked in their own order. `debates` and `debate_wins` are not
 * checked (moved by the debate engine when a debate ends).
 *
 * @module
 */
import { keys, type UserStatName } from "../../kv/keys.ts";
import { countsTowardStats, type MessageRecord } from "../../community/messages/model.ts";
import { voteOf } from "../../community/vote_rows.ts";
import { isExpertAuthor } from "../../panel/experts.ts";
import { defineInvariant } from "./invariant.ts";
import { runPass } from "./pass.ts";
import { withTally } from "./tally.ts";
import { authorIdOf, isCounted, targetRecordKey } from "./targets.ts";

const NAME = "user stats";

const COUNTED: UserStatName[] = ["questions", "answers", "upvotes_received", "favorites_received"];
const PEAKS: UserStatName[] = ["best_question_upvotes", "best_answer_upvotes", "answer_accepted"];

/**
 * The problem reported for a statistic.
 *
 * @example
 * ```ts
 * userStatProblem("answers"); // "user statistic answers differs from a recount"
 * ```
 */
export function userStatProblem(stat: string): string {
  return PEAKS.includes(stat as UserStatName)
    ? `user statistic ${stat} below what the member's posts have now`
    : `user statistic ${stat} differs from a recount`;
}

/**
 * Per-member statistic counters (see the module doc).
 *
 * @example
 * ```ts
 * import { FsckReport } from "./report.ts";
 * declare const kv: Deno.Kv;
 * const report = new FsckReport();
 * await userStatsInvariant.check(kv, report); // or .repair(kv, report)
 * report.clean;
 * ```
 */
export const userStatsInvariant = defineInvariant(
  NAME,
  "member statistics (questions, answers, up-votes and favorites received, peaks) equal a recount",
  (kv, report, repair) =>
    withTally({
      rule: (key) => PEAKS.includes(key[2] as UserStatName) ? "atLeast" : "equal",
    }, async (tally) => {
      const checked = new Set<unknown>([...COUNTED, ...PEAKS]);
      await tally.snapshot(kv, ["user_stats"], (key) => key.length === 3 && checked.has(key[2]));
      const stat = (author: string | null, name: UserStatName) =>
        author && !isExpertAuthor(author) ? keys.userStat(author, name) : null;
      const add = async (key: Deno.KvKey | null) => {
        if (key) await tally.add(key);
      };
      const none = () => [];

      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "questions",
        prefix: ["questions"],
        reads: none,
        judge: none,
        counted: (e) =>
          isCounted(e.value) ? add(stat(authorIdOf(e.value), "questions")) : undefined,
      });
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "messages",
        prefix: ["messages"],
        reads: none,
        judge: none,
        counted: (e) =>
          isCounted(e.value) && countsTowardStats(e.value as MessageRecord)
            ? add(stat(authorIdOf(e.value), "answers"))
            : undefined,
      });

      // Votes come grouped by post: its up-votes so far, for its author's peak.
      let post: { key: string; author: string | null; type: unknown; up: number } | null = null;
      const endPost = async () => {
        if (!post || post.up === 0) return;
        const peak = post.type === "question" ? "best_question_upvotes" : "best_answer_upvotes";
        const key = stat(post.author, peak);
        if (key) await tally.raise(key, post.up);
      };
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "votes",
        prefix: ["votes"],
        reads: (e) => [targetRecordKey(e.key[1], e.key[2])],
        judge: none,
        counted: async (e, [target]) => {
          const id = JSON.stringify(e.key.slice(1, 3));
          if (post?.key !== id) {
            await endPost();
            post = { key: id, author: authorIdOf(target.value), type: e.key[1], up: 0 };
          }
          if (voteOf(e.value)?.voteType !== "up" || !post.author) return;
          post.up++;
          await add(stat(post.author, "upvotes_received"));
        },
      });
      await endPost();
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "favorites",
        prefix: ["favorites"],
        reads: (e) => [targetRecordKey(e.key[2], e.key[3])],
        judge: none,
        counted: (_e, [target]) => add(stat(authorIdOf(target.value), "favorites_received")),
      });
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "accepted answers",
        prefix: ["accepted_answers"],
        reads: (e) => typeof e.value === "string" ? [keys.message(e.value)] : [],
        judge: none,
        counted: async (_e, got) => {
          // As the accept writes it: for whoever wrote the answer.
          const author = authorIdOf(got[0]?.value);
          if (author) await tally.raise(keys.userStat(author, "answer_accepted"), 1);
        },
      });
      await tally.settle(kv, report, {
        invariant: NAME,
        kind: (key) => userStatProblem(String(key[2])),
        repair,
      });
    }),
);
