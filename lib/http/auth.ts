/**
 * Guards for handlers that need a signed-in user.
 *
 * @module
 */
import { HttpError } from "./errors.ts";
import type { SessionUser } from "../state.ts";

/**
 * The session user, or a 401 `{error: "Unauthorized"}`.
 *
 * @example
 * ```ts
 * const user = requireUser(ctx.state.user);
 * ```
 */
export function requireUser(user: SessionUser | null): SessionUser {
  if (!user) throw new HttpError(401, "Unauthorized");
  return user;
}
