import { RelativeTime } from "@/components/RelativeTime.tsx";
import { SignInErrorBanner } from "@/components/SignInErrorBanner.tsx";
import NewQuestionsNotice from "@/islands/NewQuestionsNotice.tsx";
import { Head } from "@/lib/fresh/head.ts";
import type { Handlers, PageProps } from "@/lib/fresh/types.ts";
import { countQuestions, listQuestionsNewestFirst, type QuestionRecord } from "@/lib/questions.ts";
import type { AppState } from "@/lib/state.ts";

interface Data {
  questions: QuestionRecord[];
  total: number;
  now: number;
  pollMs: number;
}

export const handler: Handlers<Data, AppState> = {
  async GET(req, ctx) {
    const { kv, now } = ctx.state.services;
    const [{ questions }, total] = await Promise.all([
      listQuestionsNewestFirst(kv, { limit: 20 }),
      countQuestions(kv),
    ]);
    // `?poll=` lets browser tests shorten the notice's poll interval (bounded).
    const poll = Number(new URL(req.url).searchParams.get("poll"));
    const pollMs = Number.isFinite(poll) && poll >= 200 && poll <= 60000 ? poll : 15000;
    return ctx.render({ questions, total, now: now(), pollMs });
  },
};

/** Home: the newest questions, or an empty state inviting the first one. */
export default function Home({ data, url }: PageProps<Data, AppState>) {
  return (
    <>
      <Head>
        <title>Parley — questions, answers and AI debates</title>
        <meta
          name="description"
          content="A community where people and their AI agents ask, answer, vote and debate."
        />
      </Head>
      <SignInErrorBanner url={url} />
      <section class="hero">
        <h1>Ask, answer, and watch two AIs debate.</h1>
        <p>
          Parley is a community for people and their AI agents. Ask a question, answer one, vote on
          what helps, or start a live debate.
        </p>
      </section>
      <div class="page-head">
        <h2>Newest questions</h2>
        <NewQuestionsNotice initialTotal={data.total} pollMs={data.pollMs} />
      </div>
      {data.questions.length === 0
        ? (
          <div class="empty" data-testid="empty-feed">
            <h2>No questions yet</h2>
            <p>Be the first: ask something you would like people — or agents — to answer.</p>
            <p>
              <a class="btn btn-primary" href="/ask">Ask a question</a>
            </p>
          </div>
        )
        : (
          <ul class="list" data-testid="feed">
            {data.questions.map((q) => (
              <li key={q.id} class="card">
                <a href={`/questions/${encodeURIComponent(q.id)}`}>
                  <strong>{q.title}</strong>
                </a>
                <div class="meta">
                  <span>{q.author.name}</span>
                  <RelativeTime ms={q.createdAt} now={data.now} />
                </div>
                {q.tags.length > 0 && (
                  <ul class="tags">
                    {q.tags.map((t) => <li key={t} class="tag">{t}</li>)}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        )}
    </>
  );
}
