import { openNotification } from "@/lib/notifications/notifications.ts";
import { signInHref } from "@/components/SignInPrompt.tsx";
import { define } from "@/lib/state.ts";

/**
 * GET /notifications/open/:id — follow one of your notifications: it is marked read and the
 * browser goes on to the post it is about (a link, so it opens in a new tab too, and needs
 * no script). Only a navigation from Parley's own pages marks it (`Sec-Fetch-Site`
 * `same-origin`, or `none` for a typed or bookmarked URL): another site linking here can
 * send a person on, never mark their notifications read. The target is the notification's
 * own, never one from the URL, so this cannot redirect elsewhere.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const user = ctx.state.user;
    if (!user) return ctx.redirect(signInHref(ctx.url), 303);
    const site = ctx.req.headers.get("sec-fetch-site");
    const markAsRead = site === null || site === "same-origin" || site === "none";
    const { kv, now } = ctx.state.services;
    const opened = await openNotification(kv, user.id, ctx.params.id, {
      markAsRead,
      now: now(),
    });
    return ctx.redirect(opened.ok ? opened.href : "/notifications", 303);
  },
});
