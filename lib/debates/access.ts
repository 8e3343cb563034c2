/**
 * Who may read a saved debate (or roundtable): its owner always; anyone else only while
 * the owner's `debateArchive` setting is public — and, while moderators have withdrawn it
 * (lib/moderation/withdrawn.ts), nobody but its owner and moderators.
 *
 * @module
 */
import { getSettings } from "../profile/settings.ts";
import type { Viewer } from "../community/visibility.ts";
import { type Withdrawal, withdrawalOf, type WithdrawnKind } from "../moderation/withdrawn.ts";
import { type Debate, getDebate } from "./store.ts";

/** Why an item cannot be read: it is private (its owner's archive), or as good as missing. */
export type ArchiveRefusal = { ok: false; reason: "not_found" | "private" };

/**
 * The debate `id` if `viewer` (null: signed out) may read it, else null — a private or
 * withdrawn debate is indistinguishable from a missing one.
 *
 * @example
 * ```ts
 * import { HttpError } from "@/lib/fresh/error.ts";
 * import type { AppState } from "@/lib/state.ts";
 * declare const kv: Deno.Kv;
 * declare const id: string;
 * declare const ctx: { state: AppState };
 * declare function now(): number;
 * const viewer = ctx.state.user ? { userId: ctx.state.user.id } : null;
 * const debate = await readableDebate(kv, id, viewer, now());
 * if (!debate) throw new HttpError(404, "Debate not found");
 * ```
 */
export async function readableDebate(
  kv: Deno.Kv,
  id: string,
  viewer: Viewer | null,
  now: number,
): Promise<Debate | null> {
  const r = await debateAccess(kv, id, viewer, now);
  return r.ok ? r.debate : null;
}

/**
 * Like {@linkcode readableDebate}, but says why a debate cannot be read: `private` (it
 * exists and its owner keeps the archive private) or `not_found` (missing, or withdrawn by
 * moderators). The debate page uses it to tell someone opening a private link that it is
 * private — and nothing more about it; when it can be read, `withdrawn` is the moderators'
 * withdrawal its owner and moderators see (null while it is shown).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await debateAccess(kv, "d-1", null, Date.now());
 * if (!r.ok && r.reason === "private") console.log("This debate is private");
 * ```
 */
export async function debateAccess(
  kv: Deno.Kv,
  id: string,
  viewer: Viewer | null,
  now: number,
): Promise<{ ok: true; debate: Debate; withdrawn: Withdrawal | null } | ArchiveRefusal> {
  const debate = await getDebate(kv, id, now);
  if (!debate) return { ok: false, reason: "not_found" };
  const r = await ownedItemAccess(kv, "debate", debate, viewer);
  return r.ok ? { ok: true, debate, withdrawn: r.withdrawn } : r;
}

/**
 * Whether `viewer` may read an existing debate or roundtable `item`: a withdrawn one only
 * its owner and moderators (anyone else: `not_found`, as if it were gone); then as
 * {@linkcode archiveOpenTo} says (`private` otherwise).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await ownedItemAccess(kv, "roundtable", { id: "rt_1", userId: "u_1" }, null);
 * if (r.ok && r.withdrawn) console.log(r.withdrawn.reason);
 * ```
 */
export async function ownedItemAccess(
  kv: Deno.Kv,
  kind: WithdrawnKind,
  item: { id: string; userId: string },
  viewer: Viewer | null,
): Promise<{ ok: true; withdrawn: Withdrawal | null } | ArchiveRefusal> {
  const viewerId = viewer?.userId ?? null;
  const [withdrawn, open] = await Promise.all([
    withdrawalOf(kv, kind, item.id),
    archiveOpenTo(kv, item.userId, viewerId),
  ]);
  if (withdrawn && viewerId !== item.userId && viewer?.moderator !== true) {
    return { ok: false, reason: "not_found" };
  }
  return open ? { ok: true, withdrawn } : { ok: false, reason: "private" };
}

/**
 * Whether `viewerId` (null: signed out) may read what `ownerId` keeps in their debate
 * archive — their debates and roundtables: the owner always, anyone else while the
 * owner's `debateArchive` setting is public.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * if (await archiveOpenTo(kv, "u_owner", null)) console.log("public");
 * ```
 */
export async function archiveOpenTo(
  kv: Deno.Kv,
  ownerId: string,
  viewerId: string | null,
): Promise<boolean> {
  if (viewerId === ownerId) return true;
  return (await getSettings(kv, ownerId)).debateArchive === "public";
}
