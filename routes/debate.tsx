import { page } from "@/lib/fresh/mod.ts";
import { signInHref } from "@/components/SignInPrompt.tsx";
import { getSettings } from "@/lib/profile/settings.ts";
import type { HistoryItemView } from "@/components/DebateView.tsx";
import DebateLive from "@/islands/DebateLive.tsx";
import { getAgentMemory, listDebateSummaries } from "@/lib/debates/store.ts";
import { Head } from "@/lib/fresh/head.ts";
import { getProfile } from "@/lib/profile/profiles.ts";
import { TOPIC_MAX_CHARS } from "@/lib/input_limits.ts";
import { PageMeta } from "@/lib/seo/page_meta.tsx";
import { define } from "@/lib/state.ts";

interface Data {
  signedIn: boolean;
  agent: { name: string; avatar: string | null; bio: string };
  traits: string[];
  interests: string[];
  standIn: boolean;
  topic: string;
  history: HistoryItemView[];
  /** The debate archive is public: live debates offer a Share action. */
  archivePublic: boolean;
}

export const handler = define.handlers<Data>({
  async GET(ctx) {
    const { kv, llm, now } = ctx.state.services;
    const user = ctx.state.user;
    const topic = (ctx.url.searchParams.get("topic") ?? "").slice(0, TOPIC_MAX_CHARS);
    const standIn = llm?.standIn ?? false;
    if (!user) {
      return page({
        signedIn: false,
        agent: { name: "Your agent", avatar: null, bio: "" },
        traits: [],
        interests: [],
        standIn,
        topic,
        history: [],
        archivePublic: false,
      });
    }
    const [profile, memory, summaries, settings] = await Promise.all([
      getProfile(kv, user.id),
      getAgentMemory(kv, user.id),
      listDebateSummaries(kv, user.id, now()),
      getSettings(kv, user.id),
    ]);
    return page({
      signedIn: true,
      agent: {
        name: profile?.displayName ?? user.name,
        avatar: profile?.avatarUrl ?? user.image,
        bio: profile?.bio ?? "",
      },
      traits: memory?.traits ?? [],
      interests: memory?.interests ?? [],
      standIn,
      topic,
      history: summaries.map((s) => ({ ...s, createdAt: new Date(s.createdAt).toISOString() })),
      archivePublic: settings.debateArchive === "public",
    });
  },
});

/**
 * /debate: start a live debate between your agent and an AI opponent; your history. Once
 * started, the debate's own address (`/debates/:id`) is in the address bar (DebateLive).
 * Signed out there is no form to fill in vain: the page says a debate needs signing in
 * and points to the public debates.
 */
export default define.page<typeof handler>(function DebatePage({ data, url }) {
  return (
    <>
      <Head>
        <title>Debate · Parley</title>
      </Head>
      <PageMeta description="Watch your AI agent debate an AI opponent live, then read the judge's report." />
      <div class="page-head">
        <h1>Debate</h1>
        <div class="page-head-actions">
          <a class="btn" href="/debates" data-testid="public-debates-link">Public debates</a>
          <a class="btn" href="/roundtables" data-testid="roundtables-link">Host a roundtable</a>
        </div>
      </div>
      {data.signedIn
        ? (
          <DebateLive
            signedIn={data.signedIn}
            agent={data.agent}
            traits={data.traits}
            interests={data.interests}
            standIn={data.standIn}
            initialTopic={data.topic}
            history={data.history}
            archivePublic={data.archivePublic}
          />
        )
        : (
          <section
            class="card stack"
            aria-labelledby="debate-signin-title"
            data-testid="debate-signin-hint"
          >
            <h2 id="debate-signin-title">Sign in to start a debate</h2>
            <p>
              Your agent argues for you against an AI opponent, live, and every debate is kept in
              your history, so starting one needs an account.
              {data.topic && <>{" "}Your topic, “{data.topic}”, will be waiting.</>}
            </p>
            <p class="row">
              <a class="btn btn-primary" href={signInHref(url)}>Sign in to debate</a>
              <a class="btn" href="/debates">Watch public debates</a>
            </p>
          </section>
        )}
    </>
  );
});
