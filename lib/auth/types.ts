/**
 * What every provider client produces, whatever its wire shapes.
 *
 * @module
 */
import type { z } from "zod";
import type { ProviderConfig, ProviderId } from "../config.ts";

/** Tokens from a token exchange (docs/interface.md#auth-payload semantics). */
export interface ProviderTokens {
  accessToken: string;
  /** null for provider_b, and when a provider sends none. */
  refreshToken: string | null;
  /** Unix ms of expiry; null for provider_b. */
  expiresAt: number | null;
}

/** The provider profile reduced to what Parley keeps. */
export interface NormalizedProfile {
  providerAccountId: string;
  name: string;
  email: string | null;
  avatar: string | null;
  bio: string;
}

/** Input of a token exchange. */
export interface ExchangeInput {
  code: string;
  redirectUri: string;
  /** PKCE (RFC 7636): the verifier whose S256 challenge the authorize request sent. */
  codeVerifier: string;
  now: number;
}

/** One provider's wire protocol. `P` is the provider's own profile shape. */
export interface ProviderClient<P = unknown> {
  id: ProviderId;
  /** Exchange an authorization code at the token endpoint. */
  exchangeCode(ep: ProviderConfig, input: ExchangeInput): Promise<ProviderTokens>;
  /** Fetch the profile with the access token (provider_b: with the emails fallback). */
  fetchProfile(ep: ProviderConfig, accessToken: string): Promise<P>;
  /** Validates the profile both from the provider and when read back from a payload. */
  profileSchema: z.ZodType<P>;
  /** Reduce the provider's profile to Parley's fields. */
  normalize(profile: P): NormalizedProfile;
}
