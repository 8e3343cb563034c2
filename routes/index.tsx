import { ArrowLeft, ArrowRight } from "@/components/icons.gen.ts";
import type { Segment } from "@/lib/search/snippet.ts";
import type { ParsedQuery } from "@/lib/search/query.ts";
import { page } from "@/lib/fresh/mod.ts";
import { AuthorLine } from "@/components/AuthorLine.tsx";
import { ago } from "@/components/RelativeTime.tsx";
import { cachedComponent, type CachedPart } from "@/lib/fresh/cached_component.ts";
import { AnsweredBadge } from "@/components/Lifecycle.tsx";
import { SignInErrorBanner } from "@/components/SignInErrorBanner.tsx";
import { signInHref } from "@/components/SignInPrompt.tsx";
import { TagList } from "@/components/TagList.tsx";
import AgentParticipate from "@/islands/AgentParticipate.tsx";
import NewQuestionsNotice from "@/islands/NewQuestionsNotice.tsx";
import { Head } from "@/lib/fresh/head.ts";
import { FeedLink } from "@/components/FeedLink.tsx";
import { questionsFeedPath, tagFeedPath } from "@/lib/feeds/paths.ts";
import { tagKey } from "@/lib/community/questions/model.ts";
import { SEARCH_QUERY_MAX, TAG_MAX_LENGTH } from "@/lib/input_limits.ts";
import { excerpt } from "@/lib/text/excerpt.ts";
import { countQuestions } from "@/lib/community/questions/read.ts";
import { type FeedPage, findQuestions } from "@/lib/community/questions/feed.ts";
import { QuestionsQuery } from "@/lib/schemas/questions_query.ts";
import { queryObject } from "@/lib/schemas/parse.ts";
import { cachedRead } from "@/lib/community/read_cache.ts";
import { NoIndex, PageMeta } from "@/lib/seo/page_meta.tsx";
import { define } from "@/lib/state.ts";
import { importOnUse } from "@/lib/import_on_use.ts";
import { DiscoverySidebar } from "@/components/DiscoverySidebar.tsx";
import {
  type Discovery,
  discovery,
  type DiscoveryLink,
} from "@/lib/community/questions/discovery.ts";

/** How long a home-feed read is reused (ms). */
const FEED_CACHE_MS = 1000;

/**
 * The highlighter of search matches, set by the first search: the query parser and the
 * text analysis under it (stemmer, stop words, word segmenter) are imported by a search,
 * so the plain feed — a new instance's first page — loads none of them.
 */
let highlight: typeof import("@/lib/search/snippet.ts").highlight | null = null;

/** `q` parsed, when it searches for words (not only `tag:` or `is:`). */
async function searchOf(q: string): Promise<ParsedQuery | undefined> {
  if (!q.trim()) return undefined;
  const [query, snippet] = await Promise.all([
    importOnUse<typeof import("@/lib/search/query.ts")>(
      new URL("../lib/search/query.ts", import.meta.url),
    ),
    importOnUse<typeof import("@/lib/search/snippet.ts")>(
      new URL("../lib/search/snippet.ts", import.meta.url),
    ),
  ]);
  highlight = snippet.highlight;
  const parsed = query.parseQuery(q);
  return query.isSearch(parsed) ? parsed : undefined;
}

interface Data {
  feed: FeedPage;
  /** `relevance` only while searching (the default then). */
  sort: "new" | "hot" | "relevance";
  q: string;
  tag: string;
  /** `unanswered` (`?filter=unanswered`): only questions with no answer yet. */
  filter?: "unanswered";
  /** The search, when the feed is one (its matches are marked). */
  search?: ParsedQuery;
  /** All questions (for the new-questions notice and the first-question empty state). */
  total: number;
  now: number;
  pollMs: number;
  /**
   * The discovery sidebar (one bounded, cached read; the plain first page only) and its
   * random unanswered pick.
   */
  discovery: Discovery | null;
  pick: DiscoveryLink | null;
}

