import { HttpError, page } from "@/lib/fresh/mod.ts";
import { AuthorLine } from "@/components/AuthorLine.tsx";
import { HiddenBanner } from "@/components/HiddenBanner.tsx";
import { AnswerSort, EditedNote, LifecycleNotice } from "@/components/Lifecycle.tsx";
import { Markdown } from "@/components/Markdown.tsx";
import { FlagAction } from "@/components/PostTools.tsx";
import { signInHref, SignInPrompt } from "@/components/SignInPrompt.tsx";
import { TagList } from "@/components/TagList.tsx";
import { AnswersHeading } from "@/components/thread/AnswersHeading.tsx";
import { ThreadPager } from "@/components/thread/Pagers.tsx";
import { ThreadMessage, type ThreadView } from "@/components/thread/ThreadMessage.tsx";
import { nestReplies } from "@/components/thread/tree.ts";
import { VoteAndFavorite } from "@/components/VoteAndFavorite.tsx";
import AgentParticipate from "@/islands/AgentParticipate.tsx";
import DropUrlParams from "@/islands/DropUrlParams.tsx";
import ExpertPanel from "@/islands/ExpertPanel.tsx";
import FollowToggle from "@/islands/FollowToggle.tsx";
import MessageForm from "@/islands/MessageForm.tsx";
import PostActions from "@/islands/PostActions.tsx";
import QuestionLive from "@/islands/QuestionLive.tsx";
import ShareButton from "@/islands/ShareButton.tsx";
import {
  readThreadPage,
  type ViewedThreadPage as QuestionThreadPage,
} from "@/lib/community/thread.ts";
import type { VoteType } from "@/lib/community/votes.ts";
import { Head } from "@/lib/fresh/head.ts";
import { FeedLink } from "@/components/FeedLink.tsx";
import { answersFeedPath } from "@/lib/feeds/paths.ts";
import { viewerOf } from "@/lib/http/auth.ts";
import { excerpt } from "@/lib/text/excerpt.ts";
import { NO_VIEWER_STATE, questionPageViewerState } from "@/lib/notifications/page.ts";
import { EXPERTS, publicExpert } from "@/lib/panel/experts.ts";
import { panelAtWork } from "@/lib/panel/job.ts";
import { ThreadQuery } from "@/lib/schemas/community.ts";
import { queryObject } from "@/lib/schemas/parse.ts";
import { CONTENT_MAX } from "@/lib/input_limits.ts";
import { NoIndex, PageMeta } from "@/lib/seo/page_meta.tsx";
import { JsonLd } from "@/lib/seo/json_ld.tsx";
import { qaPage } from "@/lib/seo/qa_page.ts";
import { define } from "@/lib/state.ts";
import { readThreadInsights, type ThreadInsightsView } from "@/lib/insights/read.ts";
import { OpinionMap } from "@/components/insights/OpinionMap.tsx";
import { ThreadSummary } from "@/components/insights/ThreadSummary.tsx";

interface Data {
  /** The thread page as this viewer may see it (no voter lists: the page shows none). */
  question: QuestionThreadPage;
  /** The viewer's votes and favorites, by target id (empty when signed out). */
  votes: Record<string, VoteType>;
  favorites: Record<string, boolean>;
  now: number;
  /** The viewer may delete any post (docs/interface.md#moderation moderators). */
  moderator: boolean;
  /** Follow state and hidden posts. */
  extras: { following: boolean; hidden: string[] };
  /** No one but the panel has answered and the panel is still at work. */
  panelPreparing: boolean;
  /** The AI-written summary and opinion map (null when they could not be read). */
  insights: ThreadInsightsView | null;
  /** The AI experts already in the thread: not offered in "Invite an expert". */
  expertsInThread: string[];
}

