import { type OperationDoc } from "@/lib/agent/openapi_docs.ts";
import { deleteSession, sessionCookieName } from "@/lib/auth/sessions.ts";
import { deleteCookie, getCookies } from "@/lib/http/cookies.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { isSameOrigin } from "@/lib/http/origin.ts";
import { Ok } from "@/lib/schemas/profile.ts";
import { define } from "@/lib/state.ts";

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
export const handler = define.handlers({
  async POST(ctx) {
    const { kv, config } = ctx.state.services;
    const name = sessionCookieName(config.appOrigin);
    const token = getCookies(ctx.req)[name];
    // The root middleware lets bearer-authenticated writes skip its cross-site check, but
    // what logout ends is the cookie's session: only our own pages may end it, whatever
    // Authorization header rides along.
    if (token && !isSameOrigin(ctx.req, config.appOrigin)) {
      throw new HttpError(403, "Cross-site request refused");
    }
    if (token) await deleteSession(kv, token);
    await ctx.req.body?.cancel().catch(() => {});
    const headers = new Headers({ "cache-control": "no-store" });
    deleteCookie(headers, name, { secure: config.appOrigin.startsWith("https:") });
    if (isFormPost(ctx.req)) {
      headers.set("location", "/");
      return new Response(null, { status: 303, headers });
    }
    headers.set("content-type", "application/json");
    return new Response(JSON.stringify({ ok: true }), { status: 200, headers });
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/auth/logout",
  tag: "Session",
  summary: "Sign out (a signed-out caller gets the same answer)",
  auth: "session",
  responses: {
    "200": { description: "Signed out", schema: Ok, example: { ok: true } },
  },
}];
