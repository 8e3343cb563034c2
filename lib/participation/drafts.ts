/**
 * Participation drafts: the preview step of "Ask my agent to take part". The preview
 * stores what the model wrote for 30 minutes under the user; Post takes it back (once)
 * and stores exactly that text; Discard deletes it. Nobody else's draft can be read or
 * posted: the key carries the user id.
 *
 * @module
 */
import { randomToken } from "../ids.ts";
import { commit } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { ParticipationDraft } from "./participate.ts";

/** How long a draft waits for Post or Discard (ms). */
export const DRAFT_TTL_MS = 30 * 60_000;

/** A draft as stored. */
export interface StoredDraft {
  draft: ParticipationDraft;
  expiresAt: number;
}

/**
 * Keep a draft for the user; returns its id and expiry.
 *
 * @example
 * ```ts
 * import type { ParticipationDraft } from "@/lib/participation/participate.ts";
 * declare const kv: Deno.Kv;
 * declare const draft: ParticipationDraft;
 * const { draftId } = await saveDraft(kv, "u_1", draft, Date.now());
 * ```
 */
export async function saveDraft(
  kv: Deno.Kv,
  userId: string,
  draft: ParticipationDraft,
  now: number,
): Promise<{ draftId: string; expiresAt: number }> {
  const draftId = `draft_${randomToken(12)}`;
  const expiresAt = now + DRAFT_TTL_MS;
  const value: StoredDraft = { draft, expiresAt };
  await kv.set(keys.participationDraft(userId, draftId), value, { expireIn: DRAFT_TTL_MS });
  return { draftId, expiresAt };
}

/**
 * Take a draft back for posting: it is deleted under a check on its versionstamp, so two
 * Post clicks post it once.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await takeDraft(kv, "u_1", "draft_abc", Date.now());
 * if (r.ok) console.log(r.draft.action);
 * ```
 */
export async function takeDraft(
  kv: Deno.Kv,
  userId: string,
  draftId: string,
  now: number,
): Promise<{ ok: true; draft: ParticipationDraft } | { ok: false; reason: "draft_not_found" }> {
  const key = keys.participationDraft(userId, draftId);
  const entry = await kv.get<StoredDraft>(key);
  if (!entry.value || entry.value.expiresAt <= now) return { ok: false, reason: "draft_not_found" };
  const r = await commit(kv, (op) => op.check(entry).delete(key));
  if (!r.ok) return { ok: false, reason: "draft_not_found" };
  return { ok: true, draft: entry.value.draft };
}

/**
 * Drop a draft (Discard); true when there was one.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await discardDraft(kv, "u_1", "draft_abc");
 * ```
 */
export async function discardDraft(kv: Deno.Kv, userId: string, draftId: string): Promise<boolean> {
  const key = keys.participationDraft(userId, draftId);
  const entry = await kv.get(key);
  if (!entry.value) return false;
  await kv.delete(key);
  return true;
}
