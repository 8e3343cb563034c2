/**
 * Sign-in test kit: fake identity providers on a loopback port (speaking the three
 * providers' exact shapes, recording every request, failing on demand), a cookie jar,
 * and helpers that walk the login and callback steps through the app.
 */
import type { ProviderId } from "@/lib/config.ts";
import { createTestApp, type TestApp, type TestAppOptions } from "./app.ts";

/** A request as the fake provider received it. */
export interface RecordedRequest {
  provider: ProviderId;
  endpoint: "token" | "profile" | "emails";
  method: string;
  headers: Record<string, string>;
  body: string;
}

/** How one endpoint answers: a status and a JSON body, or a raw text body. */
export interface Answer {
  status?: number;
  body?: unknown;
  raw?: string;
}

/** Secrets the fake providers hand out; the scan test looks for them everywhere. */
export const FAKE_TOKENS = {
  provider_a: { access: "tok-A-ACCESS-5ecret-aaaa", refresh: "tok-A-REFRESH-5ecret-aaaa" },
  provider_b: { access: "tok-B-ACCESS-5ecret-bbbb", refresh: null },
  provider_c: { access: "tok-C-ACCESS-5ecret-cccc", refresh: "tok-C-REFRESH-5ecret-cccc" },
} as const;

/** Default answers of each provider, in its own shapes (docs/interface.md#callback). */
export function defaultAnswers(): Record<ProviderId, Record<RecordedRequest["endpoint"], Answer>> {
  return {
    provider_a: {
      token: {
        body: {
          code: 0,
          data: {
            accessToken: FAKE_TOKENS.provider_a.access,
            refreshToken: FAKE_TOKENS.provider_a.refresh,
            expiresIn: 7200,
            tokenType: "Bearer",
            scope: "user_info",
          },
        },
      },
      profile: {
        body: {
          code: 0,
          data: {
            userId: "a-user-1",
            name: "Ada from A",
            email: "ada@a.test",
            avatar: "https://a.test/ada.png",
            bio: "Bio from provider A",
            selfIntroduction: "Hello from A",
          },
        },
      },
      emails: { status: 404, body: {} },
    },
    provider_b: {
      token: {
        body: {
          access_token: FAKE_TOKENS.provider_b.access,
          token_type: "bearer",
          scope: "read:user,user:email",
        },
      },
      profile: {
        body: {
          id: 4242,
          login: "bee",
          name: "Bee from B",
          email: null,
          avatar_url: "https://b.test/bee.png",
        },
      },
      emails: {
        body: [
          { email: "secondary@b.test", primary: false, verified: true },
          { email: "unverified@b.test", primary: true, verified: false },
          { email: "bee@b.test", primary: true, verified: true },
        ],
      },
    },
    provider_c: {
      token: {
        body: {
          access_token: FAKE_TOKENS.provider_c.access,
          refresh_token: FAKE_TOKENS.provider_c.refresh,
          expires_in: 3599,
          token_type: "Bearer",
          scope: "openid profile email",
        },
      },
      profile: {
        body: {
          sub: "c-sub-1",
          name: "Cee from C",
          email: "cee@c.test",
          picture: "https://c.test/cee.png",
          email_verified: true,
        },
      },
      emails: { status: 404, body: {} },
    },
  };
}

/** The running fake providers. */
export interface FakeProviders {
  url: string;
  /** Every token/profile/emails request received, in order. */
  requests: RecordedRequest[];
  /** Current answers; tests overwrite entries to make a provider fail. */
  answers: Record<ProviderId, Record<RecordedRequest["endpoint"], Answer>>;
  /**
   * Whether provider_c honours `access_type=offline` (Google-like, the default) or, like a
   * generic OpenID provider, issues a refresh token only for the `offline_access` scope.
   */
  honoursAccessType: boolean;
  /** The PROVIDER_* variables configuring all three against this server. */
  env: Record<string, string>;
  close(): Promise<void>;
}

const PREFIX: Record<ProviderId, string> = { provider_a: "a", provider_b: "b", provider_c: "c" };

/**
 * PKCE as the fake providers see it: the `code_challenge` of each authorize redirect the
 * app made (by its state, recorded by {@link startLogin}) and of each code a test then
 * brought back with that state (recorded by {@link callback}).
 */
