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
  /**
   * On a route whose config says `sessionRead: "handler"`: the session, not yet read (and
   * `user` null until it is), so the handler reads it with keys of its own in one round
   * trip. Absent on every other route, and for a request with a bearer key.
   */
  session?: DeferredSession;
}

/** The session a handler reads itself (see {@link AppState.session}). */
export interface DeferredSession {
  /** Whether the request carries a session cookie at all (without one, nobody to read). */
  present: boolean;
  /**
   * Read the session, and `extra(userId)` in the same read (lib/auth/sessions.ts
   * `userForSession`): the user — also set as `ctx.state.user` — and the extra entries in
   * their order, or null when nobody is signed in.
   */
  read(
    extra?: (userId: string) => Deno.KvKey[],
  ): Promise<{ user: SessionUser; extra: Deno.KvEntryMaybe<unknown>[] } | null>;
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