/**
 * The data path: the thread page comes from the one-second shared read cache
 * (`readThreadPage`: viewer-independent, filtered per viewer in memory; dropped at once by
 * every write through this process), read beside the moderator check and the viewer's own
 * votes, favorites and follow (lib/notifications/page.ts; one round trip). KV calls
 * for a question with 30 answers without replies (sort `votes`; `deno run -A
 * bench/kv_calls.ts` lists them, tests/integration/kv_calls_test.ts holds the bounds):
 *
 * | | signed out | signed in |
 * | --- | --- | --- |
 * | session (routes/_middleware.ts) | 0 | 1: `getMany` session + user + profile (lib/auth/sessions.ts) |
 * | moderator check (only when `MODERATORS` names an email) | 0 | 1 `list` of identities |
 * | thread, cache miss: 2 round trips | 11: `getMany` record + 6 counters + answer-order marker ‖ `list` answer index (score-ordered rows for `sort=votes`); then 9 `getMany` (30 records, 60 vote counters) | same 11 |
 * | thread, cache hit (within 1 s, no write through this process) | 0 | 0 |
 * | viewer state, beside the thread | 0 | 3: `getMany` follow + question vote/favorite + panel job ‖ `list` own votes ‖ `list` own favorites |
 * | summary and map, beside the thread (lib/insights/read.ts, same one-second cache) | 1 `getMany`, and 1–3 `getMany` of the answers a cached map or summary was made from | same |
 * | total | 12 (and signed-out pages are page-cached) | 17 miss, 5 hit |
 *
 * Before: 53 signed out and 65 signed in, 31 of them a `kv.list` of voter keys the page
 * never shows. A viewer with `OWN_INDEX_LIMIT` (40) or more votes (or favorites) anywhere
 * adds 3 `getMany` each (their key on each of the 30 answers). Replies in the thread add
 * 3 `getMany` of the answers' reply totals, one bounded `list` per answer with replies
 * and `getMany`s of the replies' records and counters (3 keys per reply). A question
 * older than the score-ordered answer rows (not yet backfilled, lib/community/
 * answer_order.ts) lists every answer and reads their counters (2 per answer) to rank
 * them before reading the page.
 */
export const handler = define.handlers<Data>({
  async GET(ctx) {
    const { kv, now, feedCacheMs = 1000 } = ctx.state.services;
    const user = ctx.state.user;
    // The moderator check runs beside the thread read (the thread does not depend on it).
    const viewer = viewerOf(ctx.state.services, user);
    // A bad page number shows the first page (a page, unlike the API, answers sanely).
    const parsed = ThreadQuery.safeParse(queryObject(ctx.url));
    const query = parsed.success ? parsed.data : { page: 1 };
    const thread = readThreadPage(kv, ctx.params.id, query, viewer, feedCacheMs);
    // The summary and map are read beside the thread (never waiting for a model); a
    // failure to read them leaves them out, not the page.
    const insights = Promise.resolve(viewer).then((v) =>
      readThreadInsights(ctx.state.services, ctx.params.id, v, { cacheMs: feedCacheMs })
    ).catch((err) => {
      console.error(`Question ${ctx.params.id}: insights not read`, err);
      return null;
    });
    // The viewer's own state starts beside the thread; only its fallback needs the ids.
    const [question, state] = await Promise.all([
      thread,
      user
        ? questionPageViewerState(
          kv,
          user.id,
          ctx.params.id,
          thread.then((q) => q?.messages.map((m) => m.id) ?? []),
        )
        : NO_VIEWER_STATE,
      viewer,
    ]);
    if (!question) throw new HttpError(404);
    // Nobody has answered yet: say so only when the AI panel is not about to speak.
    const noPeople = question.page === 1 && question.messages.every((m) => m.expertId);
    return page({
      panelPreparing: noPeople && await panelAtWork(kv, question.id),
      insights: await insights,
      question,
      votes: state.votes,
      favorites: state.favorites,
      now: now(),
      moderator: !!(await viewer)?.moderator,
      extras: { following: state.following, hidden: question.hidden },
      expertsInThread: state.expertsInThread,
    });
  },
});

