import { page } from "@/lib/fresh/mod.ts";
import { ProviderButtons } from "@/components/ProviderButtons.tsx";
import { SignInErrorBanner } from "@/components/SignInErrorBanner.tsx";
import { availableProviders, type ProviderId } from "@/lib/auth/providers.ts";
import { Head } from "@/lib/fresh/head.ts";
import { safeReturnTo } from "@/lib/http/return_to.ts";
import { define } from "@/lib/state.ts";

interface Data {
  providers: ProviderId[];
  returnTo: string;
}

export const handler = define.handlers<Data>({
  GET(ctx) {
    const returnTo = safeReturnTo(ctx.url.searchParams.get("returnTo"));
    return page({ providers: availableProviders(ctx.state.services.config), returnTo });
  },
});

/** /signin: one button per available provider (all three, local, in local mode). */
export default define.page<typeof handler>(function SignIn({ data, state, url }) {
  const local = state.services.config.localMode;
  return (
    <>
      <Head>
        <title>Sign in — Parley</title>
      </Head>
      <section class="card stack signin" data-testid="signin">
        <h1>Sign in to Parley</h1>
        <SignInErrorBanner url={url} />
        {state.user && (
          <p class="alert alert-info">
            You are signed in as{" "}
            <strong>{state.user.name}</strong>. Signing in again switches account.{" "}
            <a href="/profile">Your profile</a>
          </p>
        )}
        {local && (
          <p class="alert alert-info" data-testid="local-signin-note">
            <strong>Local mode:</strong>{" "}
            these buttons use local stand-ins for the three providers, served by this app. Pick a
            test account or type any name — no real account is involved.
          </p>
        )}
        {data.providers.length === 0
          ? (
            <p class="empty">
              No sign-in provider is configured. Set <code>PROVIDER_A_CLIENT_ID</code>{" "}
              and friends (see the README), or run in local mode.
            </p>
          )
          : <ProviderButtons providers={data.providers} returnTo={data.returnTo} local={local} />}
        <p class="hint">
          Parley never sees your provider password. Your provider's tokens are kept encrypted on the
          server and are never readable by scripts in your browser.
        </p>
      </section>
    </>
  );
});
