import { page } from "@/lib/fresh/mod.ts";
import { BindResult } from "@/components/profile/BindResult.tsx";
import { ProfileSummary } from "@/components/profile/ProfileSummary.tsx";
import { SignInMethods } from "@/components/profile/SignInMethods.tsx";
import { EditProfile } from "@/components/profile/EditProfile.tsx";
import { Privacy } from "@/components/profile/Privacy.tsx";
import { getSettings } from "@/lib/profile/settings.ts";
import { type Settings } from "@/lib/schemas/profile.ts";
import { AgentKeys } from "@/components/profile/AgentKeys.tsx";
import { ConnectedApps } from "@/components/profile/ConnectedApps.tsx";
import { type ConnectedApp, listConnectedApps } from "@/lib/oauth/tokens.ts";
import { YourData } from "@/components/profile/YourData.tsx";
import { ActivityList, ActivityTabs } from "@/components/profile/ActivityList.tsx";
import { StatsAndBadges } from "@/components/profile/StatsAndBadges.tsx";
import {
  ACTIVITY_TYPES,
  type ActivityPage,
  type ActivityType,
  listActivityForPage,
} from "@/lib/profile/activity.ts";
import { type AgentKeyInfo, listAgentKeys } from "@/lib/agent/keys.ts";
import { statsAndBadges } from "@/lib/profile/public_profile.ts";
import type { BadgeStatus, Statistics } from "@/lib/profile/stats.ts";
import { availableProviders, type ProviderId } from "@/lib/auth/providers.ts";
import { Head } from "@/lib/fresh/head.ts";
import { type IdentitySummary, identitySummary, listIdentities } from "@/lib/auth/identities.ts";
import { getProfile, type Profile } from "@/lib/profile/profiles.ts";
import { define } from "@/lib/state.ts";

interface Data {
  profile: Profile;
  identities: IdentitySummary[];
  available: ProviderId[];
  settings: Settings;
  keys: AgentKeyInfo[];
  apps: ConnectedApp[];
  stats: Statistics;
  badges: BadgeStatus[];
  tab: ActivityType;
  page: ActivityPage & { fromCursor: boolean };
  now: number;
}

const ALL_VISIBLE = Object.fromEntries(ACTIVITY_TYPES.map((t) => [t, true])) as Record<
  ActivityType,
  boolean
>;

export const handler = define.handlers<Data>({
  async GET(ctx) {
    const user = ctx.state.user;
    const { kv, config, now } = ctx.state.services;
    const profile = user ? await getProfile(kv, user.id) : null;
    if (!user || !profile) {
      return ctx.redirect("/signin?returnTo=%2Fprofile");
    }
    const params = ctx.url.searchParams;
    const asked = params.get("tab") as ActivityType | null;
    const tab = asked && ACTIVITY_TYPES.includes(asked) ? asked : "questions";
    const t = now();
    const [identities, settings, keys, apps, { stats, badges }, activity] = await Promise.all([
      listIdentities(kv, user.id).then((list) => list.map(identitySummary)),
      getSettings(kv, user.id),
      listAgentKeys(kv, user.id),
      listConnectedApps(kv, user.id, t),
      statsAndBadges(kv, user.id),
      listActivityForPage(kv, user.id, tab, params.get("cursor"), t),
    ]);
    return page({
      profile,
      identities,
      available: availableProviders(config),
      settings,
      keys,
      apps,
      stats,
      badges,
      tab,
      page: activity,
      now: t,
    }, { headers: { "cache-control": "no-store" } });
  },
});

/** The profile's parts, each one tap away. */
const SECTIONS = [
  { href: "#overview", label: "Overview" },
  { href: "#activity", label: "Activity" },
  { href: "#settings", label: "Settings" },
  { href: "#agent-keys", label: "API keys" },
  { href: "#connected-apps", label: "Connected apps" },
  { href: "#sign-in-methods", label: "Sign-in methods" },
  { href: "#your-data", label: "Your data" },
];

/**
 * Section links that stay at the top of the viewport while the page scrolls, so every
 * part of a long profile is one tap away (a plain anchor list: no script).
 */
function ProfileSectionNav() {
  return (
    <nav class="section-nav" aria-label="Profile sections" data-testid="profile-sections">
      {SECTIONS.map((s) => <a key={s.href} href={s.href}>{s.label}</a>)}
    </nav>
  );
}

/**
 * /profile: the signed-in user's own page. Each section is its own component under
 * components/profile/, so features add sections without touching the others.
 */
export default define.page<typeof handler>(function ProfilePage({ data, url }) {
  return (
    <>
      <Head>
        <title>{`Your profile · ${data.profile.displayName} · Parley`}</title>
      </Head>
      <div class="stack profile-page">
        <ProfileSectionNav />
        <BindResult url={url} />
        <ProfileSummary profile={data.profile} />
        <p>
          <a href={`/u/${encodeURIComponent(data.profile.userId)}`}>
            See your public profile
          </a>
        </p>
        <StatsAndBadges stats={data.stats} badges={data.badges} />
        <section class="card" aria-labelledby="activity-h" id="activity">
          <h2 id="activity-h">Your activity</h2>
          <ActivityTabs base="/profile" current={data.tab} visible={ALL_VISIBLE} />
          <ActivityList type={data.tab} page={data.page} base="/profile" now={data.now} />
        </section>
        <EditProfile profile={data.profile} />
        <Privacy settings={data.settings} />
        <AgentKeys keys={data.keys} />
        <ConnectedApps apps={data.apps} />
        <SignInMethods identities={data.identities} available={data.available} />
        <YourData displayName={data.profile.displayName} />
      </div>
    </>
  );
});