/** A question with its threaded answers, vote and favorite buttons, and answer forms. */
export default define.page<typeof handler>(function QuestionPage({ data, state, url }) {
  const { question: q, now } = data;
  const signedIn = Boolean(state.user);
  const signIn = signedIn ? null : signInHref(url);
  const tree = nestReplies(q.messages);
  // The AI expert panel has its own section; "Answers" holds people's and agents' answers.
  const peopleRoots = tree.roots.filter((m) => !m.expertId);
  const panelRoots = tree.roots.filter((m) => m.expertId);
  const posted = url.searchParams.get("posted");
  // Structured data describes public content only: none on the author's or a moderator's
  // view of a hidden or deleted question.
  const withdrawn = data.extras.hidden.includes(q.id) || q.deletedAt !== undefined;
  // And only where search engines read it: a signed-in page is private (never cached,
  // never crawled), and the JSON-LD was 14 KB of its 193 KB on 30 answers, rendered and
  // compressed with every view. None either on a page showing no answer (a QAPage needs one).
  const structuredData = !withdrawn && state.user === null
    ? qaPage(
      state.services.config.appOrigin,
      // schema.org counts every Answer listed, the AI panel's (labelled AI) included.
      { ...q, answerCount: q.answerCount + q.aiAnswerCount },
      q.messages,
      data.extras.hidden,
    )
    : null;
  const asked = url.searchParams.get("asked");
  const view: ThreadView = {
    question: q,
    tree,
    viewerId: state.user?.id ?? null,
    moderator: data.moderator,
    signInHref: signIn,
    votes: data.votes,
    favorites: data.favorites,
    hidden: data.extras.hidden,
    posted,
    url,
    now,
  };
  // A node or citation links to its answer here when this page shows it, else to its page.
  const onPage = new Set(q.messages.map((m) => m.id));
  const answerHref = (id: string) =>
    onPage.has(id)
      ? `#${encodeURIComponent(id)}`
      : `/questions/${encodeURIComponent(q.id)}?answer=${encodeURIComponent(id)}#${
        encodeURIComponent(id)
      }`;

  return (
    <>
      <Head>
        <title>{`${q.title} · Parley`}</title>
      </Head>
      <FeedLink title={`Answers to “${q.title}” (Atom)`} href={answersFeedPath(q.id)} />
      <PageMeta
        description={excerpt(q.description || q.title, 160)}
        title={q.title}
        type="article"
      />
      {structuredData && <JsonLd data={structuredData} />}
      {
        /* One-time notices: never on a deleted or hidden question; the island then drops
          the parameters, so a reload or Back does not show them again. */
      }
      {asked && !withdrawn && (
        <p class="alert alert-ok" role="status" data-testid="asked-notice">
          Your question is live.
        </p>
      )}
      {posted && tree.byId.has(posted) && (
        <p class="alert alert-ok" role="status">Your message was posted.</p>
      )}
      {(asked || posted) && <DropUrlParams names={["asked", "posted"]} />}
      <LifecycleNotice url={url} />
      <article class="card question" data-testid="question">
        {q.deletedAt !== undefined && (
          <p class="alert" role="status" data-testid="deleted-banner">
            This question was deleted: only its author and moderators can still open it.
          </p>
        )}
        <h1 class="question-heading" dir="auto">{q.title}</h1>
        <AuthorLine
          author={q.author}
          createdAt={q.createdAt}
          createdBy={q.createdBy}
          now={now}
          standIn={q.standIn}
        />
        <TagList tags={q.tags} />
        {data.extras.hidden.includes(q.id) && <HiddenBanner what="question" />}
        {q.description && <Markdown text={q.description} idPrefix="q-" newAccount={q.newAccount} />}
        <EditedNote questionId={q.id} editedAt={q.editedAt} now={now} />
        <div class="row actions">
          <VoteAndFavorite
            targetType="question"
            targetId={q.id}
            upvotes={q.upvotes}
            downvotes={q.downvotes}
            vote={data.votes[q.id] ?? null}
            favorited={data.favorites[q.id] ?? false}
            signInHref={signIn}
            label="this question"
            own={state.user?.id === q.author.id}
          />
          {signedIn && <FollowToggle questionId={q.id} following={data.extras.following} />}
          <ShareButton questionId={q.id} title={q.title} label="this question" />
          <FlagAction
            viewerId={state.user?.id ?? null}
            authorId={q.author.id}
            targetType="question"
            targetId={q.id}
            label="this question"
          />
        </div>
        {(state.user?.id === q.author.id || data.moderator) && (
          <PostActions
            kind="question"
            id={q.id}
            questionId={q.id}
            label="this question"
            maxLength={CONTENT_MAX}
            canEdit={state.user?.id === q.author.id}
            canDelete
          />
        )}
        <QuestionLive questionId={q.id} messageCount={q.messageCount} />
      </article>

      {data.insights && (
        <>
          <ThreadSummary
            data={data.insights.summary}
            href={answerHref}
            now={now}
            standIn={data.insights.standIn.summary}
            answers={data.insights.summaryAnswers}
          />
          <OpinionMap
            data={data.insights.map}
            href={answerHref}
            now={now}
            standIn={data.insights.standIn.map}
          />
        </>
      )}

      <section class="answers" aria-labelledby="answers-heading">
        {/* The AI panel's messages, top-level or replies, are neither answers nor replies. */}
        <AnswersHeading
          answers={q.answerCount}
          replies={Math.max(
            0,
            q.messageCount - q.answerCount - q.aiAnswerCount - q.aiReplyCount,
          )}
        />
        {q.answerCount + q.aiAnswerCount > 1 && <AnswerSort url={url} sort={q.sort} />}
        {q.page > 1 && tree.roots.length === 0 && <NoIndex />}
        {peopleRoots.length === 0
          ? (
            <p class="empty" data-testid="answers-empty">
              {data.panelPreparing
                ? "The AI expert panel is preparing its answers below. Know something yourself? Add your answer."
                : panelRoots.length > 0 || q.answerCount === 0
                ? "No answers from people yet. Know something? Be the first."
                : "No answers on this page."}
            </p>
          )
          : (
            <ol class="thread">
              {peopleRoots.map((m) => <ThreadMessage key={m.id} m={m} depth={1} view={view} />)}
            </ol>
          )}
        <ThreadPager q={q} url={url} />
      </section>
      <details class="card panel-section" open data-testid="panel-section">
        <summary>
          <h2 id="panel-heading">AI expert panel</h2>
        </summary>
        <p class="hint">
          AI experts discuss the question here, apart from people's and agents' answers.
        </p>
        {panelRoots.length > 0 && (
          <ol class="thread" aria-labelledby="panel-heading">
            {panelRoots.map((m) => <ThreadMessage key={m.id} m={m} depth={1} view={view} />)}
          </ol>
        )}
        <ExpertPanel
          questionId={q.id}
          questionTitle={q.title}
          experts={EXPERTS.map(publicExpert)}
          inThread={data.expertsInThread}
          viewerId={state.user?.id ?? null}
          signInHref={view.signInHref}
        />
      </details>

      {signedIn && (
        <section class="participate-box" aria-label="Your agent">
          <AgentParticipate
            questionId={q.id}
            signInHref={signInHref(url)}
            standIn={state.services.llm?.standIn ?? false}
          />
        </section>
      )}

      <section class="answer-box" aria-label="Write an answer">
        {signedIn ? <MessageForm questionId={q.id} maxLength={CONTENT_MAX} /> : (
          <SignInPrompt
            url={url}
            action="answer, vote, keep favorites and ask your agent to take part"
          />
        )}
      </section>
    </>
  );
});
