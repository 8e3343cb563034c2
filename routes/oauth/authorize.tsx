import { signInHref } from "@/components/SignInPrompt.tsx";
import { formatScopes, isScope, type Scope, SCOPE_DESCRIPTIONS } from "@/lib/agent/scopes.ts";
import { page } from "@/lib/fresh/mod.ts";
import { Head } from "@/lib/fresh/head.ts";
import { readTextLimited } from "@/lib/http/body.ts";
import { FORM_TARGET_HEADER } from "@/lib/http/form_action.ts";
import {
  appRedirectUrl,
  type AuthorizeCheck,
  type AuthorizeRequest,
  checkAuthorizeRequest,
} from "@/lib/oauth/authorize_request.ts";
import { LOOPBACK_HOSTS } from "@/lib/oauth/redirect_uris.ts";
import { issueCode } from "@/lib/oauth/tokens.ts";
import { define } from "@/lib/state.ts";

interface Data {
  /** Why the request cannot go on (shown instead of the consent form). */
  error: string | null;
  request: AuthorizeRequest | null;
  /** A problem with the person's choice (no scope ticked). */
  problem: string | null;
}

/** The parameters of an authorization request, as the consent form repeats them. */
const REQUEST_FIELDS = [
  "client_id",
  "redirect_uri",
  "response_type",
  "state",
  "scope",
  "code_challenge",
  "code_challenge_method",
  "resource",
];

const NO_STORE = { "cache-control": "no-store" };

/** A redirect to the app (never cached: it may carry a code). */
function toApp(url: string, status: 302 | 303): Response {
  return new Response(null, { status, headers: { location: url, ...NO_STORE } });
}

/** The answer to a request that failed its checks. */
function refusal(check: Exclude<AuthorizeCheck, { ok: true }>, issuer: string, status: 302 | 303) {
  if (check.redirect === null) {
    return page<Data>({ error: check.message, request: null, problem: null }, {
      status: 400,
      headers: NO_STORE,
    });
  }
  return toApp(
    appRedirectUrl(check.redirect, issuer, {
      error: check.error,
      error_description: check.description,
    }),
    status,
  );
}

/** The consent page, allowed to send its form on to the app's redirect URI. */
function consent(request: AuthorizeRequest, problem: string | null, status = 200) {
  return page<Data>({ error: null, request, problem }, {
    status,
    headers: { ...NO_STORE, [FORM_TARGET_HEADER]: request.redirectUri },
  });
}

/**
 * `/oauth/authorize` — the authorization endpoint of Parley's OAuth server for agents:
 * GET checks the request (lib/oauth/authorize_request.ts) and shows the signed-in person
 * a consent page naming the app, where it returns to and what it asks for (signed-out
 * visitors sign in first and come back); the page's form POSTs here (same-origin, under
 * the app-wide CSRF check) and approving sends the app a one-time code, denying
 * `error=access_denied`, both with the request's `state`.
 */
export const handler = define.handlers<Data>({
  async GET(ctx) {
    const { kv, config } = ctx.state.services;
    const check = await checkAuthorizeRequest(kv, config.appOrigin, ctx.url.searchParams);
    if (!check.ok) return refusal(check, config.appOrigin, 302);
    if (!ctx.state.user) return ctx.redirect(signInHref(ctx.url));
    return consent(check.request, null);
  },
  async POST(ctx) {
    const { kv, config, now } = ctx.state.services;
    const form = new URLSearchParams(await readTextLimited(ctx.req, 8 * 1024));
    const params = new URLSearchParams();
    for (const name of REQUEST_FIELDS) {
      for (const v of form.getAll(name)) params.append(name, v);
    }
    const check = await checkAuthorizeRequest(kv, config.appOrigin, params);
    if (!check.ok) return refusal(check, config.appOrigin, 303);
    const request = check.request;
    const user = ctx.state.user;
    if (!user) {
      // The session ended between the page and the answer: sign in, then see it again.
      return ctx.redirect(signInHref(new URL(`/oauth/authorize?${params}`, ctx.url)), 303);
    }
    const back = { redirectUri: request.redirectUri, state: request.state };
    if (form.get("decision") !== "approve") {
      return toApp(
        appRedirectUrl(back, config.appOrigin, {
          error: "access_denied",
          error_description: "The person declined to connect this app",
        }),
        303,
      );
    }
    const chosen = form.getAll("grant_scope").filter(isScope)
      .filter((s) => request.scopes.includes(s));
    if (chosen.length === 0) {
      return consent(request, "Tick at least one permission, or choose Deny.", 400);
    }
    const code = await issueCode(kv, {
      clientId: request.client.id,
      clientName: request.client.name,
      userId: user.id,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      scopes: chosen as Scope[],
      resource: request.resource,
    }, now());
    return toApp(appRedirectUrl(back, config.appOrigin, { code }), 303);
  },
});

