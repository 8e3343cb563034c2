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
 * import type { AppState } from "@/lib/state.ts";
 * declare const ctx: { state: AppState };
 * const user = requireUser(ctx.state.user);
 * ```
 */
export function requireUser(user: SessionUser | null): SessionUser {
  if (!user) throw new HttpError(401, "Unauthorized");
  return user;
}
