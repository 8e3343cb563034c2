import { callbackHandlers } from "@/lib/http/sign_in.ts";

/** GET /api/auth/callback: provider_a's redirect back (SPEC.md "Sign-in callbacks"). */
export const handler = callbackHandlers(() => "provider_a");
