import { useEffect, useState } from "preact/hooks";

interface Props {
  /** Question total when the page was rendered. */
  initialTotal: number;
  /** Poll interval in ms. */
  pollMs?: number;
}

/**
 * "3 new questions" notice on the feed: polls the total while the tab is visible and
 * offers a one-click refresh, like a busy forum's live feed.
 */
export default function NewQuestionsNotice({ initialTotal, pollMs = 15000 }: Props) {
  const [total, setTotal] = useState(initialTotal);
  const [live, setLive] = useState(false);
  useEffect(() => {
    setLive(true);
    let stopped = false;
    const poll = async () => {
      if (stopped || document.hidden) return;
      try {
        const res = await fetch("/api/feed", { headers: { accept: "application/json" } });
        if (res.ok) setTotal(((await res.json()) as { total: number }).total);
      } catch {
        // Offline for a moment: the next tick tries again.
      }
    };
    const timer = setInterval(poll, pollMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [pollMs]);
  const fresh = total - initialTotal;
  return (
    <div class="new-questions" aria-live="polite" data-live={live ? "on" : "off"}>
      {fresh > 0
        ? (
          <button type="button" class="btn btn-small btn-primary" onClick={() => location.reload()}>
            {fresh === 1 ? "1 new question" : `${fresh} new questions`} — show
          </button>
        )
        : <span class="muted">{total === 1 ? "1 question" : `${total} questions`}</span>}
    </div>
  );
}
