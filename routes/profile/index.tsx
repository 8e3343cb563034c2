import { BindResult } from "@/components/profile/BindResult.tsx";
import { ProfileSummary } from "@/components/profile/ProfileSummary.tsx";
import { SignInMethods } from "@/components/profile/SignInMethods.tsx";
import { EditProfile } from "@/components/profile/EditProfile.tsx";
import { Privacy } from "@/components/profile/Privacy.tsx";
import { getSettings, type Settings } from "@/lib/settings.ts";
import { availableProviders, type ProviderId } from "@/lib/auth/providers.ts";
import { Head } from "@/lib/fresh/head.ts";
import type { Handlers, PageProps } from "@/lib/fresh/types.ts";
import { type IdentitySummary, identitySummary, listIdentities } from "@/lib/identities.ts";
import { getProfile, type Profile } from "@/lib/profiles.ts";
import type { AppState } from "@/lib/state.ts";

interface Data {
  profile: Profile;
  identities: IdentitySummary[];
  available: ProviderId[];
  settings: Settings;
}

export const handler: Handlers<Data, AppState> = {
  async GET(_req, ctx) {
    const user = ctx.state.user;
    const { kv, config } = ctx.state.services;
    const profile = user ? await getProfile(kv, user.id) : null;
    if (!user || !profile) {
      return new Response(null, {
        status: 302,
        headers: { location: "/signin?returnTo=%2Fprofile" },
      });
    }
    const [identities, settings] = await Promise.all([
      listIdentities(kv, user.id).then((list) => list.map(identitySummary)),
      getSettings(kv, user.id),
    ]);
    return ctx.render({ profile, identities, available: availableProviders(config), settings });
  },
};

/**
 * /profile: the signed-in user's own page. Each section is its own component under
 * components/profile/, so features add sections without touching the others.
 */
export default function ProfilePage({ data, url }: PageProps<Data, AppState>) {
  return (
    <>
      <Head>
        <title>{`${data.profile.displayName} — your profile — Parley`}</title>
      </Head>
      <div class="stack profile-page">
        <BindResult url={url} />
        <ProfileSummary profile={data.profile} />
        <EditProfile profile={data.profile} />
        <Privacy settings={data.settings} />
        <SignInMethods identities={data.identities} available={data.available} />
      </div>
    </>
  );
}