const challengeByState = new Map<string, string>();
const challengeByCode = new Map<string, string>();
/**
 * The authorize redirect of each login, by state and then by code: the fake provider_c
 * issues a refresh token only when it asked for offline access, as a real OpenID provider
 * does ({@link asksOffline}).
 */
const authorizeByState = new Map<string, URL>();
const authorizeByCode = new Map<string, URL>();

/**
 * True when an authorize URL asks for offline access: `offline_access` in `scope` with
 * `prompt=consent` (generic OpenID providers: OpenID Connect Core §11 has them ignore the
 * scope without it), or `access_type=offline` (Google-like ones; `honoursAccessType`).
 */
export function asksOffline(location: URL, honoursAccessType = true): boolean {
  const scopes = (location.searchParams.get("scope") ?? "").split(" ");
  const prompts = (location.searchParams.get("prompt") ?? "").split(" ");
  return (scopes.includes("offline_access") && prompts.includes("consent")) ||
    (honoursAccessType && location.searchParams.get("access_type") === "offline");
}

/** Whether the login a code belongs to asked for offline access (unknown codes: yes). */
function offlineAsked(code: string, honoursAccessType: boolean): boolean {
  const authorize = authorizeByCode.get(code);
  return authorize === undefined || asksOffline(authorize, honoursAccessType);
}

/** The token request's `code` (form-encoded or JSON). */
function codeOf(provider: ProviderId, body: string): string {
  try {
    const fields = provider === "provider_b"
      ? JSON.parse(body)
      : Object.fromEntries(new URLSearchParams(body));
    return String(fields.code ?? "");
  } catch {
    return "";
  }
}

async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return btoa(String.fromCharCode(...new Uint8Array(digest)))
    .replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The token request's `code_verifier` is missing or does not prove the code's challenge. */
async function pkceFailure(provider: ProviderId, body: string): Promise<string | null> {
  let fields: Record<string, unknown>;
  try {
    fields = provider === "provider_b"
      ? JSON.parse(body)
      : Object.fromEntries(new URLSearchParams(body));
  } catch {
    return "unreadable token request";
  }
  const verifier = fields.code_verifier;
  if (typeof verifier !== "string" || verifier.length < 43) return "code_verifier is missing";
  const challenge = challengeByCode.get(String(fields.code));
  if (challenge && await s256(verifier) !== challenge) return "code_verifier is wrong";
  return null;
}

/**
 * Start fake providers on 127.0.0.1 (port 0).
 *
 * @example
 * ```ts
 * const fake = startFakeProviders();
 * fake.answers.provider_a.token = { status: 500, body: {} };
 * ```
 */
export function startFakeProviders(): FakeProviders {
  const requests: RecordedRequest[] = [];
  const state = { answers: defaultAnswers(), honoursAccessType: true };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const [, p, endpoint] = new URL(req.url).pathname.split("/");
    const provider = (Object.keys(PREFIX) as ProviderId[]).find((k) => PREFIX[k] === p);
    const ep = endpoint === "token"
      ? "token"
      : endpoint === "userinfo" || endpoint === "user"
      ? "profile"
      : endpoint === "emails"
      ? "emails"
      : null;
    if (!provider || !ep) return new Response("not found", { status: 404 });
    requests.push({
      provider,
      endpoint: ep,
      method: req.method,
      headers: Object.fromEntries(req.headers),
      body: await req.text(),
    });
    if (ep === "token") {
      const failure = await pkceFailure(provider, requests[requests.length - 1].body);
      if (failure) {
        return Response.json({ error: "invalid_grant", error_description: failure }, {
          status: 400,
        });
      }
    }
    const answer = state.answers[provider][ep];
    if (answer.raw !== undefined) {
      return new Response(answer.raw, {
        status: answer.status ?? 200,
        headers: { "content-type": "application/json" },
      });
    }
    let body = answer.body ?? {};
    if (
      provider === "provider_c" && ep === "token" &&
      !offlineAsked(codeOf(provider, requests[requests.length - 1].body), state.honoursAccessType)
    ) {
      // Not asked for offline access: no refresh token, as a standard OpenID provider.
      const { refresh_token: _dropped, ...rest } = body as Record<string, unknown>;
      body = rest;
    }
    return Response.json(body, { status: answer.status ?? 200 });
  });
  const url = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  const env: Record<string, string> = {};
  for (const [provider, p] of Object.entries(PREFIX)) {
    const up = provider.toUpperCase();
    env[`${up}_CLIENT_ID`] = `client-${p}`;
    env[`${up}_CLIENT_SECRET`] = `client-secret-${p}`;
    env[`${up}_AUTHORIZE_URL`] = `${url}/${p}/authorize`;
    env[`${up}_TOKEN_URL`] = `${url}/${p}/token`;
    if (provider === "provider_b") {
      env[`${up}_USER_URL`] = `${url}/${p}/user`;
      env[`${up}_EMAILS_URL`] = `${url}/${p}/emails`;
    } else {
      env[`${up}_USERINFO_URL`] = `${url}/${p}/userinfo`;
    }
  }
  return {
    url,
    requests,
    get answers() {
      return state.answers;
    },
    set answers(v) {
      state.answers = v;
    },
    get honoursAccessType() {
      return state.honoursAccessType;
    },
    set honoursAccessType(v) {
      state.honoursAccessType = v;
    },
    env,
    close: () => server.shutdown(),
  };
}

