import { HttpError, page } from "@/lib/fresh/mod.ts";
import ExpertPanel from "@/islands/ExpertPanel.tsx";
import { expertById, EXPERTS, publicExpert } from "@/lib/panel/experts.ts";
import { AuthorLine } from "@/components/AuthorLine.tsx";
import { ago } from "@/components/RelativeTime.tsx";
import { cachedElement } from "@/lib/fresh/html_cache.ts";
import { AcceptedMark, AnswerSort, EditedNote } from "@/components/Lifecycle.tsx";
import { Markdown } from "@/components/Markdown.tsx";
import { signInHref, SignInPrompt } from "@/components/SignInPrompt.tsx";
import { TagList } from "@/components/TagList.tsx";
import { VoteAndFavorite } from "@/components/VoteAndFavorite.tsx";
import AgentParticipate from "@/islands/AgentParticipate.tsx";
import MessageForm from "@/islands/MessageForm.tsx";
import PostActions from "@/islands/PostActions.tsx";
import { viewerOf } from "@/lib/http/auth.ts";
import { Head } from "@/lib/fresh/head.ts";
import { excerpt } from "@/lib/markdown.ts";
import { CONTENT_MAX } from "@/lib/shared.ts";
import type { MessageViewBase as MessageView } from "@/lib/community/messages/model.ts";
import {
  readThreadPage,
  REPLIES_PER_ANSWER,
  type ViewedThreadPage as QuestionThreadPage,
} from "@/lib/community/thread.ts";
import { ThreadQuery } from "@/lib/schemas/community.ts";
import { queryObject } from "@/lib/schemas/parse.ts";
import type { VoteType } from "@/lib/community/votes.ts";
import { define } from "@/lib/state.ts";
import { HiddenBanner } from "@/components/HiddenBanner.tsx";
import { FlagAction } from "@/components/PostTools.tsx";
import FollowToggle from "@/islands/FollowToggle.tsx";
import QuestionLive from "@/islands/QuestionLive.tsx";
import ShareButton from "@/islands/ShareButton.tsx";
import { NO_VIEWER_STATE, questionPageViewerState } from "@/lib/notifications/page.ts";

interface Data {
  /** The thread page as this viewer may see it (no voter lists: the page shows none). */
  question: QuestionThreadPage;
  /** The viewer's votes and favorites, by target id (empty when signed out). */
  votes: Record<string, VoteType>;
  favorites: Record<string, boolean>;
  now: number;
  /** The viewer may delete any post (DESIGN.md §9 moderators). */
  moderator: boolean;
  /** Follow state and hidden posts (issue 12). */
  extras: { following: boolean; hidden: string[] };
}

/** Deepest visual nesting of replies; deeper replies line up at this depth. */
const MAX_DEPTH = 4;

/**
 * The data path (issue 13): the thread page comes from the one-second shared read cache
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
 * | thread, cache miss: 2 round trips | 11: `getMany` record + 5 counters + answer-order marker ‖ `list` answer index (score-ordered rows for `sort=votes`); then 9 `getMany` (30 records, 60 vote counters) | same 11 |
 * | thread, cache hit (within 1 s, no write through this process) | 0 | 0 |
 * | viewer state, beside the thread | 0 | 3: `getMany` follow + question vote/favorite ‖ `list` own votes ‖ `list` own favorites |
 * | total | 11 (and signed-out pages are page-cached) | 16 miss, 5 hit |
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
    return page({
      question,
      votes: state.votes,
      favorites: state.favorites,
      now: now(),
      moderator: !!(await viewer)?.moderator,
      extras: { following: state.following, hidden: question.hidden },
    });
  },
});

/** Replies grouped under the message they answer; top-level answers first. */
function threadOf(messages: MessageView[]) {
  const byId = new Map(messages.map((m) => [m.id, m]));
  const children = new Map<string, MessageView[]>();
  const roots: MessageView[] = [];
  for (const m of messages) {
    if (m.replyTo && byId.has(m.replyTo)) {
      const list = children.get(m.replyTo) ?? [];
      list.push(m);
      children.set(m.replyTo, list);
    } else {
      roots.push(m);
    }
  }
  return { roots, children, byId };
}

/** "2 answers · 3 replies": top-level answers and replies to them, counted apart. */
function answersHeading(answers: number, replies: number): string {
  if (answers === 0) return "No answers yet";
  const a = answers === 1 ? "1 answer" : `${answers} answers`;
  if (replies <= 0) return a;
  return `${a} · ${replies === 1 ? "1 reply" : `${replies} replies`}`;
}

/** The URL of thread page `page` (or one answer's reply page), keeping nothing else. */
function threadHref(url: URL, params: Record<string, string>): string {
  const sort = url.searchParams.get("sort");
  if (sort === "newest" || sort === "oldest") params = { sort, ...params };
  const qs = new URLSearchParams(params).toString();
  return `${url.pathname}${qs ? `?${qs}` : ""}#answers-heading`;
}

