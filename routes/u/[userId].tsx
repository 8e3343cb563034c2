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
import { requireModerator, viewerOf } from "@/lib/http/auth.ts";
import { readTextLimited } from "@/lib/http/body.ts";
import { applySanction } from "@/lib/http/sanction.ts";
import { type AccountStanding, readStanding } from "@/lib/moderation/sanction_actions.ts";
import { untilInWords } from "@/lib/moderation/sanctions.ts";
import { SanctionBody } from "@/lib/schemas/moderation.ts";

interface Data {
  profile: PublicProfile;
  tab: ActivityType;
  page: ActivityPage | null;
  visible: Record<ActivityType, boolean>;
  isOwner: boolean;
  now: number;
  /** For a moderator looking at someone else: the person's standing, to act on. */
  moderation: AccountStanding | null;
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
    const viewer = await viewerOf(ctx.state.services, ctx.state.user);
    const moderation = viewer?.moderator && !isOwner
      ? await readStanding(kv, profile.userId, {
        newAccountHours: ctx.state.services.config.newAccountHours,
        now: t,
      })
      : null;
    return page({ profile, tab, page: activity, visible, isOwner, now: t, moderation });
  },
  /**
   * The moderator's form (silence, suspend, lift): a plain form post, then back to the
   * profile with what happened (no script needed).
   */
  async POST(ctx) {
    const { services } = ctx.state;
    const mod = await requireModerator(services, ctx.state.user);
    const form = Object.fromEntries(new URLSearchParams(await readTextLimited(ctx.req, 4096)));
    const back = `/u/${encodeURIComponent(ctx.params.userId)}`;
    const parsed = SanctionBody.safeParse({
      action: form.action,
      reason: form.reason,
      ...(form.until ? { until: form.until } : {}),
    });
    try {
      if (!parsed.success) throw new HttpError(400, parsed.error.issues[0].message);
      await applySanction(services, mod, ctx.params.userId, parsed.data);
      return ctx.redirect(`${back}?sanction=${encodeURIComponent(parsed.data.action)}`, 303);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status === 404) throw err;
      return ctx.redirect(`${back}?sanctionError=${encodeURIComponent(err.message)}`, 303);
    }
  },
});

const DONE: Record<string, string> = {
  silence: "Silenced.",
  suspend: "Suspended: their sessions ended.",
  lift: "Lifted.",
};

/** A moderator's view of a person's standing, and the form to change it. */
function ModerationCard(
  { standing, url, userId }: { standing: AccountStanding; url: URL; userId: string },
) {
  const s = standing.sanction;
  const done = url.searchParams.get("sanction") ?? "";
  const error = url.searchParams.get("sanctionError");
  return (
    <section class="card stack" aria-labelledby="moderation-h" data-testid="moderation-card">
      <h2 id="moderation-h">Moderation</h2>
      {Object.hasOwn(DONE, done) && <p class="alert alert-ok" role="status">{DONE[done]}</p>}
      {error && <p class="alert alert-error" role="alert">{error}</p>}
      <p data-testid="standing">
        {standing.trust === "new" ? "New account" : "Established account"}
        {" · "}
        {s
          ? (
            <>
              <strong>{s.action === "silence" ? "silenced" : "suspended"}</strong>{" "}
              {s.until === null ? "until lifted" : `until ${untilInWords(s.until)}`} by {s.by.name}:
              {" "}
              {s.reason}
            </>
          )
          : "no sanction"}
      </p>
      <form method="post" action={`/u/${encodeURIComponent(userId)}`} class="stack">
        <fieldset class="choice">
          <legend>Action</legend>
          {(["silence", "suspend", "lift"] as const).map((a) => (
            <label key={a} class="inline">
              <input type="radio" name="action" value={a} required checked={a === "silence"} /> {a}
            </label>
          ))}
        </fieldset>
        <label>
          Until (UTC date; empty: until lifted)
          <input type="date" name="until" />
        </label>
        <label>
          Reason (shown to them)
          <textarea name="reason" maxLength={500} required rows={2} />
        </label>
        <p>
          <button type="submit" class="btn btn-danger">Apply</button>
        </p>
      </form>
    </section>
  );
}

/** /u/:userId — a person's public profile. */
export default define.page<typeof handler>(function PublicProfilePage({ data, url }) {
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
              <h1 dir="auto">{p.displayName}</h1>
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
        {data.moderation && (
          <ModerationCard standing={data.moderation} url={url} userId={p.userId} />
        )}
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
