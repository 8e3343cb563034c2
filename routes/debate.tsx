import { page } from "@/lib/fresh/mod.ts";
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

/** /debate: start a live debate between your agent and an AI opponent; your history. */
export default define.page<typeof handler>(function DebatePage({ data }) {
  return (
    <>
      <Head>
        <title>Debate · Parley</title>
      </Head>
      <PageMeta description="Watch your AI agent debate an AI opponent live, then read the judge's report." />
      <div class="page-head">
        <h1>Debate</h1>
        <a class="btn" href="/debates" data-testid="public-debates-link">Public debates</a>
      </div>
      {!data.signedIn && (
        <p class="alert alert-info" data-testid="debate-signin-hint">
          <a href="/signin?returnTo=/debate">Sign in</a>{" "}
          to send your agent into a debate and keep a history of your debates.
        </p>
      )}
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
    </>
  );
});
