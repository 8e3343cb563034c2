/**
 * An authorization request (`GET /oauth/authorize`, and the consent form that repeats
 * it) checked as OAuth 2.1 §4.1.1 and the MCP authorization spec ask: a registered app and
 * one of its redirect URIs (otherwise the person sees the error and nobody is redirected,
 * RFC 6749 §4.1.2.1), `response_type=code`, a PKCE S256 challenge (`plain` is refused),
 * known scopes, and a `resource` naming this server's `/mcp` (RFC 8707; absent means it).
 * Any other problem goes back to the app's redirect URI as `error=…`.
 *
 * @module
 */
import { parseScopeParam, type Scope, SCOPES } from "../agent/scopes.ts";
import { getClient, type OAuthClient } from "./clients.ts";
import { mcpResource } from "./metadata.ts";
import { CODE_CHALLENGE_SHAPE } from "./pkce.ts";
import { redirectUriMatches } from "./redirect_uris.ts";

/** Longest `state` passed through (characters). */
export const STATE_MAX = 1000;

/** A valid authorization request. */
export interface AuthorizeRequest {
  client: OAuthClient;
  redirectUri: string;
  state: string | null;
  /** What the app asks for (every scope when it names none). */
  scopes: Scope[];
  codeChallenge: string;
  resource: string;
}

/** Where an error goes back to: the app's redirect URI, with its state. */
export interface ErrorRedirect {
  redirectUri: string;
  state: string | null;
}

/** The outcome of checking a request. */
export type AuthorizeCheck =
  | { ok: true; request: AuthorizeRequest }
  /** Shown to the person; never redirected (the app or its redirect URI is not trusted). */
  | { ok: false; redirect: null; message: string }
  /** Sent back to the app. */
  | { ok: false; redirect: ErrorRedirect; error: string; description: string };

/** The one value of a parameter; a repeated parameter is an error (OAuth 2.1 §3.1). */
function single(params: URLSearchParams, name: string): string | null | "repeated" {
  const all = params.getAll(name);
  if (all.length > 1) return "repeated";
  return all[0] ?? null;
}

/**
 * Check an authorization request's parameters (the query of `GET /oauth/authorize`, or
 * the consent form's fields, which repeat them).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const check = await checkAuthorizeRequest(
 *   kv,
 *   "https://parley.example",
 *   new URLSearchParams("response_type=code&client_id=client_abc"),
 * );
 * if (check.ok) console.log(check.request.client.name);
 * ```
 */
export async function checkAuthorizeRequest(
  kv: Deno.Kv,
  origin: string,
  params: URLSearchParams,
): Promise<AuthorizeCheck> {
  const clientId = single(params, "client_id");
  if (!clientId || clientId === "repeated") {
    return { ok: false, redirect: null, message: "The app did not say who it is (client_id)." };
  }
  const client = await getClient(kv, clientId);
  if (!client) {
    return {
      ok: false,
      redirect: null,
      message:
        "This app is not registered with Parley (unknown client_id). Ask it to connect again.",
    };
  }
  const redirectUri = single(params, "redirect_uri");
  if (!redirectUri || redirectUri === "repeated") {
    return {
      ok: false,
      redirect: null,
      message: "The app did not say where to return (redirect_uri).",
    };
  }
  if (!redirectUriMatches(client.redirectUris, redirectUri)) {
    return {
      ok: false,
      redirect: null,
      message: "The app asked to return to an address it did not register (redirect_uri).",
    };
  }
  const stateParam = single(params, "state");
  const state = stateParam === "repeated" ? null : stateParam;
  const back = (error: string, description: string): AuthorizeCheck => ({
    ok: false,
    redirect: { redirectUri, state },
    error,
    description,
  });
  if (stateParam === "repeated") return back("invalid_request", "state is repeated");
  if (state !== null && state.length > STATE_MAX) {
    return back("invalid_request", `state must be at most ${STATE_MAX} characters`);
  }
  const responseType = single(params, "response_type");
  if (responseType !== "code") {
    return back("unsupported_response_type", 'response_type must be "code"');
  }
  const method = single(params, "code_challenge_method");
  const challenge = single(params, "code_challenge");
  if (method !== "S256") {
    return back(
      "invalid_request",
      "PKCE is required with code_challenge_method=S256 (plain is not accepted)",
    );
  }
  if (!challenge || challenge === "repeated" || !CODE_CHALLENGE_SHAPE.test(challenge)) {
    return back(
      "invalid_request",
      "code_challenge must be an S256 challenge (43 base64url characters)",
    );
  }
  const scopeParam = single(params, "scope");
  const scopes = scopeParam === "repeated" ? null : parseScopeParam(scopeParam);
  if (!scopes) return back("invalid_scope", `scope may name only ${SCOPES.join(" and ")}`);
  const resources = params.getAll("resource");
  const expected = mcpResource(origin);
  if (resources.some((r) => r !== expected)) {
    return back("invalid_target", `resource must be ${expected}`);
  }
  return {
    ok: true,
    request: {
      client,
      redirectUri,
      state,
      scopes: scopes.length ? scopes : [...SCOPES],
      codeChallenge: challenge,
      resource: expected,
    },
  };
}

/**
 * The redirect back to the app: its redirect URI with `params`, the request's `state`
 * and the issuer `iss` (RFC 9207) added.
 *
 * @example
 * ```ts
 * appRedirectUrl(
 *   { redirectUri: "http://127.0.0.1:9/cb", state: "s1" },
 *   "https://parley.example",
 *   { error: "access_denied" },
 * ); // "http://127.0.0.1:9/cb?error=access_denied&state=s1&iss=https%3A%2F%2Fparley.example"
 * ```
 */
export function appRedirectUrl(
  to: ErrorRedirect,
  issuer: string,
  params: Record<string, string>,
): string {
  const url = new URL(to.redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  if (to.state !== null) url.searchParams.set("state", to.state);
  url.searchParams.set("iss", issuer);
  return url.toString();
}
