/**
 * Privacy and AI-avatar settings (DESIGN.md §6 "Profiles"). Questions and answers are
 * always public; these settings only hide activity metadata from other people.
 *
 * @module
 */
import { z } from "zod";
import { keys } from "./kv/keys.ts";

/** Schema of the settings, also used to validate `PUT /api/profile/settings`. */
export const SettingsSchema = z.object({
  activityVisibility: z.enum(["public", "private"]),
  voteHistory: z.enum(["public", "private"]),
  debateArchive: z.enum(["public", "private"]),
  aiAvatar: z.boolean(),
}).strict();

/** A user's settings. */
export type Settings = z.infer<typeof SettingsSchema>;

/** Defaults: activity and debates visible, votes private, AI avatar off until chosen. */
export const DEFAULT_SETTINGS: Settings = {
  activityVisibility: "public",
  voteHistory: "private",
  debateArchive: "public",
  aiAvatar: false,
};

/**
 * A user's settings, defaults filled in.
 *
 * @example
 * ```ts
 * const { debateArchive } = await getSettings(kv, userId);
 * ```
 */
export async function getSettings(kv: Deno.Kv, userId: string): Promise<Settings> {
  const stored = (await kv.get<Partial<Settings>>(keys.settings(userId))).value;
  return { ...DEFAULT_SETTINGS, ...stored };
}
