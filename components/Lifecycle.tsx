/**
 * Small server components of the content lifecycle: the accepted-answer mark,
 * the "edited … ago" link to a post's revisions, the answer-order links, and the notice
 * after an edit, a delete or an accept.
 */
import { Check } from "@/components/icons.gen.ts";
import { RelativeTime } from "@/components/RelativeTime.tsx";

/** "✓ Accepted answer": an icon and words, never color alone. */
export function AcceptedMark() {
  return (
    <p class="accepted-mark" data-testid="accepted-mark">
      <Check class="icon accepted-icon" aria-hidden="true" /> Accepted answer
    </p>
  );
}

/** "answered" badge of a feed item whose question has an accepted answer. */
export function AnsweredBadge() {
  return (
    <span class="badge-answered" data-testid="answered-badge" title="An answer was accepted">
      <Check class="icon" aria-hidden="true" /> answered
    </span>
  );
}

/**
 * "edited 5 minutes ago", linking to the revisions page (the question's, or one message's
 * with `messageId`); nothing when never edited.
 */
export function EditedNote(
  { questionId, messageId, editedAt, now }: {
    questionId: string;
    messageId?: string;
    editedAt: number | null;
    now: number;
  },
) {
  if (editedAt === null) return null;
  const href = `/questions/${encodeURIComponent(questionId)}/revisions${
    messageId ? `?message=${encodeURIComponent(messageId)}` : ""
  }`;
  return (
    <p class="edited-note muted" data-testid="edited-note">
      <a href={href}>
        edited <RelativeTime ms={editedAt} now={now} />
        <span class="visually-hidden">, see the revisions</span>
      </a>
    </p>
  );
}

/** The orders of answers, as the page and the API name them. */
export const ANSWER_SORTS = [
  { sort: "votes", label: "Votes" },
  { sort: "newest", label: "Newest" },
  { sort: "oldest", label: "Oldest" },
] as const;

/**
 * Sort links (work without JavaScript): the order lives in the URL (`?sort=`), paging
 * restarts at page 1 on a change and keeps the order on the pager's links.
 */
export function AnswerSort({ url, sort }: { url: URL; sort: string }) {
  return (
    <nav class="tabs answer-sort" aria-label="Order of answers" data-testid="answer-sort">
      {ANSWER_SORTS.map((s) => (
        <a
          key={s.sort}
          href={`${url.pathname}${s.sort === "votes" ? "" : `?sort=${s.sort}`}#answers-heading`}
          aria-current={s.sort === sort ? "page" : undefined}
        >
          {s.label}
        </a>
      ))}
    </nav>
  );
}

/** The notice after an edit, a delete or an accept on a question's page. */
export function LifecycleNotice({ url }: { url: URL }) {
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
