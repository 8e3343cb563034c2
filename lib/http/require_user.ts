/**
 * Session guard for JSON endpoints: the signed-in user or a 401 `{"error":"Unauthorized"}`.
 *
 * @module
 */
import type { AppState, SessionUser } from "../state.ts";
import { HttpError } from "./errors.ts";

/**
 * The signed-in user of this request, or throw 401.
 *
 * @example
 * ```ts
 * const user = requireUser(ctx.state);
 * ```
 */
export function requireUser(state: AppState): SessionUser {
  if (!state.user) throw new HttpError(401, "Unauthorized");
  return state.user;
}