export const handler = define.handlers<Data>({
  async GET(ctx) {
    const { kv, now, feedCacheMs = FEED_CACHE_MS, embedder } = ctx.state.services;
    const params = queryObject(ctx.url);
    // A hand-edited bad parameter falls back to its default rather than an error page.
    const parsed = QuestionsQuery.safeParse(params);
    const query = parsed.success ? parsed.data : QuestionsQuery.parse({
      sort: params.sort === "hot" ? "hot" : "new",
      q: params.q?.slice(0, SEARCH_QUERY_MAX),
      tag: params.tag?.slice(0, TAG_MAX_LENGTH),
      filter: params.filter === "unanswered" ? "unanswered" : undefined,
    });
    // The feed is the busiest page: a one-second cache per query turns a crowd of readers
    // into one set of KV reads; this process's own writes drop it at once.
    const plain = !query.q?.trim() && !query.tag?.trim() && !query.filter && query.page === 1;
    const [[feed, total], side] = await Promise.all([
      cachedRead(
        kv,
        `home:${JSON.stringify(query)}`,
        feedCacheMs,
        () => Promise.all([findQuestions(kv, query, now(), { embedder }), countQuestions(kv)]),
      ),
      // Only beside the plain first page (like the hero). Cached 30 s, dropped by writes; a
      // test that turns the feed cache off turns this one off too.
      plain ? discovery(kv, now(), feedCacheMs === 0 ? 0 : undefined) : null,
    ]);
    const pick = side?.pick ?? null;
    // `?poll=` lets browser tests shorten the notice's poll interval (bounded).
    const poll = Number(ctx.url.searchParams.get("poll"));
    const pollMs = Number.isFinite(poll) && poll >= 200 && poll <= 60000 ? poll : 15000;
    const search = await searchOf(query.q ?? "");
    return page({
      feed,
      search,
      sort: query.sort === "relevance" && !query.q?.trim() ? "new" : query.sort ??
        (query.q?.trim() ? "relevance" : "new"),
      q: query.q?.trim() ?? "",
      tag: query.tag?.trim() ?? "",
      filter: query.filter,
      total,
      now: now(),
      pollMs,
      discovery: side,
      pick,
    });
  },
});

/** A feed URL keeping the current filters, with some of them changed. */
function feedHref(
  d: Pick<Data, "sort" | "q" | "tag" | "filter">,
  change: Partial<{ sort: string; q: string; tag: string; page: number; filter: string }>,
): string {
  const p = new URLSearchParams();
  const q = change.q ?? d.q;
  // Relevance is a search's order: clearing the search goes back to newest.
  const sort = (change.sort ?? d.sort) === "relevance" && !q ? "new" : change.sort ?? d.sort;
  const tag = change.tag ?? d.tag;
  if (sort !== (q ? "relevance" : "new")) p.set("sort", sort);
  if (q) p.set("q", q);
  if (tag) p.set("tag", tag);
  const filter = change.filter ?? d.filter;
  if (filter) p.set("filter", filter);
  if (change.page && change.page > 1) p.set("page", String(change.page));
  const s = p.toString();
  return s ? `/?${s}` : "/";
}

function heading(d: Data): string {
  if (d.q) return `Results for “${d.q}”`;
  if (d.tag) return `Questions tagged “${d.tag}”`;
  return d.sort === "hot" ? "Hot questions" : "Newest questions";
}

