import { setCookie } from "@/lib/http/cookies.ts";
import { readTextLimited } from "@/lib/http/body.ts";
import { safeReturnTo } from "@/lib/http/return_to.ts";
import { define, parseTheme, THEME_COOKIE } from "@/lib/state.ts";

/**
 * POST /theme: remember the colour scheme and go back where the form was. A GET (a typed
 * or bookmarked URL) just goes home rather than showing a bare 405.
 */
export const handler = define.handlers({
  GET(ctx) {
    return ctx.redirect("/", 303);
  },
  async POST(ctx) {
    const form = new URLSearchParams(await readTextLimited(ctx.req, 4096));
    const theme = parseTheme(form.get("theme") ?? undefined);
    const headers = new Headers({ location: safeReturnTo(form.get("returnTo")) });
    setCookie(headers, THEME_COOKIE, theme, {
      maxAge: 365 * 24 * 3600,
      httpOnly: false,
      secure: ctx.state.services.config.appOrigin.startsWith("https:"),
    });
    return new Response(null, { status: 303, headers });
  },
});
