import { page } from "@/lib/fresh/mod.ts";
import { ProviderButtons } from "@/components/ProviderButtons.tsx";
import { SignInErrorBanner } from "@/components/SignInErrorBanner.tsx";
import { availableProviders, type ProviderId } from "@/lib/auth/providers.ts";
import { Head } from "@/lib/fresh/head.ts";
import { safeReturnTo } from "@/lib/http/return_to.ts";
import { define } from "@/lib/state.ts";
import type { Services } from "@/lib/services.ts";
import { keys } from "@/lib/kv/keys.ts";
import { readSuspensionNotice } from "@/lib/auth/suspension_notice.ts";
import { activeSanction, type Sanction, sanctionMessage } from "@/lib/moderation/sanctions.ts";

interface Data {
  providers: ProviderId[];
  returnTo: string;
  /** Why the account that just tried to sign in is suspended, and until when. */
  suspension: string | null;
}

/** The suspension a signed notice (lib/auth/suspension_notice.ts) names, in a sentence. */
async function suspensionOf(
  services: Services,
  params: URLSearchParams,
): Promise<string | null> {
  if (params.get("error") !== "suspended") return null;
  const now = services.now();
  const userId = await readSuspensionNotice(services.secret, params.get("notice"), now);
  if (!userId) return null;
  const sanction = activeSanction(
    (await services.kv.get<Sanction>(keys.sanction(userId))).value,
    now,
  );
  return sanction?.action === "suspend" ? sanctionMessage(sanction) : null;
}

export const handler = define.handlers<Data>({
  async GET(ctx) {
    const returnTo = safeReturnTo(ctx.url.searchParams.get("returnTo"));
    const suspension = await suspensionOf(ctx.state.services, ctx.url.searchParams);
    return page(
      { providers: availableProviders(ctx.state.services.config), returnTo, suspension },
      suspension ? { headers: { "cache-control": "no-store" } } : undefined,
    );
  },
});

/** /signin: one button per available provider (all three, local, in local mode). */
export default define.page<typeof handler>(function SignIn({ data, state, url }) {
  const local = state.services.config.localMode;
  return (
    <>
      <Head>
        <title>Sign in · Parley</title>
      </Head>
      <section class="card stack signin" data-testid="signin">
        <h1>Sign in to Parley</h1>
        <SignInErrorBanner url={url} />
        {data.suspension && (
          <div class="alert alert-error" role="alert" data-testid="signin-suspended">
            <strong>You cannot sign in.</strong> {data.suspension}
          </div>
        )}
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