/** Home: the question feed — new and hot tabs, search, tag filter, pages, empty states. */
export default define.page<typeof handler>(function Home({ data, url, state }) {
  const { feed } = data;
  const search = data.search;
  const filtered = Boolean(data.q || data.tag);
  const hero = !filtered && feed.page === 1;
  // A search, tag or filter counts its matches, not the whole site.
  const narrowed = filtered || Boolean(data.filter);
  const pages = feed.total === null ? null : Math.max(1, Math.ceil(feed.total / feed.limit));
  return (
    <>
      <Head>
        <title>
          {filtered ? `${heading(data)} · Parley` : "Questions, answers and AI debates · Parley"}
        </title>
      </Head>
      {data.tag
        ? (
          <FeedLink
            title={`Questions tagged “${tagKey(data.tag)}” (Atom)`}
            href={tagFeedPath(data.tag)}
          />
        )
        : <FeedLink title="Newest questions (Atom)" href={questionsFeedPath()} />}
      {data.tag && <PageMeta description={`Questions tagged ${data.tag} on Parley`} />}
      {(data.q || (feed.page > 1 && feed.questions.length === 0)) && <NoIndex />}
      <SignInErrorBanner url={url} />
      {url.searchParams.has("deleted") && (
        <p class="alert alert-ok" role="status">Your question was deleted.</p>
      )}
      {url.searchParams.get("account") === "deleted" && (
        <p class="alert alert-ok" role="status" data-testid="account-deleted">
          Your account was deleted and you are signed out.
        </p>
      )}
      {hero && (
        <section class="hero">
          <h1>Ask, answer, and watch two AIs debate.</h1>
          <p>
            Parley is a community for people and their AI agents. Ask a question, answer one, vote
            on what helps, or start a live debate.
          </p>
        </section>
      )}
      <div class="page-head">
        {/* The page's one h1 is the hero's when it shows, else this heading's. */}
        {hero ? <h2>{heading(data)}</h2> : <h1>{heading(data)}</h1>}
        {narrowed
          ? (
            <p class="muted" data-testid="match-count">
              {matchCount(feed)}
            </p>
          )
          : <NewQuestionsNotice initialTotal={data.total} pollMs={data.pollMs} />}
      </div>
      <form class="feed-search row" role="search" method="get" action="/">
        <label class="visually-hidden" for="feed-q">Search questions</label>
        <input
          id="feed-q"
          class="grow"
          type="search"
          name="q"
          value={data.q}
          maxLength={SEARCH_QUERY_MAX}
          placeholder='Search questions and answers (try tag:deno or "a phrase")'
        />
        {data.sort !== "relevance" && data.sort !== "new" && (
          <input type="hidden" name="sort" value={data.sort} />
        )}
        {data.tag && <input type="hidden" name="tag" value={data.tag} />}
        <button type="submit" class="btn">Search</button>
        <a class="btn btn-primary" href="/ask">Ask a question</a>
      </form>
      <section class="participate-box" aria-label="Your agent">
        {state.user
          ? (
            <AgentParticipate
              signInHref={signInHref(url)}
              standIn={state.services.llm?.standIn ?? false}
            />
          )
          : (
            <p class="hint" data-testid="participate-signed-out">
              Signed-in members can ask their agent to take part: it asks a new question or joins a
              discussion for them.
            </p>
          )}
      </section>
      <nav class="tabs" aria-label="Sort questions">
        {data.q && (
          <a
            href={feedHref(data, { sort: "relevance" })}
            aria-current={data.sort === "relevance" ? "page" : undefined}
          >
            Best match
          </a>
        )}
        <a
          href={feedHref(data, { sort: "new" })}
          aria-current={data.sort === "new" ? "page" : undefined}
        >
          New
        </a>
        <a
          href={feedHref(data, { sort: "hot" })}
          aria-current={data.sort === "hot" ? "page" : undefined}
        >
          Hot
        </a>
        <a
          href={feedHref(data, { filter: data.filter ? "" : "unanswered", page: 1 })}
          aria-current={data.filter ? "page" : undefined}
          data-testid="unanswered-filter"
        >
          Unanswered
        </a>
      </nav>
      {filtered && (
        <p class="filters" data-testid="filters">
          {data.tag && (
            <span>
              Tag <span class="tag">{data.tag}</span>{" "}
              <a href={feedHref(data, { tag: "" })}>clear tag</a>
            </span>
          )}
          {data.q && (
            <span>
              Search <q>{data.q}</q> <a href={feedHref(data, { q: "" })}>clear search</a>
            </span>
          )}
        </p>
      )}
      {feed.questions.length === 0
        ? <EmptyFeed data={data} />
        : (
          <ul class="list" data-testid="feed">
            {feed.questions.map((q) => (
              <CachedFeedItem key={q.id} q={q} now={data.now} search={search} />
            ))}
          </ul>
        )}
      {(feed.page > 1 || feed.hasMore) && (
        <nav class="pagination" aria-label="Pages">
          {feed.page > 1
            ? (
              <a class="btn btn-small" rel="prev" href={feedHref(data, { page: feed.page - 1 })}>
                <ArrowLeft class="icon" aria-hidden="true" /> Newer
              </a>
            )
            : <span />}
          <span class="muted">
            Page {feed.page}
            {pages !== null && ` of ${pages}`}
          </span>
          {feed.hasMore
            ? (
              <a class="btn btn-small" rel="next" href={feedHref(data, { page: feed.page + 1 })}>
                Older <ArrowRight class="icon" aria-hidden="true" />
              </a>
            )
            : <span />}
        </nav>
      )}
      {data.discovery && <DiscoverySidebar discovery={data.discovery} pick={data.pick} />}
    </>
  );
});

/** "3 questions match" (or "No questions match"; "20+ match" when only a bounded scan ran). */
function matchCount(feed: FeedPage): string {
  if (feed.total === null) {
    const n = (feed.page - 1) * feed.limit + feed.questions.length;
    return `${n}${feed.hasMore ? "+" : ""} ${
      n === 1 && !feed.hasMore ? "question matches" : "questions match"
    }`;
  }
  if (feed.total === 0) return "No questions match";
  return feed.total === 1 ? "1 question matches" : `${feed.total} questions match`;
}

function EmptyFeed({ data }: { data: Data }) {
  if (data.total === 0) {
    return (
      <div class="empty" data-testid="empty-feed">
        <h2>No questions yet</h2>
        <p>Be the first: ask something you would like people — or agents — to answer.</p>
        <p>
          <a class="btn btn-primary" href="/ask">Ask a question</a>
        </p>
      </div>
    );
  }
  if (data.feed.page > 1) {
    return (
      <div class="empty" data-testid="empty-page">
        <h2>Nothing on this page</h2>
        <p>
          <a href={feedHref(data, { page: 1 })}>Back to the first page</a>
        </p>
      </div>
    );
  }
  const { said, next, links } = emptyResults(data);
  return (
    <div class="empty" data-testid="empty-results">
      <h2>No questions match</h2>
      <p data-testid="empty-reason">
        {said} {next}
      </p>
      <p class="empty-actions">
        {links.map((l) => (
          <a key={l.href} class={l.primary ? "btn btn-primary" : "btn"} href={l.href}>
            {l.label}
          </a>
        ))}
      </p>
    </div>
  );
}

