/**
 * The three identity providers as the app sees them: display names, the paths of their
 * login start, API callback and app callback, cookie names, scopes, and the endpoints to
 * talk to — the configured ones, or in local mode the local providers served by this app.
 *
 * @module
 */
import { type Config, type ProviderConfig, type ProviderId, PROVIDERS } from "../config.ts";
import { hmac } from "./crypto.ts";

export { type ProviderId, PROVIDERS };

/** Static facts about one provider. */
export interface ProviderInfo {
  id: ProviderId;
  /** Name shown on buttons. */
  label: string;
  /** Login start route (docs/interface.md#sign-in). */
  loginPath: string;
  /** The API callback the provider redirects to (docs/interface.md#callback). */
  callbackPath: string;
  /** The app callback page that turns the payload cookie into a session. */
  appCallbackPath: string;
  /** Scopes asked for in the authorize redirect (provider_a: none stated). */
  scope: string | null;
}

/** Every provider, in display order. */
export const PROVIDER_INFO: Record<ProviderId, ProviderInfo> = {
  provider_a: {
    id: "provider_a",
    label: "Provider A",
    loginPath: "/api/auth/login",
    callbackPath: "/api/auth/callback",
    appCallbackPath: "/auth/callback/provider_a",
    scope: null,
  },
  provider_b: {
    id: "provider_b",
    label: "Provider B",
    loginPath: "/api/auth/login/provider_b",
    callbackPath: "/api/auth/callback/provider_b",
    appCallbackPath: "/auth/callback/oauth?provider=provider_b-oauth",
    scope: "read:user user:email",
  },
  provider_c: {
    id: "provider_c",
    label: "Provider C",
    loginPath: "/api/auth/login/provider_c",
    callbackPath: "/api/auth/callback/provider_c",
    appCallbackPath: "/auth/callback/oauth?provider=provider_c-oauth",
    scope: "openid profile email",
  },
};

/** True for one of the three provider ids. */
export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === "string" && (PROVIDERS as readonly string[]).includes(value);
}

/** Flow cookie names for one provider (docs/interface.md#sign-in), plus the two shared ones. */
export function flowCookieNames(provider: ProviderId) {
  return {
    state: `${provider}_oauth_state`,
    origin: `${provider}_oauth_origin`,
    redirectUri: `${provider}_oauth_redirect_uri`,
    codeVerifier: `${provider}_oauth_code_verifier`,
    flow: "oauth_login_flow",
    bindTarget: "oauth_bind_target_user_id",
  } as const;
}

/** The payload cookie of a provider (docs/interface.md#sign-in table: `<provider>_auth_payload`). */
export function payloadCookieName(provider: ProviderId): string {
  return `${provider}_auth_payload`;
}

/** The redirect_uri registered with (and sent to) a provider. */
export function redirectUri(config: Config, provider: ProviderId): string {
  return `${config.appOrigin}${PROVIDER_INFO[provider].callbackPath}`;
}

/** Providers a visitor can sign in with: the configured ones, or all three in local mode. */
export function availableProviders(config: Config): ProviderId[] {
  return PROVIDERS.filter((p) => config.localMode || config.providers[p] !== undefined);
}

/** Path prefix of the local identity providers (mounted only in local mode). */
export const LOCAL_OAUTH_BASE = "/local-oauth";

/** The client id the local providers accept. */
export function localClientId(provider: ProviderId): string {
  return `parley-local-${provider}`;
}

/**
 * The client secret the local providers accept: derived from the app secret, so it is
 * not a constant anyone can read in the source.
 */
export async function localClientSecret(secret: string, provider: ProviderId): Promise<string> {
  return await hmac(secret, `local-oauth-client:${provider}`);
}

/**
 * The endpoints and credentials to use for a provider: the configured ones, or in local
 * mode the local provider at the app's own origin (reached over real HTTP). Null when
 * the provider is unavailable.
 *
 * @example
 * ```ts
 * import type { Config } from "@/lib/config.ts";
 * declare const config: Config;
 * declare const secret: string;
 * const ep = await providerEndpoints(config, secret, "provider_b");
 * ep?.tokenUrl; // "http://localhost:8000/local-oauth/provider_b/token" in local mode
 * ```
 */
export async function providerEndpoints(
  config: Config,
  secret: string,
  provider: ProviderId,
): Promise<ProviderConfig | null> {
  const real = config.providers[provider];
  if (real) return real;
  if (!config.localMode) return null;
  const base = `${config.appOrigin}${LOCAL_OAUTH_BASE}/${provider}`;
  return {
    clientId: localClientId(provider),
    clientSecret: await localClientSecret(secret, provider),
    authorizeUrl: `${base}/authorize`,
    tokenUrl: `${base}/token`,
    profileUrl: provider === "provider_b" ? `${base}/user` : `${base}/userinfo`,
    emailsUrl: provider === "provider_b" ? `${base}/emails` : undefined,
  };
}
