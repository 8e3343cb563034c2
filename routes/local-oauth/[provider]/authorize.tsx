import { HttpError, page } from "@/lib/fresh/mod.ts";
import {
  getLocalAccount,
  listLocalAccounts,
  type LocalAccount,
  localAccountForName,
  localAvatarUrl,
} from "@/lib/auth/local/accounts.ts";
import { issueLocalCode, LOCAL_CODE_TTL_MS } from "@/lib/auth/local/grants.ts";
import { LOCAL_NAME_MAX } from "@/lib/input_limits.ts";
import { type AuthorizeRequest, parseAuthorizeRequest } from "@/lib/auth/local/protocol.ts";
import { isProviderId, PROVIDER_INFO, type ProviderId } from "@/lib/auth/providers.ts";
import { Head } from "@/lib/fresh/head.ts";
import { readTextLimited } from "@/lib/http/body.ts";
import { define } from "@/lib/state.ts";

interface Data {
  provider: ProviderId;
  request: AuthorizeRequest | null;
  error: string | null;
  accounts: LocalAccount[];
  typedName?: string;
}

function backToApp(req: AuthorizeRequest, params: Record<string, string>): Response {
  const url = new URL(req.redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  url.searchParams.set("state", req.state);
  return new Response(null, {
    status: 303,
    headers: { location: url.toString(), "cache-control": "no-store" },
  });
}

/**
 * The local provider's authorize page: choose a local account (or type a name) and
 * return to the app with a code, or cancel (`error=access_denied`).
 */
export const handler = define.handlers<Data>({
  async GET(ctx) {
    const provider = ctx.params.provider;
    if (!isProviderId(provider)) throw new HttpError(404);
    const { config, kv } = ctx.state.services;
    const parsed = parseAuthorizeRequest(config, provider, ctx.url.searchParams);
    const accounts = await listLocalAccounts(kv, provider);
    if (!parsed.ok) {
      return page({ provider, request: null, error: parsed.message, accounts: [] }, {
        status: 400,
      });
    }
    return page({ provider, request: parsed.request, error: null, accounts });
  },
  async POST(ctx) {
    const provider = ctx.params.provider;
    if (!isProviderId(provider)) throw new HttpError(404);
    const { config, kv, now } = ctx.state.services;
    const form = new URLSearchParams(await readTextLimited(ctx.req, 8 * 1024));
    const checked = parseAuthorizeRequest(config, provider, form);
    if (!checked.ok) {
      return page({ provider, request: null, error: checked.message, accounts: [] }, {
        status: 400,
      });
    }
    const parsed = checked.request;
    if (form.has("deny")) return backToApp(parsed, { error: "access_denied" });
    let account: LocalAccount | null = null;
    const typed = (form.get("name") ?? "").trim();
    if (form.has("account")) {
      account = await getLocalAccount(kv, provider, form.get("account") ?? "");
    } else if (typed.length >= 1 && typed.length <= LOCAL_NAME_MAX) {
      account = await localAccountForName(kv, provider, typed, now());
    }
    if (!account) {
      const accounts = await listLocalAccounts(kv, provider);
      return page({
        provider,
        request: parsed,
        error: `Choose an account, or type a name of 1 to ${LOCAL_NAME_MAX} characters.`,
        accounts,
        typedName: typed.slice(0, LOCAL_NAME_MAX),
      }, { status: 400 });
    }
    const code = await issueLocalCode(kv, {
      provider,
      accountId: account.accountId,
      clientId: parsed.clientId,
      redirectUri: parsed.redirectUri,
      codeChallenge: parsed.codeChallenge,
      expiresAt: now() + LOCAL_CODE_TTL_MS,
    });
    return backToApp(parsed, { code });
  },
});

function Hidden({ request }: { request: AuthorizeRequest }) {
  return (
    <>
      <input type="hidden" name="client_id" value={request.clientId} />
      <input type="hidden" name="redirect_uri" value={request.redirectUri} />
      <input type="hidden" name="response_type" value="code" />
      <input type="hidden" name="state" value={request.state} />
      <input type="hidden" name="scope" value={request.scope} />
      <input type="hidden" name="code_challenge" value={request.codeChallenge} />
      <input type="hidden" name="code_challenge_method" value="S256" />
    </>
  );
}

/** The account chooser of a local identity provider. */
export default define.page<typeof handler>(function LocalAuthorize({ data, state }) {
  const label = PROVIDER_INFO[data.provider].label;
  const origin = state.services.config.appOrigin;
  const action = `/local-oauth/${data.provider}/authorize`;
  return (
    <>
      <Head>
        <title>{`Choose an account · Local ${label} · Parley`}</title>
      </Head>
      <section class="local-oauth card stack" data-testid="local-oauth">
        <p class="alert alert-info">
          <strong>Local mode.</strong> This is a local stand-in for{" "}
          {label}, served by Parley itself. No real account is used and nothing leaves this machine.
        </p>
        <h1>Sign in to {label} (local)</h1>
        {data.error && <p class="alert alert-error" role="alert">{data.error}</p>}
        {data.request && (
          <>
            <h2>Choose an account</h2>
            <form method="post" action={action} class="stack">
              <Hidden request={data.request} />
              <ul class="list local-accounts">
                {data.accounts.map((a) => (
                  <li key={a.accountId}>
                    <button
                      type="submit"
                      name="account"
                      value={a.accountId}
                      class="btn local-account"
                      data-testid={`local-account-${a.accountId}`}
                    >
                      <img class="avatar" src={localAvatarUrl(origin, a)} alt="" />
                      <span class="grow">
                        <strong>{a.name}</strong>
                        <span class="meta">
                          {data.provider === "provider_b" ? `@${a.login} · ` : ""}
                          {a.email ?? "email private"}
                        </span>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </form>
            <h2>Or use another name</h2>
            <form method="post" action={action} class="row">
              <Hidden request={data.request} />
              <label class="grow">
                <span class="visually-hidden">Name</span>
                <input
                  type="text"
                  name="name"
                  required
                  maxLength={LOCAL_NAME_MAX}
                  value={data.typedName ?? ""}
                  placeholder="Your name"
                  autocomplete="name"
                />
              </label>
              <button type="submit" class="btn btn-primary">Continue</button>
            </form>
            <form method="post" action={action}>
              <Hidden request={data.request} />
              <button type="submit" name="deny" value="1" class="btn btn-small">
                Cancel and return to Parley
              </button>
            </form>
          </>
        )}
      </section>
    </>
  );
});