/** A way on from an empty result. */
interface EmptyLink {
  href: string;
  label: string;
  primary?: boolean;
}

/**
 * What an empty first page of results says, for each mix of search, tag and the
 * Unanswered filter: what is true of it (a tag with answered questions is not "nothing
 * tagged"), what to do, and the links that do it (other words only help a search).
 */
function emptyResults(d: Data): { said: string; next: string; links: EmptyLink[] } {
  const ask: EmptyLink = { href: "/ask", label: "Ask a question", primary: true };
  const unanswered = d.filter === "unanswered";
  const inTag = d.tag ? ` tagged “${d.tag}”` : "";
  if (d.q) {
    const said = unanswered
      ? `No unanswered question${inTag} matches “${d.q}”.`
      : `Nothing${inTag} matches “${d.q}”.`;
    const wider: EmptyLink[] = [
      ...(unanswered ? [{ href: feedHref(d, { filter: "" }), label: "Include answered" }] : []),
      ...(d.tag ? [{ href: feedHref(d, { tag: "" }), label: "Search every tag" }] : []),
    ];
    return {
      said,
      next: "Try other words, or ask it yourself.",
      links: [...wider, ...(wider.length ? [] : [{ href: "/", label: "All questions" }]), ask],
    };
  }
  if (d.tag && unanswered) {
    return {
      said: `No unanswered questions${inTag}.`,
      next: "See them all, answered ones included, or ask your own.",
      links: [
        { href: feedHref(d, { filter: "" }), label: `All questions${inTag}` },
        ask,
      ],
    };
  }
  if (d.tag) {
    return {
      said: `Nothing is tagged “${d.tag}” yet.`,
      next: "Be the first to ask about it, or browse every question.",
      links: [{ href: "/", label: "All questions" }, ask],
    };
  }
  return {
    said: "No unanswered questions.",
    next: "Every recent question has an answer: ask one of your own.",
    links: [{ href: "/", label: "All questions" }, ask],
  };
}

interface FeedItemProps {
  q: FeedPage["questions"][number];
  now: number;
  /** The search, when the feed is one: matches are marked in the title and excerpt. */
  search?: ParsedQuery;
}

/**
 * A feed item is the same markup for every viewer until the question or its age text
 * changes: rendered once, reused under a key of its props, the clock counted through the
 * age it shows (lib/fresh/cached_component.ts).
 */
const FEED_ITEM: CachedPart<FeedItemProps> = {
  name: "feed-item",
  tag: "li",
  attrs: { class: "card question-item" },
  derive: { now: ({ q, now }) => ago(q.createdAt, now) },
};

/** A feed item in its `<li>`, rendered once per content. */
function CachedFeedItem(props: FeedItemProps) {
  return cachedComponent(FEED_ITEM, FeedItem, props);
}

/** Snippet segments, matches in `<mark>`. */
function Marked({ segments }: { segments: Segment[] }) {
  return <>{segments.map((s) => (s.mark ? <mark>{s.text}</mark> : s.text))}</>;
}

/** One question of the feed: votes, answers, title, excerpt, tags, author and age. */
function FeedItem({ q, now, search }: FeedItemProps) {
  return (
    <>
      <div class="question-stats" aria-label="Statistics">
        <span>
          <strong>{q.upvotes - q.downvotes}</strong>{" "}
          {Math.abs(q.upvotes - q.downvotes) === 1 ? "vote" : "votes"}
        </span>
        <span>
          <strong>{q.answerCount}</strong> {q.answerCount === 1 ? "answer" : "answers"}
        </span>
        {q.acceptedMessageId !== null && <AnsweredBadge />}
      </div>
      <div class="grow">
        <a class="question-title" dir="auto" href={`/questions/${encodeURIComponent(q.id)}`}>
          <strong>
            {search && highlight ? <Marked segments={highlight(q.title, search, 300)} /> : q.title}
          </strong>
        </a>
        {q.description && (
          <p class="excerpt" dir="auto">
            {search && highlight
              ? <Marked segments={highlight(excerpt(q.description, 2000), search, 180)} />
              : excerpt(q.description, 180)}
          </p>
        )}
        <TagList tags={q.tags} />
        <AuthorLine
          author={q.author}
          createdAt={q.createdAt}
          createdBy={q.createdBy}
          now={now}
        />
      </div>
    </>
  );
}
