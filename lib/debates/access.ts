/**
 * Who may read a saved debate (or roundtable): its owner always; anyone else only while
 * the owner's `debateArchive` setting is public.
 *
 * @module
 */
import { getSettings } from "../profile/settings.ts";
import { type Debate, getDebate } from "./store.ts";

/**
 * The debate `id` if `viewerId` (null: signed out) may read it, else null — a private
 * debate is indistinguishable from a missing one.
 *
 * @example
 * ```ts
 * import { HttpError } from "@/lib/fresh/error.ts";
 * import type { AppState } from "@/lib/state.ts";
 * declare const kv: Deno.Kv;
 * declare const id: string;
 * declare const ctx: { state: AppState };
 * declare function now(): number;
 * const debate = await readableDebate(kv, id, ctx.state.user?.id ?? null, now());
 * if (!debate) throw new HttpError(404, "Debate not found");
 * ```
 */
export async function readableDebate(
  kv: Deno.Kv,
  id: string,
  viewerId: string | null,
  now: number,
): Promise<Debate | null> {
  const r = await debateAccess(kv, id, viewerId, now);
  return r.ok ? r.debate : null;
}

/**
 * Like {@linkcode readableDebate}, but says why a debate cannot be read: `private` (it
 * exists and its owner keeps the archive private) or `not_found`. The debate page uses it
 * to tell someone opening a private link that it is private — and nothing more about it.
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
  viewerId: string | null,
  now: number,
): Promise<{ ok: true; debate: Debate } | { ok: false; reason: "not_found" | "private" }> {
  const debate = await getDebate(kv, id, now);
  if (!debate) return { ok: false, reason: "not_found" };
  return await archiveOpenTo(kv, debate.userId, viewerId)
    ? { ok: true, debate }
    : { ok: false, reason: "private" };
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
