import { loginHandlers } from "@/lib/auth/handlers.ts";

/** GET /api/auth/login/provider_b: start a provider_b sign-in (or bind). */
export const handler = loginHandlers("provider_b");
