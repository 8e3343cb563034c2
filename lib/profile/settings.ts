/**
 * Privacy and AI-avatar settings (docs/interface.md#profiles). Questions and answers are
 * always public; these settings only hide activity metadata from other people.
 *
 * @module
 */
import type { Settings } from "../schemas/profile.ts";
import { commit } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";

export type { Settings };

/** Defaults: activity and debates visible, votes private, AI avatar off until chosen. */
export const DEFAULT_SETTINGS: Settings = {
  activityVisibility: "public",
  voteHistory: "private",
  debateArchive: "public",
  aiAvatar: false,
  expertPanel: true,
};

/**
 * A user's settings, defaults filled in.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const userId: string;
 * const { debateArchive } = await getSettings(kv, userId);
 * ```
 */
export async function getSettings(kv: Deno.Kv, userId: string): Promise<Settings> {
  const stored = (await kv.get<Partial<Settings>>(keys.settings(userId))).value;
  return { ...DEFAULT_SETTINGS, ...stored };
}

/**
 * Save a settings edit and return the result. The AI-avatar roster (users whose avatar
 * answers questions) is kept in the same atomic write, so the job never scans users.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const userId: string;
 * await saveSettings(kv, userId, { aiAvatar: true });
 * ```
 */
export async function saveSettings(
  kv: Deno.Kv,
  userId: string,
  edit: Partial<Settings>,
): Promise<Settings> {
  const next = { ...(await getSettings(kv, userId)), ...edit };
  await commit(kv, (op) => {
    op.set(keys.settings(userId), next);
    if (next.aiAvatar) op.set(keys.avatarRoster(userId), true);
    else op.delete(keys.avatarRoster(userId));
  });
  return next;
}
