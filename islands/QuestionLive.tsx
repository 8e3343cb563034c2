import { useEffect, useState } from "preact/hooks";
import { LIVE_COUNTS_EVENT, type LiveCounts, PANEL_SHOWN_EVENT } from "@/lib/input_limits.ts";

interface Props {
  questionId: string;
  /** The thread's message count as rendered. */
  messageCount: number;
}

/**
 * The live question page: follows `GET /api/questions/:id/events`, updates the question's
 * vote counts in place and offers "N new answers — show" (a button; nothing moves under
 * the reader until they click it, which reloads the thread page), counting only messages
 * not on screen (the panel's live messages are).
 */
export default function QuestionLive(props: Props) {
  const [total, setTotal] = useState(props.messageCount);
  // The panel's messages drawn live by islands/ExpertPanel.tsx are on screen already.
  const [shown, setShown] = useState(0);
  const fresh = Math.max(0, total - props.messageCount - shown);

  useEffect(() => {
    const onShown = (e: Event) => setShown((e as CustomEvent<number>).detail);
    globalThis.addEventListener(PANEL_SHOWN_EVENT, onShown);
    return () => globalThis.removeEventListener(PANEL_SHOWN_EVENT, onShown);
  }, []);

  useEffect(() => {
    const source = new EventSource(`/api/questions/${encodeURIComponent(props.questionId)}/events`);
    source.addEventListener("changed", (e) => {
      const d = JSON.parse((e as MessageEvent).data) as {
        messageCount: number;
        upvotes: number;
        downvotes: number;
      };
      setTotal(d.messageCount);
      globalThis.dispatchEvent(
        new CustomEvent<LiveCounts>(LIVE_COUNTS_EVENT, {
          detail: {
            targetType: "question",
            targetId: props.questionId,
            upvotes: d.upvotes,
            downvotes: d.downvotes,
          },
        }),
      );
    });
    return () => source.close();
  }, [props.questionId, props.messageCount]);

  return (
    <div class="live-notice" aria-live="polite" data-testid="question-live">
      {fresh > 0 && (
        <button
          type="button"
          class="btn btn-small btn-primary"
          data-testid="new-answers"
          onClick={() => location.reload()}
        >
          {fresh === 1 ? "1 new answer" : `${fresh} new answers`} — show
        </button>
      )}
    </div>
  );
}
