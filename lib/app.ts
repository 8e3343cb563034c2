/**
 * The application: Hono on the outside (logging, security headers, health, assets,
 * errors), the Fresh-shaped file routes inside.
 *
 * @module
 */
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { getPath } from "hono/utils/url";
import type { BuildInfo } from "./fresh/assets.ts";
import { createFreshHandler } from "./fresh/server.ts";
import type { Manifest } from "./fresh/types.ts";
import { HttpError } from "./fresh/error.ts";
import { busyError, errorResponse, storageError } from "./http/errors.ts";
import { InvalidCursorError } from "./kv/atomic.ts";
import { formatRequestLine, logSink } from "./http/log.ts";
import { serveBuildAsset } from "./http/static.ts";
import { PageCache } from "./http/page_cache.ts";
import { sessionCookieName } from "./auth/sessions.ts";
import { onReadsInvalidated } from "./community/read_cache.ts";
import { compressResponse } from "./http/compress.ts";
import { widenFormAction } from "./http/form_action.ts";
import { isWellFormedId } from "./ids.ts";
import { TagField } from "./schemas/tags.ts";
import { kvProbe } from "./kv/health.ts";
import { STORE_RETRY_AFTER_S } from "./kv/storage_errors.ts";
import type { AppState } from "./state.ts";
import type { Services } from "./services.ts";
import { appJobs } from "./jobs/app_jobs.ts";

/** Options of {@link createApp}. */
export interface AppOptions {
  manifest: Manifest;
  build: BuildInfo;
  /** Folder holding `static/<buildId>/` (default `.build`). */
  buildDir: string;
  /** Log one line per request (default true). */
  logRequests?: boolean;
  /**
   * The signed-out page cache (lib/http/page_cache.ts): its lifetime in ms (default 1000),
   * or false for none.
   */
  pageCacheTtlMs?: number | false;
}

/**
 * `Strict-Transport-Security` on an https origin: two years, subdomains included (the
 * preload list's minimum), so a browser that saw Parley once never tries plain http.
 */
export const HSTS = "max-age=63072000; includeSubDomains";

/** True for machine-facing paths that answer errors as JSON. */
export function isApiPath(url: URL): boolean {
  return url.pathname === "/api" || url.pathname.startsWith("/api/");
}

/** A browser navigating: GET or HEAD asking for HTML (not a form post or a script's call). */
function opensPage(req: Request): boolean {
  return (req.method === "GET" || req.method === "HEAD") &&
    (req.headers.get("accept") ?? "").includes("text/html");
}

/**
 * Build the app for a set of services.
 *
 * @example
 * ```ts
 * import type { BuildInfo } from "@/lib/fresh/assets.ts";
 * import type { Manifest } from "@/lib/fresh/types.ts";
 * import type { Services } from "@/lib/services.ts";
 * declare const build: BuildInfo;
 * declare const manifest: Manifest;
 * declare const services: Services;
 * const app = createApp(services, { manifest, build, buildDir: ".build" });
 * const res = await app.request("/healthz");
 * ```
 */
