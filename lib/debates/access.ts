/**
 * Who may read a saved debate: its owner always; anyone else only while the owner's
 * `debateArchive` setting is public.
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
 * import { HttpError } from "@/lib/http/errors.ts";
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
  const debate = await getDebate(kv, id, now);
  if (!debate) return null;
  if (viewerId === debate.userId) return debate;
  const { debateArchive } = await getSettings(kv, debate.userId);
  return debateArchive === "public" ? debate : null;
}
