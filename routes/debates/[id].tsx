import { HttpError, page } from "@/lib/fresh/mod.ts";
import {
  DebateTranscript,
  DebateVersus,
  StandInNote,
  SynthesisReport,
} from "@/components/DebateView.tsx";
import { PRIVATE_DEBATE } from "@/components/PrivateDebate.tsx";
import { RelativeTime } from "@/components/RelativeTime.tsx";
import { DEBATE_STATUS_TEXT } from "@/components/debate_status.ts";
import DebateFollow from "@/islands/DebateFollow.tsx";
import ShareButton from "@/islands/ShareButton.tsx";
import { getSettings } from "@/lib/profile/settings.ts";
import { WithdrawalForm, WithdrawnBanner } from "@/components/Withdrawal.tsx";
import { debateAccess } from "@/lib/debates/access.ts";
import { viewerOf } from "@/lib/http/auth.ts";
import { withdrawalFormPost } from "@/lib/http/withdrawal.ts";
import type { Withdrawal } from "@/lib/moderation/withdrawn.ts";
import { recordDebateWatch } from "@/lib/debates/public.ts";
import type { Debate } from "@/lib/debates/store.ts";
import { Head } from "@/lib/fresh/head.ts";
import { PageMeta } from "@/lib/seo/page_meta.tsx";
import { define } from "@/lib/state.ts";

interface Data {
  debate: Debate;
  isOwner: boolean;
  /** Others may read it (the owner's debate archive is public): offer Share. */
  shareable: boolean;
  /** Moderators withdrew it: the banner its owner and moderators see. */
  withdrawn: Withdrawal | null;
  /** The viewer moderates: the withdraw / restore form. */
  moderator: boolean;
  now: number;
}

export const handler = define.handlers<Data>({
  async GET(ctx) {
    const { kv, now } = ctx.state.services;
    const who = await viewerOf(ctx.state.services, ctx.state.user);
    const viewer = who?.userId ?? null;
    const access = await debateAccess(kv, ctx.params.id, who, now());
    // A private debate says so (and nothing else about it); a missing one is a plain 404.
    if (!access.ok) {
      throw new HttpError(404, access.reason === "private" ? PRIVATE_DEBATE : undefined);
    }
    const debate = access.debate;
    // Members other than the owner who open it order /debates "most watched".
    await recordDebateWatch(kv, debate, viewer, now());
    const isOwner = viewer === debate.userId;
    // Anyone but the owner reads it only because it is public; the owner's setting says.
    const shareable = !access.withdrawn &&
      (!isOwner || (await getSettings(kv, debate.userId)).debateArchive === "public");
    return page({
      debate,
      isOwner,
      shareable,
      withdrawn: access.withdrawn,
      moderator: who?.moderator === true,
      now: now(),
    });
  },
  /** The moderator form: withdraw or restore, then back to the page. */
  POST(ctx) {
    const { services, user } = ctx.state;
    return withdrawalFormPost(ctx.req, services, user, "debate", ctx.params.id);
  },
});

/** /debates/:id: a saved debate, re-read — transcript and the judge's report. */
export default define.page<typeof handler>(function SavedDebatePage({ data, url }) {
  const { debate, isOwner, shareable, withdrawn, moderator, now } = data;
  const user = { name: debate.userProfile.name, avatar: debate.userProfile.avatar };
  const opponent = {
    name: debate.opponentProfile.name,
    avatar: debate.opponentProfile.avatar,
    title: debate.opponentProfile.title,
  };
  const turns = debate.messages.map((m) => ({
    role: m.role,
    name: m.name,
    avatar: m.role === "user" ? user.avatar : opponent.avatar,
    content: m.content,
  }));
  return (
    <>
      <Head>
        <title>{`${debate.topic} · Debate · Parley`}</title>
      </Head>
      <PageMeta
        description={`${debate.userProfile.name} and ${opponent.name} debate: ${debate.topic}`}
        title={`Debate: ${debate.topic}`}
        type="article"
      />
      <div class="page-head">
        <div>
          <h1 data-testid="debate-topic" dir="auto">{debate.topic}</h1>
          <div class="meta">
            <span>Debate started by {debate.userProfile.name}</span>
            <RelativeTime ms={debate.createdAt} now={now} />
            {/* A running debate's state is shown (and kept current) by DebateFollow. */}
            {debate.status !== "in_progress" && (
              <span class={`debate-status debate-status-${debate.status}`}>
                {DEBATE_STATUS_TEXT[debate.status] ?? debate.status}
              </span>
            )}
          </div>
        </div>
        <div class="row">
          {shareable && (
            <ShareButton
              path={`/debates/${encodeURIComponent(debate.id)}`}
              title={debate.topic}
              label="this debate"
            />
          )}
          <a class="btn btn-small" href="/debates">Public debates</a>
          <a class="btn btn-small" href="/debate">
            {isOwner ? "New debate" : "Start your own debate"}
          </a>
        </div>
      </div>
      {withdrawn && <WithdrawnBanner withdrawn={withdrawn} kind="debate" />}
      {debate.standIn && <StandInNote />}
      <DebateVersus user={user} opponent={opponent} viewerIsOwner={isOwner} />
      {debate.status === "in_progress"
        ? (
          <DebateFollow
            debateId={debate.id}
            userName={user.name}
            userAvatar={user.avatar ?? null}
            opponent={opponent}
            turns={turns}
            viewerIsOwner={isOwner}
          />
        )
        : turns.length > 0
        ? <DebateTranscript turns={turns} viewerIsOwner={isOwner} />
        : <p class="empty">No messages were written.</p>}
      {debate.status === "failed" && (
        <p class="alert alert-error" data-testid="debate-failed">
          This debate stopped early: {debate.error ?? "the language model failed."}
        </p>
      )}
      {debate.synthesis && (
        <SynthesisReport
          synthesis={debate.synthesis}
          userName={debate.userProfile.name}
          opponentName={debate.opponentProfile.name}
        />
      )}
      {moderator && (
        <WithdrawalForm
          kind="debate"
          id={debate.id}
          withdrawn={withdrawn}
          error={url.searchParams.get("withdrawalError")}
        />
      )}
    </>
  );
});