export function createApp(services: Services, opts: AppOptions): Hono {
  // Background work (debates, panels, the avatar) runs on the store's job runner.
  appJobs(services);
  const https = services.config.appOrigin.startsWith("https:");
  const fresh = createFreshHandler(opts.manifest, {
    build: opts.build,
    defaultTitle: "Parley",
    plainErrors: isApiPath,
    // Ids are checked once, here, for every route: over-long or odd ones are a 404. A
    // `[tag]` is no id: any tag a question may carry (`c++`, `c#`, `café`, `日本語`) passes.
    validParam: (value, name) =>
      name === "tag" ? TagField.safeParse(value).success : isWellFormedId(value),
    // JSON on /api/* and for statuses a page has no view of; null leaves a 404 to the
    // `_404` page and anything else to `_500`.
    onError: (err, ctx) => {
      if (err instanceof InvalidCursorError) err = new HttpError(400, "Invalid cursor");
      err = busyError(err) ?? storageError(err) ?? err;
      if (!(err instanceof HttpError)) return null;
      if (isApiPath(ctx.url)) return errorResponse(err);
      if (err.status === 404) return null;
      // A browser opening a page (a stale or mistyped link) gets the error as a page.
      if (err.status < 500 && opensPage(ctx.req)) return null;
      return err.status < 500 || err.status === 503 ? errorResponse(err) : null;
    },
  });

  const app = new Hono();

  const logRequests = opts.logRequests ?? true;
  if (logRequests) {
    app.use(async (c, next) => {
      const start = performance.now();
      await next();
      logSink.write(
        formatRequestLine(c.req.method, c.req.path, c.res.status, performance.now() - start),
      );
    });
  }

  // The signed-out page cache (lib/http/page_cache.ts): a hit is answered before Hono
  // dispatches at all (the end of this function); a request whose page is being filled
  // waits for that fill here, before routing, security headers and compression run; a
  // miss is stored below, with the security headers it left with.
  const pages = opts.pageCacheTtlMs === false ? null : new PageCache({
    sessionCookie: sessionCookieName(services.config.appOrigin),
    ttlMs: opts.pageCacheTtlMs,
  });
  if (pages) {
    onReadsInvalidated(services.kv, () => pages.drop());
    app.use(async (c, next) => {
      const fill = pages.joinFill(c.req.raw);
      const joined = fill && await fill;
      if (joined) return joined;
      await next();
    });
  }

  // Text over 1 KiB per Accept-Encoding (lib/http/compress.ts); SSE and the pre-compressed
  // build assets pass through untouched.
  app.use(async (c, next) => {
    await next();
    const res = await compressResponse(c.req.raw, c.res);
    if (res !== c.res) {
      // Drop the old response first: Hono would copy its headers onto the new one.
      c.res = undefined;
      c.res = res;
    }
  });

  if (pages) {
    app.use(async (c, next) => {
      const res = await pages.serve(c.req.raw, async () => {
        await next();
        return c.res;
      });
      pages.noteWrite(c.req.raw, res);
      if (res !== c.res) {
        // A stored miss answers with a new Response (its body was read): replace, not merge.
        c.res = undefined;
        c.res = res;
      }
    });
  }

  // After the security headers: a page may widen its CSP's form-action to where its form
  // redirects (lib/http/form_action.ts: the OAuth consent page).
  app.use(async (c, next) => {
    await next();
    widenFormAction(c.res);
  });

  app.use(secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      // No nonce: the island boot script is an immutable file (lib/fresh/render.ts), so a
      // page is the same bytes for everyone and can come from the page cache.
      scriptSrc: ["'self'"],
      scriptSrcAttr: ["'none'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", "https:", "http:", "data:"],
      connectSrc: ["'self'"],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xFrameOptions: "DENY",
    referrerPolicy: "strict-origin-when-cross-origin",
    // Not sent: each did something only in browsers no longer in use (the XSS auditor,
    // gone from every engine; IE8's open-download prompt), and every header is bytes and
    // work on each page a visitor loads.
    xXssProtection: false,
    xDownloadOptions: false,
    strictTransportSecurity: https ? HSTS : false,
    crossOriginEmbedderPolicy: false,
  }));

  // Proves KV can be read and written (lib/kv/health.ts: the write is at most one per few
  // seconds, its last result reported in between); 503 with what failed when it cannot.
  app.get("/healthz", async (c) => {
    const started = performance.now();
    const health = await kvProbe(services.kv).check();
    const ms = Number((performance.now() - started).toFixed(2));
    if (!health.ok) {
      c.header("retry-after", String(STORE_RETRY_AFTER_S));
      const { read, write, error } = health;
      return c.json({ ok: false, kv: "unavailable", read, write, error, ms }, 503);
    }
    return c.json({ ok: true, kv: "ok", read: health.read, write: health.write, ms });
  });

  app.get("/_parley/:build/*", async (c) => {
    const build = c.req.param("build");
    let file: string;
    try {
      file = decodeURIComponent(c.req.path.slice(`/_parley/${build}/`.length));
    } catch {
      // Malformed percent-encoding names no file: a 404, not a URIError's 500.
      return c.text("Not found", 404);
    }
    const res = await serveBuildAsset(
      opts.buildDir,
      build,
      file,
      c.req.header("accept-encoding") ?? null,
    );
    return res ?? c.text("Not found", 404);
  });

  app.all("*", async (c) => {
    const state: AppState = { services, user: null, theme: "auto" };
    return await fresh(c.req.raw, {
      state: state as unknown as Record<string, unknown>,
      // `Deno.serve` hands its connection info to `app.fetch` as Hono's `env`.
      info: c.env as Deno.ServeHandlerInfo | undefined,
    });
  });

  app.onError((err, c) => {
    err = busyError(err) ?? storageError(err) ?? err;
    if (err instanceof HttpError) return errorResponse(err);
    console.error("Unhandled error", c.req.path, err);
    return c.json({ error: "Internal server error" }, 500);
  });

  if (pages) answerHitsFirst(app, pages, logRequests);
  return app;
}

/**
 * Page-cache hits answered before Hono builds a context and runs the middleware chain
 * (`app.request` goes through `app.fetch` too), logged as the chain would log them.
 */
function answerHitsFirst(app: Hono, pages: PageCache, logRequests: boolean): void {
  const dispatch = app.fetch;
  app.fetch = (req, env, ctx) => {
    const start = logRequests ? performance.now() : 0;
    const hit = pages.hit(req);
    if (!hit) return dispatch(req, env, ctx);
    if (logRequests) {
      logSink.write(
        formatRequestLine(req.method, getPath(req), hit.status, performance.now() - start),
      );
    }
    return hit;
  };
}
