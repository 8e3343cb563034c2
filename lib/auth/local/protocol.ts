/**
 * The wire protocols of the local identity providers, each faithful to its provider's
 * shapes (docs/interface.md#callback), so local mode runs the exact client code paths
 * that real providers do:
 *
 * - provider_a: form-encoded token request with `grant_type`; answers `{code, data}`,
 *   `code` ≠ 0 on failure.
 * - provider_b: JSON token request; answers JSON only when `Accept` asks for it (form
 *   encoding otherwise, as the real one does); `/user` with `email: null` for private
 *   addresses and `/emails` listing the primary one.
 * - provider_c: OpenID-Connect-style form request, `expires_in`, userinfo with `sub`.
 *
 * @module
 */
import type { Config, ProviderId } from "../../config.ts";
import { pkceChallenge, timingSafeEqual } from "../crypto.ts";
import { readTextLimited } from "../../http/body.ts";
import { randomToken } from "../../ids.ts";
import type { Services } from "../../services.ts";
import { localClientId, localClientSecret, redirectUri } from "../providers.ts";
import { getLocalAccount, type LocalAccount, localAvatarUrl, primaryEmail } from "./accounts.ts";
import {
  grantForToken,
  issueLocalToken,
  LOCAL_TOKEN_TTL_S,
  type LocalGrant,
  redeemLocalCode,
} from "./grants.ts";

/** A validated authorize request. */
export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  state: string;
  scope: string;
  /** PKCE S256 challenge (required: every client must use PKCE, RFC 9700). */
  codeChallenge: string;
}

/** A validated authorize request, or why it is invalid (a message for the page). */
export type ParsedAuthorizeRequest =
  | { ok: true; request: AuthorizeRequest }
  | { ok: false; reason: "invalid_request"; message: string };

/**
 * Validate `client_id`, `redirect_uri` (must be exactly the app's callback for this
 * provider), `response_type=code` and `state`. An invalid request is `invalid_request`
 * with a message to show: an authorize request that fails here is never redirected anywhere.
 */
export function parseAuthorizeRequest(
  config: Config,
  provider: ProviderId,
  params: URLSearchParams,
): ParsedAuthorizeRequest {
  const invalid = (message: string) => ({ ok: false, reason: "invalid_request", message }) as const;
  const clientId = params.get("client_id") ?? "";
  const uri = params.get("redirect_uri") ?? "";
  const state = params.get("state") ?? "";
  if (clientId !== localClientId(provider)) return invalid("Unknown client_id.");
  if (uri !== redirectUri(config, provider)) return invalid("redirect_uri is not registered.");
  if (params.get("response_type") !== "code") return invalid("response_type must be code.");
  if (!state || state.length > 500) return invalid("state is missing.");
  const codeChallenge = params.get("code_challenge") ?? "";
  if (!/^[A-Za-z0-9_-]{43}$/.test(codeChallenge)) {
    return invalid("code_challenge is required (PKCE, S256).");
  }
  if (params.get("code_challenge_method") !== "S256") {
    return invalid("code_challenge_method must be S256.");
  }
  return {
    ok: true,
    request: {
      clientId,
      redirectUri: uri,
      state,
      scope: (params.get("scope") ?? "").slice(0, 200),
      codeChallenge,
    },
  };
}

/**
 * An answer of a local provider endpoint as data: the status, the body, and how the HTTP
 * edge encodes it (`json` with `cache-control: no-store`, or a `form`-encoded 200).
 */
export type LocalAnswer =
  | { encoding: "json"; status: number; body: unknown }
  | { encoding: "form"; status: 200; body: Record<string, string> };

function json(body: unknown, status = 200): LocalAnswer {
  return { encoding: "json", status, body };
}

/** The token answer's failure in each provider's own style. */
function tokenError(provider: ProviderId, description: string): LocalAnswer {
  if (provider === "provider_a") return json({ code: 40001, message: description });
  if (provider === "provider_b") {
    return json({ error: "bad_verification_code", error_description: description });
  }
  return json({ error: "invalid_grant", error_description: description }, 400);
}

async function readTokenRequest(
  req: Request,
  provider: ProviderId,
): Promise<Record<string, string> | string> {
  const type = req.headers.get("content-type") ?? "";
  const text = await readTextLimited(req, 16 * 1024).catch(() => null);
  if (text === null) return "unreadable body";
  if (provider === "provider_b") {
    if (!type.startsWith("application/json")) return "expected a JSON body";
    try {
      const body = JSON.parse(text);
      if (typeof body !== "object" || body === null) return "expected a JSON object";
      return Object.fromEntries(
        Object.entries(body).filter(([, v]) => typeof v === "string"),
      ) as Record<string, string>;
    } catch {
      return "expected a JSON body";
    }
  }
  if (!type.startsWith("application/x-www-form-urlencoded")) return "expected a form body";
  const form = new URLSearchParams(text);
  if (form.get("grant_type") !== "authorization_code") return "unsupported grant_type";
  return Object.fromEntries(form);
}

