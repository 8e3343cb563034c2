import { callbackHandlers } from "@/lib/auth/handlers.ts";

/** GET /api/auth/callback/provider_c: provider_c's redirect back (SPEC.md "Sign-in callbacks"). */
export const handler = callbackHandlers("provider_c");
