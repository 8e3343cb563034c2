import { HttpError, page } from "@/lib/fresh/mod.ts";
import { Panel, type SeatView } from "@/components/RoundtableView.tsx";
import { RelativeTime } from "@/components/RelativeTime.tsx";
import { PRIVATE_ROUNDTABLE } from "@/components/PrivateDebate.tsx";
import RoundtableLive from "@/islands/RoundtableLive.tsx";
import ShareButton from "@/islands/ShareButton.tsx";
import { expertById } from "@/lib/panel/experts.ts";
import { WithdrawalForm, WithdrawnBanner } from "@/components/Withdrawal.tsx";
import { roundtableAccess } from "@/lib/roundtables/access.ts";
import { viewerOf } from "@/lib/http/auth.ts";
import { withdrawalFormPost } from "@/lib/http/withdrawal.ts";
import type { Withdrawal } from "@/lib/moderation/withdrawn.ts";
import { archiveOpenTo } from "@/lib/debates/access.ts";
import { transcriptItems } from "@/lib/roundtables/live_state.ts";
import { type RoundtableJson, roundtableToJson } from "@/lib/roundtables/store.ts";
import { Head } from "@/lib/fresh/head.ts";
import { PageMeta } from "@/lib/seo/page_meta.tsx";
import { define } from "@/lib/state.ts";

interface Data {
  rt: RoundtableJson;
  seats: SeatView[];
  isHost: boolean;
  /** Others may read it (the owner's debate archive is public): offer Share. */
  shareable: boolean;
  standIn: boolean;
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
    const r = await roundtableAccess(kv, ctx.params.id, who, now());
    if (!r.ok) throw new HttpError(404, r.reason === "private" ? PRIVATE_ROUNDTABLE : undefined);
    const seats = r.roundtable.experts.map((e) => ({
      ...e,
      avatar: expertById(e.id)?.avatar ?? "AI",
    }));
    return page({
      rt: roundtableToJson(r.roundtable),
      seats,
      isHost: viewer === r.roundtable.userId,
      shareable: !r.withdrawn && (viewer !== r.roundtable.userId ||
        await archiveOpenTo(kv, r.roundtable.userId, null)),
      standIn: r.roundtable.standIn,
      withdrawn: r.withdrawn,
      moderator: who?.moderator === true,
      now: now(),
    });
  },
  /** The moderator form: withdraw or restore, then back to the page. */
  POST(ctx) {
    const { services, user } = ctx.state;
    return withdrawalFormPost(ctx.req, services, user, "roundtable", ctx.params.id);
  },
});

/** /roundtables/:id: a roundtable, followed live while it runs; the minutes once written. */
export default define.page<typeof handler>(function RoundtablePage({ data, url }) {
  const { rt, seats, isHost, shareable, standIn, withdrawn, moderator, now } = data;
  return (
    <>
      <Head>
        <title>{`${rt.topic} · Roundtable · Parley`}</title>
      </Head>
      <PageMeta
        description={`AI experts discuss: ${rt.topic}`}
        title={`Roundtable: ${rt.topic}`}
        type="article"
      />
      <div class="page-head">
        <div>
          <h1 data-testid="roundtable-topic" dir="auto">{rt.topic}</h1>
          <div class="meta">
            <span>Roundtable hosted by {isHost ? "you" : "a member"}</span>
            <RelativeTime ms={Date.parse(rt.createdAt)} now={now} />
            <span>{rt.rounds} discussion rounds after the opening</span>
          </div>
        </div>
        <div class="row">
          {shareable && (
            <ShareButton
              path={`/roundtables/${encodeURIComponent(rt.id)}`}
              title={rt.topic}
              label="this roundtable"
            />
          )}
          <a class="btn" href="/roundtables">{isHost ? "New roundtable" : "Host your own"}</a>
        </div>
      </div>
      {withdrawn && <WithdrawnBanner withdrawn={withdrawn} kind="roundtable" />}
      <p class="alert alert-info" data-testid="roundtable-ai-note">
        The experts below are AI personas: every statement and the minutes are AI-written
        {standIn
          ? " — here by Parley's offline stand-in model, which composes simple on-topic sentences"
          : ""}. Only the host's words are a person's.
      </p>
      {rt.background && (
        <section aria-labelledby="background-title">
          <h2 id="background-title" class="h3">Background</h2>
          <p dir="auto">{rt.background}</p>
        </section>
      )}
      <Panel seats={seats} />
      <RoundtableLive
        id={rt.id}
        seats={seats}
        items={transcriptItems(rt.messages, rt.interjections)}
        minutes={rt.minutes}
        status={rt.status}
        error={rt.error ?? null}
        isHost={isHost}
      />
      {moderator && (
        <WithdrawalForm
          kind="roundtable"
          id={rt.id}
          withdrawn={withdrawn}
          error={url.searchParams.get("withdrawalError")}
        />
      )}
    </>
  );
});
