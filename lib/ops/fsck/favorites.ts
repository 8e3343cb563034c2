/**
 * Favorites (lib/community/favorites.ts): each post's favorite counter equals the
 * favorites of it; every favorite names an existing post and has its row in the member's
 * activity (`user_favorites`), and every activity row is a favorite that exists.
 *
 * Favorites are keyed by member, their counters by post: the recount is gathered in a
 * scratch store (./tally.ts). A favorite of a post that does not exist is removed with
 * its activity row.
 *
 * @module
 */
import { invertTime } from "../../kv/atomic.ts";
import { keys } from "../../kv/keys.ts";
import type { FavoriteRecord, UserFavoriteEntry } from "../../community/favorites.ts";
import { defineInvariant } from "./invariant.ts";
import { runPass } from "./pass.ts";
import { withTally } from "./tally.ts";
import { isNowhere, targetRecordKey } from "./targets.ts";

const NAME = "favorites";

/** The problems this invariant reports. */
export const FAVORITE_PROBLEMS = {
  counter: "favorite counter differs from the post's favorites",
  orphan: "favorite of a post that does not exist",
  malformed: "malformed favorite entry",
  noActivity: "favorite without its row in the member's activity",
  staleActivity: "activity row of a favorite that does not exist",
} as const;

function isFavorite(v: unknown): v is FavoriteRecord {
  const f = v as FavoriteRecord | null;
  return !!f && Number.isFinite(f.createdAt) && typeof f.questionId === "string";
}

/**
 * Favorite counters, favorites and their activity rows (see the module doc).
 *
 * @example
 * ```ts
 * import { FsckReport } from "./report.ts";
 * declare const kv: Deno.Kv;
 * const report = new FsckReport();
 * await favoritesInvariant.check(kv, report); // or .repair(kv, report)
 * report.clean;
 * ```
 */
export const favoritesInvariant = defineInvariant(
  NAME,
  "favorite counters equal favorites; every favorite names an existing post and has its activity row",
  (kv, report, repair) =>
    withTally({}, async (tally) => {
      await tally.snapshot(kv, ["favorite_counts"]);
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "favorites",
        prefix: ["favorites"],
        reads: (e) => {
          const [, userId, type, id] = e.key;
          if (typeof userId !== "string" || typeof type !== "string" || !isFavorite(e.value)) {
            return [];
          }
          return [
            targetRecordKey(type, id),
            keys.userFavorite(userId, invertTime(e.value.createdAt), type, id as string),
          ];
        },
        judge: (e, got) => {
          if (got.length === 0 || isNowhere(got[0].key)) {
            return [{ kind: FAVORITE_PROBLEMS.malformed }];
          }
          const [target, row] = got;
          if (target.versionstamp === null) {
            return [{
              kind: FAVORITE_PROBLEMS.orphan,
              removes: true,
              fix: (op) => op.delete(e.key).delete(row.key),
            }];
          }
          if (row.versionstamp !== null) return [];
          const f = e.value as FavoriteRecord;
          const [, , targetType, targetId] = e.key as [string, string, "question", string];
          return [{
            kind: FAVORITE_PROBLEMS.noActivity,
            fix: (op) =>
              op.set(
                row.key,
                {
                  targetType,
                  targetId,
                  questionId: f.questionId,
                  createdAt: f.createdAt,
                } satisfies UserFavoriteEntry,
              ),
          }];
        },
        counted: async (e, got, standing) => {
          if (!standing || got.length === 0) return;
          const [, , type, id] = e.key as [string, string, string, string];
          await tally.add(keys.favoriteCount(type, id));
        },
      });
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "activity rows",
        prefix: ["user_favorites"],
        reads: (e) => {
          const [, userId, , type, id] = e.key;
          return typeof userId === "string" && typeof type === "string" && typeof id === "string"
            ? [keys.favorite(userId, type, id)]
            : [];
        },
        judge: (e, got) => {
          const f = got[0]?.value;
          return isFavorite(f) && invertTime(f.createdAt) === e.key[2] ? [] : [{
            kind: FAVORITE_PROBLEMS.staleActivity,
            removes: true,
            fix: (op) => op.delete(e.key),
          }];
        },
      });
      await tally.settle(kv, report, { invariant: NAME, kind: FAVORITE_PROBLEMS.counter, repair });
    }),
);
