/**
 * The OAuth authorization-code flow on the app's side: the login start (state and flow
 * cookies, authorize redirect) and the API callbacks (docs/interface.md#callback:
 * state → code → token exchange → profile → payload cookie or identity bind).
 *
 * Every callback answer deletes the flow cookies, whatever the outcome.
 *
 * PKCE (RFC 7636, S256) on every provider (docs/interface.md#sign-in): the start
 * keeps a random verifier in the `<provider>_oauth_code_verifier` flow cookie and sends
 * its challenge with the authorize redirect; the callback sends the verifier with the
 * code. When the provider's redirect carries `iss` (RFC 9207) and the provider has an
 * expected issuer (`PROVIDER_X_ISSUER`), the two must match.
 *
 * @module
 */
import type { ProviderId } from "../config.ts";
import { pkceChallenge, timingSafeEqual } from "./crypto.ts";
import type { CookieSpec } from "../http/cookies.ts";
import type { Redirect } from "../http/redirect.ts";
import { randomToken } from "../ids.ts";
import { bindIdentity } from "./identities.ts";
import type { Services } from "../services.ts";
import { providerClient } from "./clients.ts";
import { issuePayload, PAYLOAD_TTL_MS } from "./payload.ts";
import { ProviderError } from "./provider_http.ts";
import {
  flowCookieNames,
  payloadCookieName,
  PROVIDER_INFO,
  providerEndpoints,
  redirectUri,
} from "./providers.ts";
import { safeReturnTo } from "../http/return_to.ts";

/** How long a started sign-in may take at the provider (flow cookies' lifetime). */
export const FLOW_TTL_MS = 10 * 60 * 1000;

/** Sign-in callback failures (docs/interface.md#errors). */
export type CallbackError = "oauth_error" | "invalid_state" | "no_code" | "auth_failed";

/** Which flow a start begins. */
export type Flow = "login" | "bind";

/** Path the payload cookie is sent to: only the app callback pages ever see it. */
export const PAYLOAD_COOKIE_PATH = "/auth/callback";

function secure(services: Services): boolean {
  return services.config.appOrigin.startsWith("https:");
}

/** A started sign-in, or why it cannot start. */
export type SignInStart = ({ ok: true } & Redirect) | { ok: false; reason: "unavailable" };

/** What the provider's redirect back carried. */
export interface CallbackInput {
  /** The callback URL's query (`code`, `state`, `error`). */
  params: URLSearchParams;
  /** The request's cookies. */
  cookies: Record<string, string>;
  /** The signed-in user (a bind must be finished by the user who began it). */
  sessionUserId: string | null;
}

/**
 * Begin a sign-in or bind: the flow cookies to set and the provider's authorize URL to
 * send the browser to; `unavailable` when the provider is not configured.
 *
 * @example
 * ```ts
 * import type { Services } from "@/lib/services.ts";
 * declare const services: Services;
 * const start = await startSignIn(services, "provider_b", { flow: "login", returnTo: "/ask" });
 * ```
 */
