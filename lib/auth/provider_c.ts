/**
 * provider_c's protocol (docs/interface.md#callback): an OpenID-Connect-style
 * form-encoded token request, `expires_in` in seconds, and a userinfo answer keyed by
 * `sub`.
 *
 * @module
 */
import { z } from "zod";
import { avatarUrl, clipped, displayName, optionalClipped } from "./fields.ts";
import { providerJson } from "./provider_http.ts";
import type { ProviderClient } from "./types.ts";

const TokenAnswer = z.object({
  access_token: z.string().min(1).max(4096),
  refresh_token: z.string().min(1).max(4096).nullish(),
  expires_in: z.number().positive().max(10 * 365 * 24 * 3600),
  token_type: z.string().optional(),
  scope: z.string().optional(),
});

/** provider_c's userinfo. */
export const ProviderCProfile = z.object({
  sub: clipped(255).pipe(z.string().min(1)),
  name: optionalClipped(100),
  email: optionalClipped(254),
  picture: optionalClipped(1000),
  email_verified: z.boolean().nullish().transform((v) => v ?? false),
});
export type ProviderCProfile = z.infer<typeof ProviderCProfile>;

/**
 * The provider_c client.
 *
 * @example
 * ```ts
 * declare const code: string;
 * declare const ep: Parameters<typeof providerC.exchangeCode>[0];
 * declare const redirectUri: string;
 * const tokens = await providerC.exchangeCode(ep, {
 *   code,
 *   redirectUri,
 *   codeVerifier: "v",
 *   now: Date.now(),
 * });
 * ```
 */
export const providerC: ProviderClient<ProviderCProfile> = {
  id: "provider_c",
  async exchangeCode(ep, { code, redirectUri, codeVerifier, now }) {
    const body = await providerJson("provider_c token endpoint", ep.tokenUrl, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: new URLSearchParams({
        code,
        client_id: ep.clientId,
        client_secret: ep.clientSecret,
        redirect_uri: redirectUri,
        grant_type: "authorization_code",
        code_verifier: codeVerifier,
      }),
    }, TokenAnswer);
    return {
      accessToken: body.access_token,
      refreshToken: body.refresh_token ?? null,
      expiresAt: now + Math.round(body.expires_in * 1000),
    };
  },
  async fetchProfile(ep, accessToken) {
    return await providerJson("provider_c userinfo endpoint", ep.profileUrl, {
      headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
    }, ProviderCProfile);
  },
  profileSchema: ProviderCProfile,
  normalize: (p) => ({
    providerAccountId: p.sub,
    name: displayName(p.name, p.email?.split("@")[0]),
    // An unverified address could belong to someone else: keep only verified ones.
    email: p.email_verified && p.email ? p.email : null,
    avatar: avatarUrl(p.picture),
    bio: "",
  }),
};
