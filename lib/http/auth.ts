/**
 * Guards for handlers that need a signed-in user.
 *
 * @module
 */
import { HttpError } from "../fresh/error.ts";
import type { SessionUser } from "../state.ts";
import type { Services } from "../services.ts";
import { isModeratorUser } from "../auth/moderators.ts";
import type { Viewer } from "../community/questions/read.ts";

/**
 * The session user, or a 401 `{error: "Unauthorized"}`.
 *
 * @example
 * ```ts
 * import type { AppState } from "@/lib/state.ts";
 * declare const ctx: { state: AppState };
 * const user = requireUser(ctx.state.user);
 * ```
 */
export function requireUser(user: SessionUser | null): SessionUser {
  if (!user) throw new HttpError(401, "Unauthorized");
  return user;
}

/**
 * Who is looking, for reads that show a deleted question to its author and moderators:
 * null when signed out.
 *
 * @example
 * ```ts
 * import type { AppState } from "@/lib/state.ts";
 * declare const ctx: { state: AppState };
 * const viewer = await viewerOf(ctx.state.services, ctx.state.user);
 * ```
 */
export async function viewerOf(
  services: Pick<Services, "kv" | "config">,
  user: Pick<SessionUser, "id" | "moderator"> | null,
): Promise<Viewer | null> {
  if (!user) return null;
  return {
    userId: user.id,
    moderator: user.moderator ?? await isModeratorUser(services.kv, services.config, user.id),
  };
}

/** The refusal of a moderators-only endpoint to anyone else. */
export const MODERATORS_ONLY = "Moderators only";

/**
 * The session user when they are a moderator: 401 when signed out, 403 otherwise.
 *
 * @example
 * ```ts
 * import type { AppState } from "@/lib/state.ts";
 * declare const ctx: { state: AppState };
 * const mod = await requireModerator(ctx.state.services, ctx.state.user);
 * ```
 */
export async function requireModerator(
  services: Pick<Services, "kv" | "config">,
  user: SessionUser | null,
): Promise<SessionUser> {
  const u = requireUser(user);
  if (!(u.moderator ?? await isModeratorUser(services.kv, services.config, u.id))) {
    throw new HttpError(403, MODERATORS_ONLY);
  }
  return u;
}