export async function startSignIn(
  services: Services,
  provider: ProviderId,
  opts: { flow: Flow; returnTo: string; bindTargetUserId?: string },
): Promise<SignInStart> {
  const ep = await providerEndpoints(services.config, services.secret, provider);
  if (!ep) return { ok: false, reason: "unavailable" };
  const names = flowCookieNames(provider);
  const state = randomToken(32);
  // 32 random bytes → 43 characters of base64url, inside RFC 7636's 43–128.
  const verifier = randomToken(32);
  const uri = redirectUri(services.config, provider);
  const options = { maxAge: FLOW_TTL_MS / 1000, secure: secure(services) };
  const cookies: CookieSpec[] = [
    { name: names.state, value: state, options },
    { name: names.origin, value: safeReturnTo(opts.returnTo), options },
    { name: names.redirectUri, value: uri, options },
    { name: names.codeVerifier, value: verifier, options },
    { name: names.flow, value: opts.flow, options },
    opts.flow === "bind" && opts.bindTargetUserId
      ? { name: names.bindTarget, value: opts.bindTargetUserId, options }
      // A stale target from an abandoned bind must not turn this into a bind.
      : { name: names.bindTarget, value: "", options: { ...options, maxAge: 0 } },
  ];
  const url = new URL(ep.authorizeUrl);
  url.searchParams.set("client_id", ep.clientId);
  url.searchParams.set("redirect_uri", uri);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("state", state);
  url.searchParams.set("code_challenge", await pkceChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  const scope = ep.scope ?? PROVIDER_INFO[provider].scope;
  if (scope) url.searchParams.set("scope", scope);
  // docs/interface.md#callback keeps provider_c's refresh token, but an OpenID provider issues one only when
  // asked: Google-like providers honour `access_type=offline` (others ignore it), generic
  // ones want the `offline_access` scope, which an operator adds via PROVIDER_C_SCOPES.
  if (provider === "provider_c") url.searchParams.set("access_type", "offline");
  // OpenID Connect Core §11: a provider MUST ignore `offline_access` unless the request
  // carries `prompt=consent` (a refresh token is a grant the person must see) — without it
  // a standards-following provider drops the scope and issues no refresh token.
  if (provider === "provider_c" && scope?.split(" ").includes("offline_access")) {
    url.searchParams.set("prompt", "consent");
  }
  return { ok: true, redirect: url.toString(), cookies };
}

/** Deletions of the flow cookies (docs/interface.md#callback: after every callback). */
export function deleteFlowCookies(provider: ProviderId, https: boolean): CookieSpec[] {
  const names = flowCookieNames(provider);
  return [
    names.state,
    names.origin,
    names.redirectUri,
    names.codeVerifier,
    names.flow,
    names.bindTarget,
  ]
    .map((name) => ({ name, value: "", options: { maxAge: 0, secure: https } }));
}

/**
 * Handle a provider's redirect back to `GET /api/auth/callback[/provider]`: where to send
 * the browser and the cookies to set (the flow cookies are always deleted).
 *
 * @example
 * ```ts
 * import type { Services } from "@/lib/services.ts";
 * declare const services: Services;
 * const params = new URLSearchParams({ code: "c", state: "s" });
 * const { redirect } = await handleCallback(services, "provider_c", {
 *   params,
 *   cookies: {},
 *   sessionUserId: null,
 * });
 * ```
 */
export async function handleCallback(
  services: Services,
  provider: ProviderId,
  { params, cookies, sessionUserId }: CallbackInput,
): Promise<Redirect> {
  const { config, kv, secret } = services;
  const https = secure(services);
  const out: CookieSpec[] = deleteFlowCookies(provider, https);
  const redirect = (location: string): Redirect => ({ redirect: location, cookies: out });
  const fail = (error: CallbackError, detail?: string) => {
    if (detail) console.warn(`Sign-in with ${provider} failed (${error}): ${detail}`);
    return redirect(`/?error=${error}`);
  };

  const names = flowCookieNames(provider);

  const flow: Flow = cookies[names.flow] === "bind" ? "bind" : "login";
  const bindTarget = cookies[names.bindTarget];
  if (params.has("error")) {
    // A choice docs/interface.md#callback leaves open (documented on /docs/api): a provider error is reported
    // as `oauth_error` before the state is checked — there is nothing to exchange anyway.
    // A signed-in person who cancels a bind goes back to the profile they started from,
    // not to a home page telling them that "sign-in failed".
    if (flow === "bind" && bindTarget && bindTarget === sessionUserId) {
      const q = new URLSearchParams({ bind: "failed", reason: "cancelled", provider });
      return redirect(`/profile?${q}`);
    }
    return fail("oauth_error");
  }
  const state = params.get("state");
  const stored = cookies[names.state];
  if (!state || !stored || !timingSafeEqual(state, stored)) return fail("invalid_state");
  const code = params.get("code");
  if (!code) return fail("no_code");

  if (flow === "bind" && (!bindTarget || bindTarget !== sessionUserId)) {
    return redirect("/profile?bind=failed&reason=no_target");
  }

  const ep = await providerEndpoints(config, secret, provider);
  if (!ep) return fail("auth_failed", "provider is not available");
  const iss = params.get("iss");
  if (iss !== null && ep.issuer && !timingSafeEqual(iss, ep.issuer)) {
    return fail("auth_failed", `the redirect's iss (${iss.slice(0, 200)}) is not the issuer`);
  }
  const codeVerifier = cookies[names.codeVerifier];
  if (!codeVerifier) return fail("invalid_state", "the PKCE verifier cookie is missing");
  const client = providerClient(provider);
  const now = services.now();
  let tokens, rawProfile;
  try {
    tokens = await client.exchangeCode(ep, {
      code: code.slice(0, 2048),
      redirectUri: redirectUri(config, provider),
      codeVerifier,
      now,
    });
    rawProfile = await client.fetchProfile(ep, tokens.accessToken);
  } catch (err) {
    if (err instanceof ProviderError) return fail("auth_failed", err.message);
    throw err;
  }
  const profile = client.normalize(rawProfile);

  if (flow === "bind") {
    const outcome = await bindIdentity(kv, secret, {
      userId: bindTarget!,
      provider,
      profile,
      tokens,
      now,
    });
    const q = new URLSearchParams(
      outcome === "bound"
        ? { bind: "success", provider }
        : outcome === "no_target"
        ? { bind: "failed", reason: "no_target" }
        : { bind: "failed", reason: outcome, provider },
    );
    return redirect(`/profile?${q}`);
  }

  const value = await issuePayload(kv, {
    provider,
    providerAccountId: profile.providerAccountId,
    profile: rawProfile,
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    expiresAt: tokens.expiresAt,
    issuedAt: now,
  }, safeReturnTo(cookies[names.origin]));
  if (value === null) {
    return fail("auth_failed", "the provider's answer is too large for the payload cookie");
  }
  out.push({
    name: payloadCookieName(provider),
    value,
    options: { maxAge: PAYLOAD_TTL_MS / 1000, secure: https, path: PAYLOAD_COOKIE_PATH },
  });
  return redirect(`${config.appOrigin}${PROVIDER_INFO[provider].appCallbackPath}`);
}
