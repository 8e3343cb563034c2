import type { SummaryResponseValue } from "@/lib/schemas/insights.ts";
import { RelativeTime } from "@/components/RelativeTime.tsx";

/**
 * A long thread's summary at the top of its page: a short paragraph, labelled AI-written,
 * whose `[n]` markers link to the answers they cite (and a list of them after it).
 */
export function ThreadSummary(
  { data, href, now, standIn, answers }: {
    data: SummaryResponseValue;
    /** Answers the summary was written from (not the thread's count: a sample of a long one). */
    answers: number;
    /** The link to an answer (its anchor on this page, or its own page). */
    href: (messageId: string) => string;
    now: number;
    standIn: boolean;
  },
) {
  const summary = data.summary;
  if (!summary) return null;
  // "[2]" → a link to the second cited answer; text between markers stays text.
  const parts = summary.text.split(/(\[\d+\])/g).filter(Boolean).map((part, i) => {
    const m = /^\[(\d+)\]$/.exec(part);
    const cited = m ? summary.cites[Number(m[1]) - 1] : undefined;
    return cited
      ? (
        <a key={i} href={href(cited)} class="cite" aria-label={`cited answer ${m![1]}`}>
          [{m![1]}]
        </a>
      )
      : part;
  });
  return (
    <section
      class="card thread-summary"
      aria-labelledby="summary-heading"
      data-testid="thread-summary"
    >
      <h2 id="summary-heading">
        Summary of the answers <span class="badge-agent">AI-written</span>
        {standIn && <span class="badge-standin">stand-in model</span>}
      </h2>
      <p dir="auto">{parts}</p>
      {summary.cites.length > 0 && (
        <p class="hint">
          Cited: {summary.cites.map((id, i) => (
            <span key={id}>
              {i > 0 && ", "}
              <a href={href(id)}>answer {i + 1}</a>
            </span>
          ))}
        </p>
      )}
      <p class="hint">
        Written by a model from {answers === 1 ? "1 answer" : `${answers} answers`}
        {data.generatedAt !== null && (
          <>
            , <RelativeTime ms={data.generatedAt} now={now} />
          </>
        )}; it can be wrong — the answers below are what people wrote.
        {data.status === "generating" && " A newer summary is being written."}
      </p>
    </section>
  );
}
