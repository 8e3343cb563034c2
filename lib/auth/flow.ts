/**
 * The OAuth authorization-code flow on the app's side: the login start (state and flow
 * cookies, authorize redirect) and the API callbacks (SPEC.md "Sign-in callback flow":
 * state → code → token exchange → profile → payload cookie or identity bind).
 *
 * Every callback answer deletes the five flow cookies, whatever the outcome.
 *
 * @module
 */
import type { ProviderId } from "../config.ts";
import { timingSafeEqual } from "./crypto.ts";
import { getCookies, setCookie } from "../http/cookies.ts";
import { randomToken } from "../ids.ts";
import { bindIdentity } from "./identities.ts";
import type { Services } from "../state.ts";
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

/** Sign-in callback failures (SPEC.md "Errors"). */
export type CallbackError = "oauth_error" | "invalid_state" | "no_code" | "auth_failed";

/** Which flow a start begins. */
export type Flow = "login" | "bind";

/** Path the payload cookie is sent to: only the app callback pages ever see it. */
export const PAYLOAD_COOKIE_PATH = "/auth/callback";

function secure(services: Services): boolean {
  return services.config.appOrigin.startsWith("https:");
}

function redirect(location: string, headers: Headers): Response {
  headers.set("location", location);
  headers.set("cache-control", "no-store");
  return new Response(null, { status: 302, headers });
}

/**
 * Begin a sign-in or bind: set the flow cookies and send the browser to the provider's
 * authorize URL. Null when the provider is not available.
 *
 * @example
 * ```ts
 * const res = await startSignIn(services, "provider_b", { flow: "login", returnTo: "/ask" });
 * ```
 */
export async function startSignIn(
  services: Services,
  provider: ProviderId,
  opts: { flow: Flow; returnTo: string; bindTargetUserId?: string },
): Promise<Response | null> {
  const ep = await providerEndpoints(services.config, services.secret, provider);
  if (!ep) return null;
  const names = flowCookieNames(provider);
  const state = randomToken(32);
  const uri = redirectUri(services.config, provider);
  const headers = new Headers();
  const cookie = { maxAge: FLOW_TTL_MS / 1000, secure: secure(services) };
  setCookie(headers, names.state, state, cookie);
  setCookie(headers, names.origin, safeReturnTo(opts.returnTo), cookie);
  setCookie(headers, names.redirectUri, uri, cookie);
  setCookie(headers, names.flow, opts.flow, cookie);
  if (opts.flow === "bind" && opts.bindTargetUserId) {
    setCookie(headers, names.bindTarget, opts.bindTargetUserId, cookie);
  } else {
    // A stale target from an abandoned bind must not turn this into a bind.
    setCookie(headers, names.bindTarget, "", { ...cookie, maxAge: 0 });
  }
  const url = new URL(ep.authorizeUrl);
  url.searchParams.set("client_id", ep.clientId);
  url.searchParams.set("redirect_uri", uri);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("state", state);
  const scope = PROVIDER_INFO[provider].scope;
  if (scope) url.searchParams.set("scope", scope);
  return redirect(url.toString(), headers);
}

/** Append deletions of the five flow cookies (SPEC.md: after every callback). */
export function deleteFlowCookies(headers: Headers, provider: ProviderId, https: boolean): void {
  const names = flowCookieNames(provider);
  for (const name of [names.state, names.origin, names.redirectUri, names.flow, names.bindTarget]) {
    setCookie(headers, name, "", { maxAge: 0, secure: https });
  }
}

/**
 * Handle a provider's redirect back to `GET /api/auth/callback[/provider]`.
 * `sessionUserId` is the signed-in user (a bind must be finished by the user who began it).
 *
 * @example
 * ```ts
 * return await handleCallback(req, ctx.state.services, "provider_c", ctx.state.user?.id ?? null);
 * ```
 */
export async function handleCallback(
  req: Request,
  services: Services,
  provider: ProviderId,
  sessionUserId: string | null,
): Promise<Response> {
  const { config, kv, secret } = services;
  const https = secure(services);
  const headers = new Headers();
  deleteFlowCookies(headers, provider, https);
  const fail = (error: CallbackError, detail?: string) => {
    if (detail) console.warn(`Sign-in with ${provider} failed (${error}): ${detail}`);
    return redirect(`/?error=${error}`, headers);
  };

  const url = new URL(req.url);
  const cookies = getCookies(req);
  const names = flowCookieNames(provider);

  const flow: Flow = cookies[names.flow] === "bind" ? "bind" : "login";
  const bindTarget = cookies[names.bindTarget];
  if (url.searchParams.has("error")) {
    // A signed-in person who cancels a bind goes back to the profile they started from,
    // not to a home page telling them that "sign-in failed".
    if (flow === "bind" && bindTarget && bindTarget === sessionUserId) {
      const q = new URLSearchParams({ bind: "failed", reason: "cancelled", provider });
      return redirect(`/profile?${q}`, headers);
    }
    return fail("oauth_error");
  }
  const state = url.searchParams.get("state");
  const stored = cookies[names.state];
  if (!state || !stored || !timingSafeEqual(state, stored)) return fail("invalid_state");
  const code = url.searchParams.get("code");
  if (!code) return fail("no_code");

  if (flow === "bind" && (!bindTarget || bindTarget !== sessionUserId)) {
    return redirect("/profile?bind=failed&reason=no_target", headers);
  }

  const ep = await providerEndpoints(config, secret, provider);
  if (!ep) return fail("auth_failed", "provider is not available");
  const client = providerClient(provider);
  const now = services.now();
  let tokens, rawProfile;
  try {
    tokens = await client.exchangeCode(ep, {
      code: code.slice(0, 2048),
      redirectUri: redirectUri(config, provider),
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
    return redirect(`/profile?${q}`, headers);
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
  setCookie(headers, payloadCookieName(provider), value, {
    maxAge: PAYLOAD_TTL_MS / 1000,
    secure: https,
    path: PAYLOAD_COOKIE_PATH,
  });
  return redirect(`${config.appOrigin}${PROVIDER_INFO[provider].appCallbackPath}`, headers);
}
