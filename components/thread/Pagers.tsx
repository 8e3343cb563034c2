import {
  REPLIES_PER_ANSWER,
  type ViewedThreadPage as QuestionThreadPage,
} from "@/lib/community/thread.ts";

/** The URL of thread page `page` (or one answer's reply page), keeping nothing else. */
export function threadHref(url: URL, params: Record<string, string>): string {
  const sort = url.searchParams.get("sort");
  if (sort === "newest" || sort === "oldest") params = { sort, ...params };
  const qs = new URLSearchParams(params).toString();
  return `${url.pathname}${qs ? `?${qs}` : ""}#answers-heading`;
}

/** "Show all N replies" under an answer whose replies did not all fit on the page. */
export function MoreReplies(
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
export function ThreadPager({ q, url }: { q: QuestionThreadPage; url: URL }) {
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
