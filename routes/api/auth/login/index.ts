import { loginHandlers } from "@/lib/http/sign_in.ts";

/** GET /api/auth/login: start a provider_a sign-in (or bind). */
export const handler = loginHandlers(() => "provider_a");
