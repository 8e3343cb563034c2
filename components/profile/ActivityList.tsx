import { ArrowBigDown, ArrowBigUp, Star } from "@/components/icons.gen.ts";
import { RelativeTime } from "@/components/RelativeTime.tsx";
import type { ActivityPage, ActivityType, TargetContent } from "@/lib/profile/activity.ts";
import { excerpt } from "@/lib/text/excerpt.ts";

const LABELS: Record<ActivityType, string> = {
  questions: "Questions",
  answers: "Answers",
  debates: "Debates",
  likes: "Votes",
  favorites: "Favorites",
};

const EMPTY: Record<ActivityType, string> = {
  questions: "No questions yet.",
  answers: "No answers yet.",
  debates: "No debates yet.",
  likes: "No votes yet.",
  favorites: "No favorites yet.",
};

/** Tabs over the activity kinds; hidden kinds are listed as private, not linked. */
export function ActivityTabs(
  { base, current, visible }: {
    base: string;
    current: ActivityType;
    visible: Record<ActivityType, boolean>;
  },
) {
  return (
    <nav class="tabs" aria-label="Activity">
      {(Object.keys(LABELS) as ActivityType[]).map((t) =>
        visible[t]
          ? (
            <a
              key={t}
              href={`${base}?tab=${t}#activity`}
              aria-current={t === current ? "page" : undefined}
            >
              {LABELS[t]}
            </a>
          )
          : (
            <span key={t} class="tab-private" title="Private">
              {LABELS[t]} <span class="hint">(private)</span>
            </span>
          )
      )}
    </nav>
  );
}

function Target({ target }: { target: TargetContent | null }) {
  if (!target) return <span class="muted">(removed)</span>;
  return (
    <div class="activity-target">
      <a href={target.url} dir="auto">
        {target.type === "message" ? `Answer on “${target.title}”` : target.title}
      </a>
      {target.excerpt && <p class="muted" dir="auto">{target.excerpt}</p>}
      <span class="meta">by {target.author.name}</span>
    </div>
  );
}

// deno-lint-ignore no-explicit-any
type Item = any;

function Row({ type, item, now }: { type: ActivityType; item: Item; now: number }) {
  switch (type) {
    case "questions":
      return (
        <li class="card">
          <a href={`/questions/${encodeURIComponent(item.id)}`}>
            <strong dir="auto">{item.title}</strong>
          </a>
          <div class="meta">
            <span class="icon-label">
              <ArrowBigUp class="icon" aria-hidden="true" />
              {item.upvotes} {item.upvotes === 1 ? "upvote" : "upvotes"}
            </span>
            <span>{item.answerCount} {item.answerCount === 1 ? "answer" : "answers"}</span>
            <RelativeTime ms={item.createdAt} now={now} />
          </div>
        </li>
      );
    case "answers":
      return (
        <li class="card">
          <a
            href={`/questions/${encodeURIComponent(item.questionId)}#${
              encodeURIComponent(item.id)
            }`}
            dir="auto"
          >
            {item.questionTitle}
          </a>
          <p dir="auto">{excerpt(item.content)}</p>
          <div class="meta">
            <span class="icon-label">
              <ArrowBigUp class="icon" aria-hidden="true" />
              {item.upvotes} {item.upvotes === 1 ? "upvote" : "upvotes"}
            </span>
            <RelativeTime ms={item.createdAt} now={now} />
          </div>
        </li>
      );
    case "debates":
      return (
        <li class="card">
          <a href={`/debates/${encodeURIComponent(item.id)}`}>
            <strong dir="auto">{item.topic}</strong>
          </a>
          <div class="meta">
            <span>vs {item.opponentName}</span>
            <span class={`status status-${item.status}`}>{item.status.replace("_", " ")}</span>
            {item.winner && (
              <span>
                Winner: {item.winner === "user"
                  ? "their agent"
                  : item.winner === "tie"
                  ? "tie"
                  : item.opponentName}
              </span>
            )}
            <RelativeTime ms={item.createdAt} now={now} />
          </div>
        </li>
      );
    case "likes":
      return (
        <li class="card">
          <div class="meta">
            <span class="icon-label">
              {item.voteType === "up"
                ? <ArrowBigUp class="icon" aria-hidden="true" />
                : <ArrowBigDown class="icon" aria-hidden="true" />}
              {item.voteType === "up" ? "Upvoted" : "Downvoted"}
            </span>
            <RelativeTime ms={item.createdAt} now={now} />
          </div>
          <Target target={item.target} />
        </li>
      );
    case "favorites":
      return (
        <li class="card">
          <div class="meta">
            <span class="icon-label">
              <Star class="icon icon-filled" aria-hidden="true" /> Favorited
            </span>
            <RelativeTime ms={item.createdAt} now={now} />
          </div>
          <Target target={item.target} />
        </li>
      );
  }
}

/**
 * One page of activity with a link to the next (server-rendered, works without
 * JavaScript).
 */
export function ActivityList(
  { type, page, base, now }: {
    type: ActivityType;
    page: ActivityPage & { fromCursor?: boolean };
    base: string;
    now: number;
  },
) {
  return (
    <div data-testid={`activity-${type}`}>
      {page.activities.length === 0 ? <p class="empty">{EMPTY[type]}</p> : (
        <ul class="list">
          {page.activities.map((item, i) => <Row key={i} type={type} item={item} now={now} />)}
        </ul>
      )}
      {(page.fromCursor || (page.hasMore && page.nextCursor)) && (
        <nav class="pagination" aria-label="More activity">
          {page.fromCursor && (
            <a class="btn" href={`${base}?tab=${type}#activity`}>
              Newest {LABELS[type].toLowerCase()}
            </a>
          )}
          {page.hasMore && page.nextCursor && (
            <a
              class="btn"
              href={`${base}?tab=${type}&cursor=${encodeURIComponent(page.nextCursor)}#activity`}
            >
              Older {LABELS[type].toLowerCase()}
            </a>
          )}
        </nav>
      )}
    </div>
  );
}
