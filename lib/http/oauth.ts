/**
 * The HTTP edge of Parley's OAuth endpoints for agents (`/oauth/register`, `/oauth/token`,
 * `/oauth/revoke`, the `.well-known` documents): RFC 6749 §5.2 error answers in the
 * project's `{error}` shape (`error` is the OAuth code, `error_description` the sentence),
 * `Cache-Control: no-store` on everything that may carry a token, form bodies, and CORS
 * so that an MCP client running in a browser can reach them (no cookie is ever read
 * there, so `*` opens nothing).
 *
 * @module
 */
import { HttpError } from "../fresh/error.ts";
import { readTextLimited } from "./body.ts";
import { protectedResourceMetadata } from "../oauth/metadata.ts";
import { errorResponse, expectedError } from "./errors.ts";

/** Largest form body of the token and revocation endpoints. */
export const OAUTH_FORM_LIMIT = 8 * 1024;

/** CORS for the OAuth endpoints (no credentials: nothing here reads a cookie). */
export const OAUTH_CORS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "Content-Type, Authorization, MCP-Protocol-Version",
  "access-control-max-age": "86400",
};

/**
 * An OAuth error answer: `status`, `{error: code, error_description}`.
 *
 * @example
 * ```ts
 * throw oauthError(400, "invalid_grant", "The code is unknown or expired");
 * ```
 */
export function oauthError(status: number, code: string, description: string): HttpError {
  return new HttpError(status, code, { extra: { error_description: description } });
}

/**
 * `res` with the OAuth endpoints' headers: CORS and, unless it says otherwise,
 * `Cache-Control: no-store` (RFC 6749 §5.1).
 *
 * @example
 * ```ts
 * const res = withOAuthHeaders(Response.json({ ok: true }));
 * ```
 */
export function withOAuthHeaders(res: Response): Response {
  for (const [k, v] of Object.entries(OAUTH_CORS)) res.headers.set(k, v);
  if (!res.headers.has("cache-control")) {
    res.headers.set("cache-control", "no-store");
    res.headers.set("pragma", "no-cache");
  }
  return res;
}

/**
 * The answer to a CORS preflight of an OAuth endpoint.
 *
 * @example
 * ```ts
 * const res = oauthPreflight(); // 204 with Access-Control-Allow-*
 * ```
 */
export function oauthPreflight(): Response {
  return withOAuthHeaders(new Response(null, { status: 204 }));
}

/**
 * Run an OAuth endpoint: its answer, or its failure as an OAuth error — an `HttpError`
 * that is not already one (a body over the limit, a bad form) becomes `invalid_request`,
 * a busy or failing store keeps its 503 — always with {@link withOAuthHeaders}.
 *
 * @example
 * ```ts
 * import { define } from "@/lib/state.ts";
 * export const handler = define.handlers({
 *   POST: () => oauthEndpoint(() => Promise.resolve(Response.json({}))),
 * });
 * ```
 */
export async function oauthEndpoint(run: () => Promise<Response>): Promise<Response> {
  try {
    return withOAuthHeaders(await run());
  } catch (err) {
    const expected = expectedError(err);
    if (!expected) throw err;
    const isOAuth = typeof expected.extra.error_description === "string" ||
      expected.status === 429 || expected.status >= 500;
    const answer = isOAuth
      ? expected
      : new HttpError(expected.status === 413 ? 413 : 400, "invalid_request", {
        extra: { error_description: expected.message },
        headers: expected.headers,
      });
    return withOAuthHeaders(errorResponse(answer));
  }
}

/**
 * A form-encoded body (`application/x-www-form-urlencoded`, at most
 * {@link OAUTH_FORM_LIMIT} bytes), or `invalid_request`.
 *
 * @example
 * ```ts
 * declare const req: Request;
 * const form = await readForm(req);
 * form.get("grant_type");
 * ```
 */
export async function readForm(req: Request): Promise<URLSearchParams> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw oauthError(
      400,
      "invalid_request",
      "Send the parameters form-encoded (Content-Type: application/x-www-form-urlencoded)",
    );
  }
  return new URLSearchParams(await readTextLimited(req, OAUTH_FORM_LIMIT));
}

/**
 * The one value of a form parameter: null when absent, `invalid_request` when repeated
 * (OAuth 2.1 §3.1) or longer than `max`.
 *
 * @example
 * ```ts
 * const grantType = formParam(new URLSearchParams("grant_type=refresh_token"), "grant_type");
 * ```
 */
export function formParam(form: URLSearchParams, name: string, max = 2000): string | null {
  const all = form.getAll(name);
  if (all.length > 1) throw oauthError(400, "invalid_request", `${name} is repeated`);
  const value = all[0] ?? null;
  if (value !== null && value.length > max) {
    throw oauthError(400, "invalid_request", `${name} is too long`);
  }
  return value;
}

/**
 * A required form parameter, or `invalid_request` naming it.
 *
 * @example
 * ```ts
 * const code = requiredParam(new URLSearchParams("code=x"), "code"); // "x"
 * ```
 */
export function requiredParam(form: URLSearchParams, name: string): string {
  const value = formParam(form, name);
  if (!value) throw oauthError(400, "invalid_request", `${name} is required`);
  return value;
}

/**
 * The protected resource metadata (RFC 9728) of `/mcp` as served: public, cacheable for
 * an hour, CORS-open.
 *
 * @example
 * ```ts
 * const res = protectedResourceResponse("https://parley.example");
 * ```
 */
export function protectedResourceResponse(origin: string): Response {
  return withOAuthHeaders(
    Response.json(protectedResourceMetadata(origin), {
      headers: { "cache-control": "public, max-age=3600" },
    }),
  );
}
