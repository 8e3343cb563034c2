/**
 * provider_a's protocol (docs/interface.md#callback): a form-encoded token request with
 * `grant_type=authorization_code`, and answers wrapped as `{code, data}` where a `code`
 * other than 0 is a failure.
 *
 * @module
 */
import { z } from "zod";
import { optionalClipped } from "./fields.ts";
import { avatarUrl, bioText, displayName } from "./fields.ts";
import { ProviderError, providerJson } from "./provider_http.ts";
import type { ProviderClient } from "./types.ts";

const Envelope = z.object({ code: z.number(), data: z.unknown().optional() });

const TokenData = z.object({
  accessToken: z.string().min(1).max(4096),
  refreshToken: z.string().min(1).max(4096).nullish(),
  expiresIn: z.number().positive().max(10 * 365 * 24 * 3600),
  tokenType: z.string().optional(),
  scope: z.string().optional(),
});

/** provider_a's profile (`data` of its userinfo answer). */
export const ProviderAProfile = z.object({
  userId: z.union([z.string().min(1).max(200), z.number().int()]).transform(String),
  name: optionalClipped(100),
  email: optionalClipped(254),
  avatar: optionalClipped(1000),
  bio: optionalClipped(200),
  selfIntroduction: optionalClipped(200),
});
export type ProviderAProfile = z.infer<typeof ProviderAProfile>;

/** Unwrap `{code, data}`: code 0 with a valid `data`, or a ProviderError. */
function unwrap<S extends z.ZodType>(what: string, body: z.infer<typeof Envelope>, schema: S) {
  if (body.code !== 0) throw new ProviderError(`${what} answered code ${body.code}`);
  const data = schema.safeParse(body.data);
  if (!data.success) {
    const fields = data.error.issues.map((i) => ["data", ...i.path].join(".")).join(", ");
    throw new ProviderError(`${what} answered an unexpected shape (${fields})`);
  }
  return data.data as z.infer<S>;
}

/**
 * The provider_a client.
 *
 * @example
 * ```ts
 * declare const code: string;
 * declare const ep: Parameters<typeof providerA.exchangeCode>[0];
 * declare const redirectUri: string;
 * const tokens = await providerA.exchangeCode(ep, {
 *   code,
 *   redirectUri,
 *   codeVerifier: "v",
 *   now: Date.now(),
 * });
 * ```
 */
export const providerA: ProviderClient<ProviderAProfile> = {
  id: "provider_a",
  async exchangeCode(ep, { code, redirectUri, codeVerifier, now }) {
    const body = await providerJson("provider_a token endpoint", ep.tokenUrl, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri,
        client_id: ep.clientId,
        client_secret: ep.clientSecret,
        code_verifier: codeVerifier,
      }),
    }, Envelope);
    const data = unwrap("provider_a token endpoint", body, TokenData);
    return {
      accessToken: data.accessToken,
      refreshToken: data.refreshToken ?? null,
      expiresAt: now + Math.round(data.expiresIn * 1000),
    };
  },
  async fetchProfile(ep, accessToken) {
    const body = await providerJson("provider_a userinfo endpoint", ep.profileUrl, {
      headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
    }, Envelope);
    return unwrap("provider_a userinfo endpoint", body, ProviderAProfile);
  },
  profileSchema: ProviderAProfile,
  normalize: (p) => ({
    providerAccountId: p.userId,
    name: displayName(p.name, p.email?.split("@")[0]),
    email: p.email || null,
    avatar: avatarUrl(p.avatar),
    bio: bioText(p.bio, p.selfIntroduction),
  }),
};