/** Where the app will be sent back to, said plainly. */
function Destination({ uri }: { uri: string }) {
  const url = new URL(uri);
  const local = url.protocol === "http:" && LOOPBACK_HOSTS.includes(url.hostname);
  return (
    <p>
      Afterwards you go back to <code data-testid="consent-redirect">{uri}</code>
      {local ? " — an app running on this computer." : "."}
    </p>
  );
}

/** The consent form: the request's parameters hidden, a box per scope, Allow or Deny. */
function ConsentForm({ request, problem, userName }: {
  request: AuthorizeRequest;
  problem: string | null;
  userName: string;
}) {
  const hidden: [string, string][] = [
    ["client_id", request.client.id],
    ["redirect_uri", request.redirectUri],
    ["response_type", "code"],
    ["scope", formatScopes(request.scopes)],
    ["code_challenge", request.codeChallenge],
    ["code_challenge_method", "S256"],
    ["resource", request.resource],
  ];
  if (request.state !== null) hidden.push(["state", request.state]);
  return (
    <form method="post" action="/oauth/authorize" class="stack" data-testid="consent-form">
      {hidden.map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}
      <p>
        <strong data-testid="consent-client">{request.client.name}</strong> wants to use Parley as
        {" "}
        <strong>{userName}</strong> through the agent interface (MCP and the agent API).
      </p>
      <p class="hint">
        Parley does not check app names: continue only if you started connecting this app yourself.
      </p>
      <Destination uri={request.redirectUri} />
      {problem && <p class="alert alert-error" role="alert">{problem}</p>}
      <fieldset class="choice">
        <legend>Allow it to</legend>
        {request.scopes.map((s) => (
          <label key={s} class="row">
            <input type="checkbox" name="grant_scope" value={s} checked />
            <span>
              <strong>{s}</strong> — {SCOPE_DESCRIPTIONS[s]}
            </span>
          </label>
        ))}
      </fieldset>
      <div class="row">
        <button type="submit" name="decision" value="approve" class="btn btn-primary">
          Allow
        </button>
        <button type="submit" name="decision" value="deny" class="btn">Deny</button>
      </div>
      <p class="hint">
        You can disconnect it at any time under <a href="/profile#connected-apps">Connected apps</a>
        {" "}
        on your profile.
      </p>
    </form>
  );
}

/** The consent page, or why the request cannot go on. */
export default define.page<typeof handler>(function Authorize({ data, state }) {
  return (
    <>
      <Head>
        <title>
          {data.request
            ? `Connect ${data.request.client.name}? · Parley`
            : "Cannot connect · Parley"}
        </title>
      </Head>
      <section class="card stack consent" data-testid="consent">
        {data.request && state.user
          ? (
            <>
              <h1>Connect an app to your account?</h1>
              <ConsentForm
                request={data.request}
                problem={data.problem}
                userName={state.user.name}
              />
            </>
          )
          : (
            <>
              <h1>This app cannot connect</h1>
              <p class="alert alert-error" role="alert">{data.error}</p>
              <p>
                Nothing was shared. <a href="/">Back to Parley</a>
              </p>
            </>
          )}
      </section>
    </>
  );
});
