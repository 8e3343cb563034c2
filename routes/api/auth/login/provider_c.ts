import { loginHandlers } from "@/lib/auth/handlers.ts";

/** GET /api/auth/login/provider_c: start a provider_c sign-in (or bind). */
export const handler = loginHandlers("provider_c");
