/**
 * provider_b's protocol (docs/interface.md#callback): a JSON token request with
 * `Accept: application/json`, no refresh token or expiry, a numeric user id, and — when
 * the profile's email is null — the emails endpoint, whose first verified primary
 * address is used.
 *
 * @module
 */
import { z } from "zod";
import { avatarUrl, bioText, clipped, displayName, optionalClipped } from "./fields.ts";
import { providerJson } from "./provider_http.ts";
import type { ProviderClient } from "./types.ts";

const TokenAnswer = z.object({
  access_token: z.string().min(1).max(4096),
  token_type: z.string().optional(),
  scope: z.string().optional(),
});

/** provider_b's user (with `email` filled from the emails endpoint when it was null). */
export const ProviderBProfile = z.object({
  id: z.number().int().nonnegative(),
  login: clipped(100),
  name: optionalClipped(100),
  email: optionalClipped(254),
  avatar_url: optionalClipped(1000),
  bio: optionalClipped(200),
});
export type ProviderBProfile = z.infer<typeof ProviderBProfile>;

const Emails = z.array(
  z.object({
    email: z.string(),
    primary: z.boolean().optional(),
    verified: z.boolean().optional(),
  }).loose(),
).max(1000);

const headers = (accessToken: string) => ({
  authorization: `Bearer ${accessToken}`,
  accept: "application/json",
  "user-agent": "Parley",
});

/**
 * The provider_b client.
 *
 * @example
 * ```ts
 * declare const ep: Parameters<typeof providerB.fetchProfile>[0];
 * declare const tokens: { accessToken: string };
 * const profile = await providerB.fetchProfile(ep, tokens.accessToken);
 * ```
 */
export const providerB: ProviderClient<ProviderBProfile> = {
  id: "provider_b",
  async exchangeCode(ep, { code, redirectUri, codeVerifier }) {
    const body = await providerJson("provider_b token endpoint", ep.tokenUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "user-agent": "Parley",
      },
      body: JSON.stringify({
        client_id: ep.clientId,
        client_secret: ep.clientSecret,
        code,
        redirect_uri: redirectUri,
        code_verifier: codeVerifier,
      }),
    }, TokenAnswer);
    return { accessToken: body.access_token, refreshToken: null, expiresAt: null };
  },
  async fetchProfile(ep, accessToken) {
    const user = await providerJson(
      "provider_b user endpoint",
      ep.profileUrl,
      { headers: headers(accessToken) },
      ProviderBProfile,
    );
    if (user.email !== null || !ep.emailsUrl) return user;
    const emails = await providerJson(
      "provider_b emails endpoint",
      ep.emailsUrl,
      { headers: headers(accessToken) },
      Emails,
    );
    const primary = emails.find((e) => e.primary === true && e.verified === true);
    return { ...user, email: primary ? primary.email.slice(0, 254) : null };
  },
  profileSchema: ProviderBProfile,
  normalize: (p) => ({
    providerAccountId: String(p.id),
    name: displayName(p.name, p.login),
    email: p.email || null,
    avatar: avatarUrl(p.avatar_url),
    bio: bioText(p.bio),
  }),
};
