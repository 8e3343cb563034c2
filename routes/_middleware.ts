import { getCookies, setCookie } from "@/lib/http/cookies.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { isSameOrigin, isWriteMethod } from "@/lib/http/origin.ts";
import {
  SESSION_TTL_MS,
  sessionCookieName,
  type SessionFound,
  userForSession,
} from "@/lib/auth/sessions.ts";
import { isModeratorUser } from "@/lib/auth/moderators.ts";
import { modQueueSize } from "@/lib/moderation/queue_size.ts";
import { define, parseTheme, THEME_COOKIE } from "@/lib/state.ts";

/** The header every signed-in page carries (see {@link noStoreFor}). */
const SIGNED_IN_PAGE_CACHE = "private, no-store";

/**
 * Whether the answer is a signed-in person's page that sets no caching of its own: such a
 * page is theirs, as of now, so the browser keeps no copy to show again — not in its HTTP
 * cache, not in its back/forward cache — and Back after posting loads the page with the
 * new answer instead of the page as it was.
 */
function noStoreFor(signedIn: boolean, res: Response): boolean {
  return signedIn && !res.headers.has("cache-control") &&
    /^text\/html\b/.test(res.headers.get("content-type") ?? "");
}

/**
 * Root middleware: put the session user on `ctx.state` (or, on a route whose handler
 * reads it with keys of its own, `ctx.state.session` to read it with), refuse cross-site
 * writes that ride on the session cookie, renew the cookie while the session slides, and
 * keep signed-in pages out of the browser's caches.
 */
export default define.middleware(async (ctx) => {
  const { kv, config, now } = ctx.state.services;
  const cookieName = sessionCookieName(config.appOrigin);
  const cookies = getCookies(ctx.req);
  const token = cookies[cookieName];
  ctx.state.theme = parseTheme(cookies[THEME_COOKIE]);
  const bearer = ctx.req.headers.get("authorization")?.startsWith("Bearer ") ?? false;
  if (
    token && !bearer && isWriteMethod(ctx.req.method) && !isSameOrigin(ctx.req, config.appOrigin)
  ) {
    throw new HttpError(403, "Cross-site request refused");
  }
  // A request that authenticates with a bearer key is not a browser session: its cookie
  // is ignored, so the cross-site exemption above can never lend a session to a write.
  let found: SessionFound | null = null;
  ctx.state.user = null;
  if (!bearer && ctx.config.sessionRead === "handler") {
    // The route's handler reads the session with its own keys about the person (one
    // round trip where two would follow each other); the checks above already ran.
    ctx.state.session = {
      present: Boolean(token),
      read: async (extra) => {
        found = await userForSession(kv, token, now(), extra);
        ctx.state.user = found?.user ?? null;
        return found && { user: found.user, extra: found.extra };
      },
    };
  } else if (!bearer) {
    found = await userForSession(kv, token, now());
    ctx.state.user = found?.user ?? null;
  }
  // Pages show moderators a "Moderation" link with the queue's size; API calls skip it.
  if (found && ctx.req.method === "GET" && !ctx.url.pathname.startsWith("/api/")) {
    const moderator = await isModeratorUser(kv, config, found.user.id);
    ctx.state.user = { ...found.user, moderator };
    if (moderator) ctx.state.moderation = { waiting: await modQueueSize(kv) };
  }
  // Asked after the handler: a handler that reads the session itself may renew it.
  const renewal = () =>
    (found as SessionFound | null)?.renewed && token
      ? (headers: Headers) =>
        setCookie(headers, cookieName, token, {
          maxAge: SESSION_TTL_MS / 1000,
          secure: config.appOrigin.startsWith("https:"),
        })
      : null;
  let res: Response;
  try {
    res = await ctx.next();
  } catch (err) {
    // A thrown answer (the app maps it to a response) carries the renewed cookie too:
    // the session's lifetime already slid in KV.
    const renew = renewal();
    if (renew && err instanceof HttpError && !("set-cookie" in err.headers)) {
      const h = new Headers();
      renew(h);
      err.headers["set-cookie"] = h.get("set-cookie")!;
    }
    throw err;
  }
  const renew = renewal();
  const noStore = noStoreFor(ctx.state.user !== null, res);
  if (!renew && !noStore) return res;
  // The answer takes `res.headers` as its init (a copy made with `new Headers(res.headers)`
  // iterated them pair by pair, ~20 µs a page), then changes its own.
  const out = new Response(res.body, {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
  renew?.(out.headers);
  if (noStore) out.headers.set("cache-control", SIGNED_IN_PAGE_CACHE);
  return out;
});