/** An APP_SECRET for tests outside local mode. */
export const TEST_SECRET = "test-secret-0123456789-0123456789-abcdef";

/**
 * A test app configured against fake providers (not local mode).
 *
 * @example
 * ```ts
 * const { t, fake, close } = await appWithFakeProviders();
 * ```
 */
export async function appWithFakeProviders(
  opts: TestAppOptions = {},
): Promise<{ t: TestApp; fake: FakeProviders; close(): Promise<void> }> {
  const fake = startFakeProviders();
  const t = await createTestApp({
    ...opts,
    env: { APP_SECRET: TEST_SECRET, ...fake.env, ...opts.env },
  });
  return {
    t,
    fake,
    close: async () => {
      await t.close();
      await fake.close();
    },
  };
}

/** A parsed Set-Cookie. */
export interface SetCookie {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
}

/** Parse every Set-Cookie header of a response. */
export function setCookies(res: Response): SetCookie[] {
  return res.headers.getSetCookie().map((line) => {
    const [pair, ...attrs] = line.split(";").map((s) => s.trim());
    const eq = pair.indexOf("=");
    const attributes: Record<string, string | true> = {};
    for (const a of attrs) {
      const i = a.indexOf("=");
      if (i < 0) attributes[a.toLowerCase()] = true;
      else attributes[a.slice(0, i).toLowerCase()] = a.slice(i + 1);
    }
    return {
      name: pair.slice(0, eq),
      value: decodeURIComponent(pair.slice(eq + 1)),
      attributes,
    };
  });
}

/** A minimal browser cookie jar (paths ignored: tests request only the right paths). */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  /** Apply a response's Set-Cookie headers; returns them parsed. */
  take(res: Response): SetCookie[] {
    const list = setCookies(res);
    for (const c of list) {
      if (c.attributes["max-age"] === "0") this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return list;
  }

  /** The Cookie header value. */
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ");
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
}

/** The login start route and API callback path of each provider. */
export const ROUTES: Record<ProviderId, { login: string; callback: string; app: string }> = {
  provider_a: {
    login: "/api/auth/login",
    callback: "/api/auth/callback",
    app: "/auth/callback/provider_a",
  },
  provider_b: {
    login: "/api/auth/login/provider_b",
    callback: "/api/auth/callback/provider_b",
    app: "/auth/callback/oauth?provider=provider_b-oauth",
  },
  provider_c: {
    login: "/api/auth/login/provider_c",
    callback: "/api/auth/callback/provider_c",
    app: "/auth/callback/oauth?provider=provider_c-oauth",
  },
};

/** The flow cookie names of a provider (docs/interface.md#callback: deleted after every callback). */
export function flowCookies(provider: ProviderId): string[] {
  return [
    `${provider}_oauth_state`,
    `${provider}_oauth_origin`,
    `${provider}_oauth_redirect_uri`,
    `${provider}_oauth_code_verifier`,
    "oauth_login_flow",
    "oauth_bind_target_user_id",
  ];
}

