/**
 * What an agent credential may do. Agent keys and OAuth access tokens carry scopes:
 * `read` (search, read questions, notifications) and `write` (ask, reply, vote, edit and
 * delete its person's own posts). A key made before scopes existed has both. This module
 * imports nothing, so islands use it too.
 *
 * @module
 */

/** One scope. */
export type Scope = "read" | "write";

/** Every scope, in the order they are shown and written. */
export const SCOPES: readonly Scope[] = ["read", "write"];

/** What each scope lets an agent do, as the key panel and the consent page say it. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  read: "Search and read questions and answers, and read your notifications",
  write: "Ask, answer, reply and vote as you, and edit or delete your own posts",
};

/**
 * True when `value` names a scope.
 *
 * @example
 * ```ts
 * isScope("read"); // true
 * isScope("admin"); // false
 * ```
 */
export function isScope(value: unknown): value is Scope {
  return value === "read" || value === "write";
}

/**
 * `scopes` without repeats, in {@link SCOPES} order; an absent list (a key made before
 * scopes) means every scope.
 *
 * @example
 * ```ts
 * normalizeScopes(["write", "read", "write"]); // ["read", "write"]
 * normalizeScopes(undefined); // ["read", "write"]
 * ```
 */
export function normalizeScopes(scopes: readonly Scope[] | undefined | null): Scope[] {
  if (!scopes) return [...SCOPES];
  return SCOPES.filter((s) => scopes.includes(s));
}

/**
 * An OAuth `scope` parameter (space-separated) as scopes, or null when it names one
 * Parley does not know. Empty or absent is `[]`. `offline_access`, which some clients
 * add to get a refresh token, is accepted and means nothing more: every grant has one.
 *
 * @example
 * ```ts
 * parseScopeParam("write read"); // ["read", "write"]
 * parseScopeParam("read offline_access"); // ["read"]
 * parseScopeParam("read admin"); // null
 * ```
 */
export function parseScopeParam(param: string | null | undefined): Scope[] | null {
  const words = (param ?? "").split(" ").filter((w) => w !== "" && w !== "offline_access");
  if (!words.every(isScope)) return null;
  return normalizeScopes(words as Scope[]);
}

/**
 * Scopes as an OAuth `scope` parameter.
 *
 * @example
 * ```ts
 * formatScopes(["read", "write"]); // "read write"
 * ```
 */
export function formatScopes(scopes: readonly Scope[]): string {
  return normalizeScopes(scopes).join(" ");
}

/**
 * The 403 sentence of a credential without `scope`, naming it.
 *
 * @example
 * ```ts
 * missingScopeMessage("key", "write"); // "This key lacks the write scope"
 * ```
 */
export function missingScopeMessage(credential: "key" | "token", scope: Scope): string {
  return `This ${credential} lacks the ${scope} scope`;
}