/** "Show all N replies" under an answer whose replies did not all fit on the page. */
function MoreReplies(
  { q, answerId, url }: { q: QuestionThreadPage; answerId: string; url: URL },
) {
  const total = q.replyCounts.find((r) => r.answerId === answerId)?.replies ?? 0;
  const single = url.searchParams.get("answer") === answerId;
  const replyPage = Number(url.searchParams.get("replyPage") ?? 1) || 1;
  if (!single) {
    if (total <= REPLIES_PER_ANSWER) return null;
    return (
      <p class="hint more-replies">
        Showing {REPLIES_PER_ANSWER} of {total} replies.{" "}
        <a href={threadHref(url, { answer: answerId, replyPage: "2" })}>Show more replies</a>
      </p>
    );
  }
  const pages = Math.max(1, Math.ceil(total / REPLIES_PER_ANSWER));
  return (
    <nav class="pagination" aria-label="Reply pages">
      {replyPage > 1 && (
        <a
          href={threadHref(url, { answer: answerId, replyPage: String(replyPage - 1) })}
          rel="prev"
        >
          Previous replies
        </a>
      )}
      <span>Replies page {replyPage} of {pages}</span>
      {replyPage < pages && (
        <a
          href={threadHref(url, { answer: answerId, replyPage: String(replyPage + 1) })}
          rel="next"
        >
          More replies
        </a>
      )}
      <a href={threadHref(url, {})}>Back to all answers</a>
    </nav>
  );
}

/** Page links of the answers: previous, numbers (a window around this page), next. */
function ThreadPager({ q, url }: { q: QuestionThreadPage; url: URL }) {
  if (q.pageCount <= 1 || url.searchParams.has("answer")) return null;
  const href = (p: number) => threadHref(url, p === 1 ? {} : { page: String(p) });
  const numbers: number[] = [];
  for (let p = 1; p <= q.pageCount; p++) {
    if (p === 1 || p === q.pageCount || Math.abs(p - q.page) <= 2) numbers.push(p);
  }
  return (
    <nav class="pagination" aria-label="Answer pages" data-testid="thread-pager">
      {q.page > 1 && <a href={href(Math.min(q.page - 1, q.pageCount))} rel="prev">Previous</a>}
      <ol class="pagination-pages">
        {numbers.map((p, i) => (
          <li key={p}>
            {i > 0 && numbers[i - 1] !== p - 1 && <span aria-hidden="true">…</span>}
            {p === q.page
              ? <a href={href(p)} aria-current="page">{p}</a>
              : <a href={href(p)} aria-label={`Page ${p}`}>{p}</a>}
          </li>
        ))}
      </ol>
      {q.page < q.pageCount && <a href={href(q.page + 1)} rel="next">Next</a>}
    </nav>
  );
}

/** The notice after an edit, a delete or an accept on this page. */
function LifecycleNotice({ url }: { url: URL }) {
  const p = url.searchParams;
  const text = p.has("edited")
    ? "Your edit was saved."
    : p.has("removed")
    ? "The post was deleted."
    : p.has("accepted")
    ? "The accepted answer was updated."
    : p.has("saved")
    ? "Your question was updated."
    : null;
  return text ? <p class="alert alert-ok" role="status">{text}</p> : null;
}

/** A message's author line, reply hint, hidden banner, text and edit note (no islands). */
function MessageBody(
  { m, questionId, parent, deep, hidden, now }: {
    m: MessageView;
    questionId: string;
    parent: MessageView | undefined;
    deep: boolean;
    hidden: boolean;
    now: number;
  },
) {
  return (
    <>
      <AuthorLine
        author={m.author}
        createdAt={m.createdAt}
        createdBy={m.createdBy}
        now={now}
        verb={parent ? "replied" : "answered"}
        via={m.via}
        standIn={m.standIn}
        expertTitle={m.expertId ? expertById(m.expertId)?.title ?? "" : undefined}
        draftedWithAi={m.draftedWithAi}
      />
      {parent && deep && (
        <p class="hint">
          In reply to <a href={`#${encodeURIComponent(parent.id)}`}>{parent.author.name}</a>
        </p>
      )}
      {hidden && <HiddenBanner what="answer" />}
      <Markdown text={m.content} idPrefix={`${m.id}-`} />
      <EditedNote questionId={questionId} messageId={m.id} editedAt={m.editedAt} now={now} />
    </>
  );
}