/**
 * `POST /local-oauth/<provider>/token`: redeem a code for tokens.
 *
 * @example
 * ```ts
 * import type { Services } from "@/lib/services.ts";
 * declare const services: Services;
 * declare const req: Request;
 * const answer = await localTokenEndpoint(req, services, "provider_a");
 * ```
 */
export async function localTokenEndpoint(
  req: Request,
  services: Services,
  provider: ProviderId,
): Promise<LocalAnswer> {
  const body = await readTokenRequest(req, provider);
  if (typeof body === "string") return tokenError(provider, body);
  const secret = await localClientSecret(services.secret, provider);
  if (
    body.client_id !== localClientId(provider) ||
    !timingSafeEqual(body.client_secret ?? "", secret)
  ) {
    return tokenError(provider, "client authentication failed");
  }
  const now = services.now();
  const grant = await redeemLocalCode(services.kv, body.code ?? "", {
    provider,
    clientId: body.client_id,
    redirectUri: body.redirect_uri ?? "",
    now,
  });
  if (!grant) return tokenError(provider, "the code is invalid, used or expired");
  const verifier = body.code_verifier ?? "";
  if (
    !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) ||
    !timingSafeEqual(await pkceChallenge(verifier), grant.codeChallenge)
  ) {
    return tokenError(provider, "code_verifier does not match the code_challenge");
  }
  const accessToken = await issueLocalToken(services.kv, grant, now);
  if (provider === "provider_a") {
    return json({
      code: 0,
      data: {
        accessToken,
        refreshToken: `local_refresh_${randomToken(24)}`,
        expiresIn: LOCAL_TOKEN_TTL_S,
        tokenType: "Bearer",
        scope: "user_info",
      },
    });
  }
  if (provider === "provider_b") {
    const answer = {
      access_token: accessToken,
      token_type: "bearer",
      scope: "read:user,user:email",
    };
    if (!(req.headers.get("accept") ?? "").includes("application/json")) {
      return { encoding: "form", status: 200, body: answer };
    }
    return json(answer);
  }
  return json({
    access_token: accessToken,
    refresh_token: `local_refresh_${randomToken(24)}`,
    expires_in: LOCAL_TOKEN_TTL_S,
    token_type: "Bearer",
    scope: "openid profile email",
  });
}

function unauthorized(provider: ProviderId): LocalAnswer {
  if (provider === "provider_a") return json({ code: 401, message: "invalid access token" }, 401);
  if (provider === "provider_b") return json({ message: "Bad credentials" }, 401);
  return json({ error: "invalid_token" }, 401);
}

/** The profile document of an account, in its provider's shape. */
function profileOf(config: Config, provider: ProviderId, a: LocalAccount): unknown {
  const avatar = localAvatarUrl(config.appOrigin, a);
  if (provider === "provider_a") {
    return {
      code: 0,
      data: {
        userId: a.accountId,
        name: a.name,
        email: a.email,
        avatar,
        bio: a.bio,
        selfIntroduction: a.bio ? `Hello, I am ${a.name}. ${a.bio}` : "",
      },
    };
  }
  if (provider === "provider_b") {
    return {
      id: Number(a.accountId),
      login: a.login,
      name: a.name,
      email: a.email,
      avatar_url: avatar,
    };
  }
  return { sub: a.accountId, name: a.name, email: a.email, picture: avatar, email_verified: true };
}

/**
 * The bearer-authenticated profile endpoints: `userinfo` (provider_a, provider_c),
 * `user` and `emails` (provider_b). Null for an endpoint the provider does not have.
 */
export async function localProfileEndpoint(
  req: Request,
  services: Services,
  provider: ProviderId,
  endpoint: "userinfo" | "user" | "emails",
): Promise<LocalAnswer | null> {
  const expected = provider === "provider_b" ? ["user", "emails"] : ["userinfo"];
  if (!expected.includes(endpoint)) return null;
  const grant: LocalGrant | null = await grantForToken(services.kv, provider, req, services.now());
  if (!grant) return unauthorized(provider);
  const account = await getLocalAccount(services.kv, provider, grant.accountId);
  if (!account) return unauthorized(provider);
  if (endpoint === "emails") {
    return json([
      { email: `${account.login}@users.noreply.local.test`, primary: false, verified: true },
      { email: primaryEmail(account), primary: true, verified: true, visibility: "private" },
    ]);
  }
  return json(profileOf(services.config, provider, account));
}
