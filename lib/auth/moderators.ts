/**
 * Moderators (docs/interface.md#moderation): users whose id, or one of whose verified
 * emails, is listed in `MODERATORS` (comma-separated; `config.moderators`). Verified
 * emails are those Parley keeps from provider_b and provider_c identities (provider_c
 * keeps an email only when `email_verified`, provider_b only its verified primary one);
 * provider_a reports no verification, so its email never makes a moderator — list the
 * user id instead.
 *
 * @module
 */
import type { Config } from "../config.ts";
import { keys } from "../kv/keys.ts";
import type { IdentityRecord } from "./identities.ts";

/** What decides moderation: the user id and their verified emails. */
export interface ModeratorCandidate {
  id: string;
  verifiedEmails: string[];
}

/**
 * True when the user is a moderator under `config.moderators`.
 *
 * @example
 * ```ts
 * import { parseConfig } from "@/lib/config.ts";
 * const config = parseConfig({ MODERATORS: "u_1, mod@example.com" });
 * isModerator(config, { id: "u_2", verifiedEmails: ["Mod@Example.com"] }); // true
 * ```
 */
export function isModerator(
  config: Pick<Config, "moderators">,
  user: ModeratorCandidate | null | undefined,
): boolean {
  if (!user || config.moderators.length === 0) return false;
  const listed = new Set(config.moderators);
  if (listed.has(user.id)) return true;
  return user.verifiedEmails.some((e) => listed.has(e.trim().toLowerCase()));
}

/**
 * {@link isModerator} for a user id: the verified emails are read from the user's
 * identities (only when `MODERATORS` names an email, so the usual case reads nothing).
 *
 * @example
 * ```ts
 * import { parseConfig } from "@/lib/config.ts";
 * declare const kv: Deno.Kv;
 * const mod = await isModeratorUser(kv, parseConfig({ MODERATORS: "u_1" }), "u_1"); // true
 * ```
 */
export async function isModeratorUser(
  kv: Deno.Kv,
  config: Pick<Config, "moderators">,
  userId: string,
): Promise<boolean> {
  if (config.moderators.length === 0) return false;
  if (isModerator(config, { id: userId, verifiedEmails: [] })) return true;
  if (!config.moderators.some((m) => m.includes("@"))) return false;
  const verifiedEmails: string[] = [];
  for await (
    const e of kv.list<string>({ prefix: keys.identitiesByUserPrefix(userId) }, { limit: 10 })
  ) {
    const provider = e.key[e.key.length - 1] as string;
    if (provider === "provider_a") continue;
    const identity = (await kv.get<IdentityRecord>(keys.identity(provider, e.value))).value;
    if (identity?.email) verifiedEmails.push(identity.email);
  }
  return isModerator(config, { id: userId, verifiedEmails });
}
