/**
 * Favorites (docs/interface.md#favorites's favorite table): one record per user and target, created with a
 * check that the record key is still empty, so a race can never write two. The call that
 * loses a race still succeeds with the outcome it asked for (the state it saw flipped).
 *
 * @module
 */
import { addToCounter, getAll, invertTime, updateAtomically } from "../kv/atomic.ts";
import { budgetOf, type PostingLimits, type RateLimited, spendInOp } from "../limits/posting.ts";
import type { HitLog } from "../limits/window.ts";
import { keys } from "../kv/keys.ts";
import { findTarget, type TargetType } from "./targets.ts";
import { isAccountAuthor } from "../account/deleted_user.ts";
import { type Restricted, restrictionOf, type Sanction } from "../moderation/sanctions.ts";

/** A favorite as stored under `["favorites", userId, targetType, targetId]`. */
export interface FavoriteRecord {
  userId: string;
  targetType: TargetType;
  targetId: string;
  /** The question itself, or the owning question of a message. */
  questionId: string;
  createdAt: number;
  updatedAt: number;
}

/** The user's activity entry under `["user_favorites", userId, inv, type, id]`. */
export interface UserFavoriteEntry {
  targetType: TargetType;
  targetId: string;
  questionId: string;
  createdAt: number;
}

/** The response of `POST /api/favorites`. */
export interface FavoriteToggle {
  favorited: boolean;
  action: "favorited" | "unfavorited";
}

/** Most ids one status request may ask about (docs/interface.md#favorites). */
export const MAX_STATUS_IDS = 200;

/** A toggled favorite, or `not_found` when the target does not exist. */
export type ToggleFavoriteResult =
  | { ok: true; favorite: FavoriteToggle }
  | { ok: false; reason: "not_found" }
  | RateLimited
  | Restricted;

const FAVORITED: FavoriteToggle = { favorited: true, action: "favorited" };
const UNFAVORITED: FavoriteToggle = { favorited: false, action: "unfavorited" };

/**
 * Toggle a favorite; null when the target does not exist.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const userId: string;
 * const r = await toggleFavorite(kv, { userId, targetType: "message", targetId: "msg-1" });
 * if (r.ok) r.favorite.action; // "favorited"
 * ```
 */
export async function toggleFavorite(
  kv: Deno.Kv,
  input: { userId: string; targetType: TargetType; targetId: string },
  now = Date.now(),
  { limits }: { limits?: PostingLimits } = {},
): Promise<ToggleFavoriteResult> {
  const { userId, targetType, targetId } = input;
  const target = await findTarget(kv, targetType, targetId);
  if (!target) return { ok: false, reason: "not_found" };
  // One budget with votes (`votes`), spent in the toggle's own atomic op.
  const budget = budgetOf(limits, "votes", userId);
  const key = keys.favorite(userId, targetType, targetId);
  let tried: FavoriteToggle | null = null;
  return await updateAtomically<ToggleFavoriteResult>(async () => {
    const [cur, log, sanction] = await kv.getMany<[FavoriteRecord, HitLog, Sanction]>([
      key,
      budget?.key ?? keys.rateLimitLog("none", "none"),
      keys.sanction(userId),
    ]);
    // A silenced or suspended person favorites nothing (one budget with votes).
    const restricted = restrictionOf(sanction.value, now);
    if (restricted) return { op: null, result: restricted };
    // Lost a race: if the record is now in the state the last try wanted, that is success
    // (a duplicate favorite is not an error); otherwise toggle from the new state.
    if (tried && (cur.value !== null) === tried.favorited) {
      return { op: null, result: { ok: true, favorite: tried } };
    }
    const op = kv.atomic().check(cur);
    const refused = budget && spendInOp(op, log, budget, now);
    if (refused) return { op: null, result: refused };
    if (cur.value === null) {
      const record: FavoriteRecord = {
        userId,
        targetType,
        targetId,
        questionId: target.questionId,
        createdAt: now,
        updatedAt: now,
      };
      op.set(key, record).set(
        keys.userFavorite(userId, invertTime(now), targetType, targetId),
        {
          targetType,
          targetId,
          questionId: target.questionId,
          createdAt: now,
        } satisfies UserFavoriteEntry,
      );
      addToCounter(op, keys.favoriteCount(targetType, targetId), 1);
      if (isAccountAuthor(target.authorId)) {
        addToCounter(op, keys.userStat(target.authorId, "favorites_received"), 1);
      }
    } else {
      op.delete(key).delete(
        keys.userFavorite(userId, invertTime(cur.value.createdAt), targetType, targetId),
      );
      addToCounter(op, keys.favoriteCount(targetType, targetId), -1);
      if (isAccountAuthor(target.authorId)) {
        addToCounter(op, keys.userStat(target.authorId, "favorites_received"), -1);
      }
    }
    tried = cur.value === null ? FAVORITED : UNFAVORITED;
    return { op, result: { ok: true, favorite: tried } };
  });
}

/**
 * Which of `ids` the user has favorited.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const userId: string;
 * await favoriteStatuses(kv, userId, "question", ["q1", "q2"]); // { q1: true, q2: false }
 * ```
 */
export async function favoriteStatuses(
  kv: Deno.Kv,
  userId: string,
  targetType: TargetType,
  ids: string[],
): Promise<Record<string, boolean>> {
  const out: Record<string, boolean> = {};
  const entries = await getAll(kv, ids.map((id) => keys.favorite(userId, targetType, id)));
  entries.forEach((e, i) => out[ids[i]] = e.value !== null);
  return out;
}
