import { loginHandlers, providerFromPath } from "@/lib/http/sign_in.ts";

/**
 * GET /api/auth/login/provider_b and /api/auth/login/provider_c: start that provider's
 * sign-in (or bind). Any other name answers as an unknown path does (404).
 */
export const handler = loginHandlers(providerFromPath);
