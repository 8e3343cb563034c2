/**
 * What every request carries in `ctx.state`: the app's services, the signed-in user and
 * the colour scheme.
 *
 * @module
 */
import type { Config } from "./config.ts";
import { createDefine } from "./fresh/define.ts";
import type { LlmClient } from "./llm/types.ts";
import type { User } from "./auth/users.ts";
import type { AgentCall } from "./http/agent.ts";

/** Long-lived dependencies, created once at start-up (tests create their own). */
export interface Services {
  kv: Deno.Kv;
  config: Config;
  /** HMAC / encryption key material (≥32 characters). */
  secret: string;
  /** The clock, replaceable in tests. */
  now: () => number;
  /** Agent API requests per key per minute (default 60; benchmarks raise it). */
  agentRateLimit?: number;
  /**
   * How long the feeds and a question page's thread reuse a read, in ms (default 1000; 0
   * turns the cache off). Writes through this process drop the cache at once.
   */
  feedCacheMs?: number;
  /**
   * The language model (lib/llm): the configured endpoint, the in-app stand-in in local
   * mode, or absent when neither is available (AI features then answer their 500).
   */
  llm?: LlmClient;
  /** The AI avatar job's period in ms (default 30 s, SPEC.md); tests shorten it. */
  avatarIntervalMs?: number;
  /** Uniform random numbers in [0, 1) (agent participation's `auto` coin); tests fix it. */
  random?: () => number;
}

/** The signed-in user as handlers and pages see it. */
export interface SessionUser {
  id: string;
  name: string;
  image: string | null;
  provider: User["provider"];
  /** The session token from the cookie (server-side only: lets logout end this session). */
  sessionToken: string;
}

/** `ctx.state` of every request. */
export interface AppState {
  services: Services;
  user: SessionUser | null;
  /** Colour scheme chosen with the theme toggle (cookie), rendered on `<html>`. */
  theme: Theme;
  /** The API key of an agent request and its rate-limit hit (routes/api/agent/(key)/_middleware.ts). */
  agent?: AgentCall;
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
