import type { Handlers } from "@/lib/fresh/types.ts";
import { deleteCookie, getCookies } from "@/lib/http/cookies.ts";
import { deleteSession, sessionCookieName } from "@/lib/auth/sessions.ts";
import type { AppState } from "@/lib/state.ts";

/** True for a plain HTML form submission (sign out without JavaScript). */
function isFormPost(req: Request): boolean {
  const type = req.headers.get("content-type") ?? "";
  return type.startsWith("application/x-www-form-urlencoded") ||
    type.startsWith("multipart/form-data");
}

/**
 * POST /api/auth/logout: end this session and clear its cookie. A form post is sent
 * home (303); a fetch gets `{ok: true}`. Signed-out callers get the same answer.
 */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const { kv, config } = ctx.state.services;
    const name = sessionCookieName(config.appOrigin);
    const token = getCookies(req)[name];
    if (token) await deleteSession(kv, token);
    await req.body?.cancel().catch(() => {});
    const headers = new Headers({ "cache-control": "no-store" });
    deleteCookie(headers, name, { secure: config.appOrigin.startsWith("https:") });
    if (isFormPost(req)) {
      headers.set("location", "/");
      return new Response(null, { status: 303, headers });
    }
    headers.set("content-type", "application/json");
    return new Response(JSON.stringify({ ok: true }), { status: 200, headers });
  },
};