/** A question with its threaded answers, vote and favorite buttons, and answer forms. */
export default define.page<typeof handler>(function QuestionPage({ data, state, url }) {
  const { question: q, now } = data;
  const signedIn = Boolean(state.user);
  const signIn = signedIn ? null : signInHref(url);
  const { roots, children, byId } = threadOf(q.messages);
  const posted = url.searchParams.get("posted");
  const asked = url.searchParams.get("asked");

  const renderMessage = (m: MessageView, depth: number) => {
    const replies = children.get(m.id) ?? [];
    const parent = m.replyTo ? byId.get(m.replyTo) : undefined;
    const label = `${m.author.name}'s ${parent ? "reply" : "answer"}`;
    const own = state.user?.id === m.author.id;
    const accepted = !parent && q.acceptedMessageId === m.id;
    if (m.deleted) {
      return (
        <li key={m.id} class="message" id={m.id} data-testid="message">
          <article class="card message-card deleted" aria-label="Deleted post">
            <p class="muted">[deleted]</p>
          </article>
          {replies.length > 0 && (
            depth < MAX_DEPTH
              ? <ol class="replies">{replies.map((r) => renderMessage(r, depth + 1))}</ol>
              : replies.map((r) => renderMessage(r, depth))
          )}
        </li>
      );
    }
    return (
      <li key={m.id} class="message" id={m.id} data-testid="message">
        <article
          class={`card message-card${posted === m.id ? " just-posted" : ""}${
            accepted ? " accepted" : ""
          }`}
        >
          {accepted && <AcceptedMark />}
          {
            // Who, when and what: the same markup for every viewer until the message or its
            // age text changes, so rendered once and reused by key (lib/fresh/html_cache.ts).
            cachedElement(
              "div",
              { class: "message-body" },
              JSON.stringify([
                "message-body",
                q.id,
                parent ? [parent.id, parent.author.name] : null,
                depth >= MAX_DEPTH,
                data.extras.hidden.includes(m.id),
                ago(m.createdAt, now),
                m.editedAt === null ? "" : ago(m.editedAt, now),
                m,
              ]),
              () => (
                <MessageBody
                  m={m}
                  questionId={q.id}
                  parent={parent}
                  deep={depth >= MAX_DEPTH}
                  hidden={data.extras.hidden.includes(m.id)}
                  now={now}
                />
              ),
            )
          }
          <div class="row actions">
            <VoteAndFavorite
              targetType="message"
              targetId={m.id}
              upvotes={m.upvotes}
              downvotes={m.downvotes}
              vote={data.votes[m.id] ?? null}
              favorited={data.favorites[m.id] ?? false}
              signInHref={signIn}
              label={label}
              own={own}
            />
            {signedIn && (
              <MessageForm
                questionId={q.id}
                replyTo={m.id}
                replyToName={m.author.name}
                maxLength={CONTENT_MAX}
              />
            )}
            <ShareButton questionId={q.id} messageId={m.id} title={q.title} label={label} />
            <FlagAction
              viewerId={state.user?.id ?? null}
              authorId={m.author.id}
              targetType="message"
              targetId={m.id}
              label={label}
            />
          </div>
          {(own || data.moderator || (!parent && state.user?.id === q.author.id)) && (
            <PostActions
              kind="message"
              id={m.id}
              questionId={q.id}
              label={own ? `your ${parent ? "reply" : "answer"}` : label}
              content={own ? m.content : undefined}
              maxLength={CONTENT_MAX}
              canEdit={own}
              canDelete={own || data.moderator}
              accepted={!parent && state.user?.id === q.author.id ? accepted : undefined}
            />
          )}
        </article>
        {replies.length > 0 && (
          depth < MAX_DEPTH
            ? <ol class="replies">{replies.map((r) => renderMessage(r, depth + 1))}</ol>
            : replies.map((r) => renderMessage(r, depth))
        )}
        {depth === 1 && <MoreReplies q={q} answerId={m.id} url={url} />}
      </li>
    );
  };

  return (
    <>
      <Head>
        <title>{q.title} · Parley</title>
        <meta name="description" content={excerpt(q.description || q.title, 160)} />
      </Head>
      {asked && <p class="alert alert-ok" role="status">Your question is live.</p>}
      {posted && byId.has(posted) && (
        <p class="alert alert-ok" role="status">Your message was posted.</p>
      )}
      <LifecycleNotice url={url} />
      <article class="card question" data-testid="question">
        {q.deletedAt !== undefined && (
          <p class="alert" role="status" data-testid="deleted-banner">
            This question was deleted: only its author and moderators can still open it.
          </p>
        )}
        <h1 class="question-heading">{q.title}</h1>
        <AuthorLine
          author={q.author}
          createdAt={q.createdAt}
          createdBy={q.createdBy}
          now={now}
          standIn={q.standIn}
        />
        <TagList tags={q.tags} />
        {data.extras.hidden.includes(q.id) && <HiddenBanner what="question" />}
        {q.description && <Markdown text={q.description} idPrefix="q-" />}
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

      <section class="answers" aria-labelledby="answers-heading">
        <h2 id="answers-heading">
          {answersHeading(q.answerCount, q.messageCount - q.answerCount)}
        </h2>
        {q.answerCount > 1 && <AnswerSort url={url} sort={q.sort} />}
        {roots.length === 0
          ? (
            <p class="empty">
              {q.answerCount === 0
                ? "Nobody has answered yet. Know something? Be the first."
                : "No answers on this page."}
            </p>
          )
          : <ol class="thread">{roots.map((m) => renderMessage(m, 1))}</ol>}
        <ThreadPager q={q} url={url} />
      </section>
      <ExpertPanel questionId={q.id} experts={EXPERTS.map(publicExpert)} signedIn={signedIn} />

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
