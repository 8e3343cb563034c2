/**
 * Helpers for the OAuth tests: an app registered over HTTP, PKCE pairs, the consent page
 * answered as a signed-in person would (the page is read, its form sent back), and token
 * requests. Every step goes through the real HTTP surface, in process (`t.request`) or on
 * loopback (`fetch` against the served origin), through a {@link Requester}.
 */
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { createHash } from "node:crypto";
import type { Scope } from "@/lib/agent/scopes.ts";
import { base64url } from "@/lib/ids.ts";
import type { TestApp } from "./app.ts";

/** How a helper reaches the app: a path or absolute URL, and the request's init. */
export type Requester = (url: string, init?: RequestInit) => Promise<Response>;

/** The in-process app as a {@link Requester}. */
export function inProcess(t: TestApp): Requester {
  return (url, init) => t.request(url, init);
}

/** A PKCE verifier and its S256 challenge, computed here (not with the app's code). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(48)));
  const challenge = base64url(new Uint8Array(createHash("sha256").update(verifier).digest()));
  return { verifier, challenge };
}

/** A registered test app. */
export interface RegisteredApp {
  clientId: string;
  redirectUri: string;
  name: string;
}

/** Register an app with `POST /oauth/register` (asserts the 201). */
export async function registerApp(
  req: Requester,
  redirectUri = "http://127.0.0.1:9/callback",
  name = "Test MCP client",
): Promise<RegisteredApp> {
  const res = await req("/oauth/register", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  const body = await res.json() as { client_id: string };
  return { clientId: body.client_id, redirectUri, name };
}

/** `/oauth/authorize?…` for an app and a challenge, with `extra` parameters added. */
export function authorizePath(
  app: RegisteredApp,
  challenge: string,
  extra: Record<string, string | null> = {},
): string {
  const params: Record<string, string | null> = {
    response_type: "code",
    client_id: app.clientId,
    redirect_uri: app.redirectUri,
    code_challenge: challenge,
    code_challenge_method: "S256",
    scope: "read write",
    state: "state-123",
    ...extra,
  };
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null) q.set(k, v);
  return `/oauth/authorize?${q}`;
}

/** The consent page's form, as read from its HTML. */
export interface ConsentForm {
  html: string;
  /** The hidden fields, as the browser would send them. */
  hidden: [string, string][];
  /** The scopes offered as boxes. */
  offered: string[];
}

/** Open the consent page as the signed-in person (asserts a 200 page with the form). */
export async function openConsent(
  req: Requester,
  cookie: string,
  url: string,
): Promise<ConsentForm> {
  const res = await req(url, { headers: { cookie } });
  const html = await res.text();
  assert.equal(res.status, 200, html.slice(0, 500));
  const { document } = parseHTML(html);
  const form = document.querySelector('form[data-testid="consent-form"]');
  assert.ok(form, "the consent form");
  assert.equal(form.getAttribute("action"), "/oauth/authorize");
  const hidden = [...form.querySelectorAll('input[type="hidden"]')].map((
    i: Element,
  ) => [i.getAttribute("name")!, i.getAttribute("value") ?? ""] as [string, string]);
  const offered = [...form.querySelectorAll('input[name="grant_scope"]')].map((i: Element) =>
    i.getAttribute("value")!
  );
  return { html, hidden, offered };
}

/**
 * Send the consent form back as the person's browser does (same origin): approve with
 * the `scopes` ticked (default every offered one), or deny. Returns the redirect's target.
 */
export async function answerConsent(
  req: Requester,
  origin: string,
  cookie: string,
  form: ConsentForm,
  opts: { decision?: "approve" | "deny"; scopes?: Scope[] } = {},
): Promise<URL> {
  const body = new URLSearchParams(form.hidden);
  for (const s of opts.scopes ?? form.offered) body.append("grant_scope", s);
  body.set("decision", opts.decision ?? "approve");
  const res = await req("/oauth/authorize", {
    method: "POST",
    headers: {
      cookie,
      origin,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: body.toString(),
    redirect: "manual",
  });
  await res.body?.cancel();
  assert.equal(res.status, 303);
  return new URL(res.headers.get("location")!);
}

/** POST form-encoded parameters to `/oauth/token` (or another OAuth endpoint). */
export function formPost(
  req: Requester,
  path: string,
  params: Record<string, string>,
): Promise<Response> {
  return req(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(params).toString(),
  });
}

/** A token answer. */
export interface Tokens {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

/**
 * Register, consent as the person (with `scopes`), and exchange the code: an app connected
 * to their account, with its tokens.
 */
export async function connectApp(
  req: Requester,
  origin: string,
  cookie: string,
  opts: { scopes?: Scope[]; name?: string } = {},
): Promise<{ app: RegisteredApp; tokens: Tokens }> {
  const app = await registerApp(req, "http://127.0.0.1:9/callback", opts.name);
  const { verifier, challenge } = pkce();
  const form = await openConsent(req, cookie, authorizePath(app, challenge));
  const back = await answerConsent(req, origin, cookie, form, { scopes: opts.scopes });
  const code = back.searchParams.get("code");
  assert.ok(code, back.toString());
  const res = await formPost(req, "/oauth/token", {
    grant_type: "authorization_code",
    code,
    redirect_uri: app.redirectUri,
    client_id: app.clientId,
    code_verifier: verifier,
  });
  assert.equal(res.status, 200, await res.clone().text());
  return { app, tokens: await res.json() as Tokens };
}
