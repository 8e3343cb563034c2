/**
 * A moderator's sanction request at the HTTP edge, for `POST /api/mod/users/:id` and the
 * form on a person's public profile: the refusals that depend on who is asking (nobody
 * sanctions themself; a moderator is removed from `MODERATORS`, not suspended), the end
 * read from ISO 8601, then lib/moderation/sanction_actions.ts.
 *
 * @module
 */
import type { z } from "zod";
import { HttpError } from "../fresh/error.ts";
import { isModeratorUser } from "../auth/moderators.ts";
import { type AccountStanding, sanctionUser } from "../moderation/sanction_actions.ts";
import type { SanctionBody } from "../schemas/moderation.ts";
import type { Services } from "../services.ts";
import type { SessionUser } from "../state.ts";

/** The refusal of a sanction on oneself. */
export const SELF_SANCTION = "You cannot silence, suspend or lift yourself";
/** The refusal of a sanction on a moderator. */
export const MODERATOR_SANCTION =
  "Moderators cannot be silenced or suspended; remove them from MODERATORS first";

/**
 * Apply `body` to `userId` as `moderator` (already checked to be one); the person's
 * standing after it, or an {@link HttpError}.
 *
 * @example
 * ```ts
 * import type { Services } from "@/lib/services.ts";
 * import type { SessionUser } from "@/lib/state.ts";
 * declare const services: Services;
 * declare const mod: SessionUser;
 * const standing = await applySanction(services, mod, "u_1", {
 *   action: "silence",
 *   until: "2030-01-01",
 *   reason: "Spam links",
 * });
 * ```
 */
export async function applySanction(
  services: Pick<Services, "kv" | "config" | "now">,
  moderator: Pick<SessionUser, "id" | "name">,
  userId: string,
  body: z.infer<typeof SanctionBody>,
): Promise<AccountStanding> {
  const { kv, config, now } = services;
  if (userId === moderator.id) throw new HttpError(400, SELF_SANCTION);
  if (body.action !== "lift" && await isModeratorUser(kv, config, userId)) {
    throw new HttpError(403, MODERATOR_SANCTION);
  }
  const until = body.action === "lift" || body.until === undefined || body.until === null
    ? undefined
    : Date.parse(body.until);
  const r = await sanctionUser(kv, {
    moderator: { id: moderator.id, name: moderator.name },
    userId,
    action: body.action,
    until,
    reason: body.reason,
  }, { now: now(), newAccountHours: config.newAccountHours });
  if (!r.ok) {
    if (r.reason === "past_until") throw new HttpError(400, "until must be in the future");
    throw new HttpError(404, "User not found");
  }
  return r.standing;
}
