import { callbackHandlers, providerFromPath } from "@/lib/http/sign_in.ts";

/**
 * GET /api/auth/callback/provider_b and /api/auth/callback/provider_c: that provider's
 * redirect back (SPEC.md "Sign-in callbacks"). Any other name answers as an unknown path
 * does (404).
 */
export const handler = callbackHandlers(providerFromPath);
