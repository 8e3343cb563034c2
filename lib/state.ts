/**
 * What every request carries in `ctx.state`: the app's services, the signed-in user and
 * the colour scheme.
 *
 * @module
 */
import { createDefine } from "./fresh/define.ts";
import type { User } from "./auth/users.ts";
import type { AgentCall } from "./http/agent.ts";
import type { Services } from "./services.ts";
import type { Sanction } from "./moderation/sanctions.ts";

/** The signed-in user as handlers and pages see it. */
export interface SessionUser {
  id: string;
  name: string;
  image: string | null;
  provider: User["provider"];
  /** The session token from the cookie (server-side only: lets logout end this session). */
  sessionToken: string;
  /**
   * A silence in force (lib/moderation/sanctions.ts): pages show its banner. (A suspended
   * person has no session user at all.)
   */
  sanction?: Sanction;
  /**
   * Whether they moderate, when the root middleware already looked (page views): later
   * checks reuse it instead of reading identities again.
   */
  moderator?: boolean;
}

/** `ctx.state` of every request. */
export interface AppState {
  services: Services;
  user: SessionUser | null;
  /** Colour scheme chosen with the theme toggle (cookie), rendered on `<html>`. */
  theme: Theme;
  /**
   * The credential (agent key or OAuth access token) of an agent request and its
   * rate-limit hit (routes/api/agent/(key)/_middleware.ts).
   */
  agent?: AgentCall;
  /** A moderator's page view: how many posts wait in the queue (the header's link). */
  moderation?: { waiting: number };
}

/** Colour scheme preference. */
export type Theme = "auto" | "light" | "dark";

/** Cookie that keeps the theme choice (read by the server, so no script runs before paint). */
export const THEME_COOKIE = "parley_theme";

/** Parse a theme cookie value. */
export function parseTheme(value: string | undefined): Theme {
  return value === "light" || value === "dark" ? value : "auto";
}

/** Typing helpers for routes: `define.handlers`, `define.page`, `define.middleware` with `AppState`. */
export const define = createDefine<AppState>();
