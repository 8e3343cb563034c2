import { HttpError, page } from "@/lib/fresh/mod.ts";
import { Avatar } from "@/components/Avatar.tsx";
import { Bio } from "@/components/Markdown.tsx";
import { ActivityList, ActivityTabs } from "@/components/profile/ActivityList.tsx";
import { StatsAndBadges } from "@/components/profile/StatsAndBadges.tsx";
import {
  ACTIVITY_TYPES,
  type ActivityPage,
  type ActivityType,
  listActivityForPage,
} from "@/lib/profile/activity.ts";
import { Head } from "@/lib/fresh/head.ts";
import { FeedLink } from "@/components/FeedLink.tsx";
import { userFeedPath } from "@/lib/feeds/paths.ts";
import { getPublicProfile, type PublicProfile } from "@/lib/profile/public_profile.ts";
import { PageMeta } from "@/lib/seo/page_meta.tsx";
import { define } from "@/lib/state.ts";

interface Data {
  profile: PublicProfile;
  tab: ActivityType;
  page: ActivityPage | null;
  visible: Record<ActivityType, boolean>;
  isOwner: boolean;
  now: number;
}

export const handler = define.handlers<Data>({
  async GET(ctx) {
    const { kv, now } = ctx.state.services;
    const t = now();
    const profile = await getPublicProfile(kv, ctx.params.userId, t);
    if (!profile) throw new HttpError(404);
    const isOwner = ctx.state.user?.id === profile.userId;
    // The owner sees every kind; others what the privacy settings let them.
    const visible = Object.fromEntries(
      ACTIVITY_TYPES.map((t) => [t, isOwner || profile.visibleActivity[t]]),
    ) as Record<ActivityType, boolean>;
    const params = ctx.url.searchParams;
    const asked = params.get("tab") as ActivityType | null;
    const tab = asked && ACTIVITY_TYPES.includes(asked)
      ? asked
      : ACTIVITY_TYPES.find((t) => visible[t]) ?? "questions";
    const cursor = params.get("cursor") ?? undefined;
    const activity = visible[tab]
      ? await listActivityForPage(kv, profile.userId, tab, cursor ?? null, t)
      : null;
    return page({ profile, tab, page: activity, visible, isOwner, now: t });
  },
});

/** /u/:userId — a person's public profile. */
export default define.page<typeof handler>(function PublicProfilePage({ data }) {
  const p = data.profile;
  const base = `/u/${encodeURIComponent(p.userId)}`;
  return (
    <>
      <Head>
        <title>{`${p.displayName} · Parley`}</title>
      </Head>
      {p.visibleActivity.favorites && (
        <FeedLink title={`${p.displayName}'s activity (Atom)`} href={userFeedPath(p.userId)} />
      )}
      <PageMeta
        description={p.bio || `${p.displayName} on Parley`}
        title={`${p.displayName} on Parley`}
        type="profile"
        image={p.avatarUrl || undefined}
      />
      <div class="profile-sections" data-testid="public-profile">
        <div>
          {p.coverUrl
            ? <img class="public-cover" src={p.coverUrl} alt="" />
            : <div class="public-cover" aria-hidden="true" />}
          <div class="public-head">
            <Avatar name={p.displayName} src={p.avatarUrl} size="lg" />
            <div>
              <h1>{p.displayName}</h1>
              <span class="meta">Member since {p.memberSince.slice(0, 10)}</span>
            </div>
          </div>
          {p.bio && <Bio text={p.bio} />}
          {data.isOwner && (
            <p class="alert alert-info">
              This is how others see your profile. <a href="/profile">Edit your profile</a>
            </p>
          )}
        </div>
        <StatsAndBadges stats={p.stats} badges={p.badges} />
        {/* "Activity feed: Only me": no activity section at all for others. */}
        {!Object.values(data.visible).some(Boolean)
          ? (
            <p class="muted" data-testid="activity-private">
              {p.displayName} keeps their activity private.
            </p>
          )
          : (
            <section aria-labelledby="activity-h" id="activity">
              <h2 id="activity-h">Activity</h2>
              <ActivityTabs base={base} current={data.tab} visible={data.visible} />
              {data.page
                ? <ActivityList type={data.tab} page={data.page} base={base} now={data.now} />
                : (
                  <p class="empty" data-testid="activity-kind-private">
                    {p.displayName} keeps this activity private.
                  </p>
                )}
            </section>
          )}
      </div>
    </>
  );
});