/** Start a login (or bind) through the app; returns the state from the authorize redirect. */
export async function startLogin(
  t: TestApp,
  provider: ProviderId,
  jar: CookieJar,
  query = "",
): Promise<{ state: string; location: URL; res: Response }> {
  const res = await t.request(`${ROUTES[provider].login}${query}`, {
    headers: { cookie: jar.header() },
  });
  jar.take(res);
  const location = new URL(res.headers.get("location") ?? "http://invalid/");
  const challenge = location.searchParams.get("code_challenge");
  const started = location.searchParams.get("state");
  if (challenge && started) challengeByState.set(started, challenge);
  if (started) authorizeByState.set(started, location);
  return { state: location.searchParams.get("state") ?? "", location, res };
}

/** Hit the API callback with query parameters and the jar's cookies. */
export async function callback(
  t: TestApp,
  provider: ProviderId,
  jar: CookieJar,
  params: Record<string, string>,
): Promise<{ res: Response; location: string; cookies: SetCookie[] }> {
  const challenge = challengeByState.get(params.state ?? "");
  if (params.code && challenge) challengeByCode.set(params.code, challenge);
  const authorize = authorizeByState.get(params.state ?? "");
  if (params.code && authorize) authorizeByCode.set(params.code, authorize);
  const res = await t.request(`${ROUTES[provider].callback}?${new URLSearchParams(params)}`, {
    headers: { cookie: jar.header() },
  });
  const cookies = jar.take(res);
  return { res, location: res.headers.get("location") ?? "", cookies };
}

/** Hit the app callback page with the jar's cookies. */
export async function appCallback(
  t: TestApp,
  provider: ProviderId,
  jar: CookieJar,
): Promise<{ res: Response; location: string; cookies: SetCookie[] }> {
  const res = await t.request(ROUTES[provider].app, { headers: { cookie: jar.header() } });
  const cookies = jar.take(res);
  return { res, location: res.headers.get("location") ?? "", cookies };
}

/**
 * The whole login: start, provider callback with a code, app callback. Returns the jar
 * (holding the session cookie) and each step's answer.
 *
 * @example
 * ```ts
 * const { jar } = await signInThrough(t, "provider_c");
 * ```
 */
export async function signInThrough(
  t: TestApp,
  provider: ProviderId,
  opts: { jar?: CookieJar; query?: string } = {},
) {
  const jar = opts.jar ?? new CookieJar();
  const { state } = await startLogin(t, provider, jar, opts.query);
  const api = await callback(t, provider, jar, { code: `code-${provider}`, state });
  const app = await appCallback(t, provider, jar);
  return { jar, api, app };
}

/** GET /api/auth/session with the jar's cookies. */
export async function sessionOf(t: TestApp, jar: CookieJar): Promise<Response> {
  return await t.request("/api/auth/session", { headers: { cookie: jar.header() } });
}

/** A free loopback port (listen on 0, read the port, close). */
export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/**
 * A local-mode app served on a real loopback port with APP_ORIGIN matching it, so the
 * callbacks really reach the local providers over HTTP.
 *
 * @example
 * ```ts
 * const srv = await localModeServer();
 * await fetch(`${srv.origin}/signin`);
 * ```
 */
export async function localModeServer(opts: TestAppOptions = {}) {
  for (let attempt = 0;; attempt++) {
    const port = freePort();
    const origin = `http://127.0.0.1:${port}`;
    const t = await createTestApp({ ...opts, env: { APP_ORIGIN: origin, ...opts.env } });
    let server: Deno.HttpServer;
    try {
      server = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, t.app.fetch);
    } catch (err) {
      // Another process took the port between probe and listen: try another.
      await t.close();
      if (attempt < 5 && err instanceof Deno.errors.AddrInUse) continue;
      throw err;
    }
    return {
      t,
      origin,
      close: async () => {
        await server.shutdown();
        await t.close();
      },
    };
  }
}

/**
 * Capture console.log/info/warn/error lines until `restore()` (keeps expected failure
 * warnings out of test output, and lets the scan test read every log line).
 */
export function captureConsole(): { lines: string[]; restore(): void } {
  const lines: string[] = [];
  const methods = ["log", "info", "warn", "error", "debug"] as const;
  const saved = methods.map((m) => console[m]);
  for (const m of methods) {
    console[m] = (...args: unknown[]) => {
      lines.push(
        args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : String(a))).join(" "),
      );
    };
  }
  return {
    lines,
    restore: () => methods.forEach((m, i) => (console[m] = saved[i])),
  };
}
