import { useEffect, useReducer } from "preact/hooks";
import {
  DebateTranscript,
  type SideView,
  SynthesisReport,
  type TurnView,
  TypingDots,
} from "@/components/DebateView.tsx";
import { initialLiveDebate, liveDebateReducer } from "@/lib/debates/live_state.ts";
import { followSavedDebate } from "@/lib/client/follow_debate.ts";

interface Props {
  debateId: string;
  userName: string;
  userAvatar: string | null;
  opponent: SideView;
  /** The turns saved when the page was rendered (shown until the replay arrives). */
  turns: TurnView[];
  viewerIsOwner: boolean;
}

/**
 * A debate still in progress on its permalink: replays its events from the start
 * (`GET /api/debates/:id/events`) and follows them live to `done` or `error`, without a
 * reload; the saved turns show until the replay arrives (and without scripts).
 */
export default function DebateFollow(props: Props) {
  const [live, dispatch] = useReducer(liveDebateReducer, null, () => ({
    ...initialLiveDebate(props.userAvatar),
    opponent: props.opponent,
    debateId: props.debateId,
    turns: props.turns,
    phase: "debating" as const,
  }));
  useEffect(() => {
    const abort = new AbortController();
    followSavedDebate(props.debateId, dispatch, abort.signal);
    return () => abort.abort();
  }, [props.debateId]);
  const { phase, turns, synthesis, problem, reconnecting } = live;
  return (
    <div data-testid="debate-follow" data-phase={phase}>
      <DebateTranscript turns={turns} viewerIsOwner={props.viewerIsOwner} />
      {reconnecting && (
        <p class="alert alert-info" role="status" data-testid="debate-reconnecting">
          Reconnecting…
        </p>
      )}
      {phase === "debating" && (
        <p class="alert alert-info" role="status" data-testid="debate-following">
          This debate is still being written; it appears here as it happens.
        </p>
      )}
      {phase === "judging" && !synthesis && (
        <p class="debate-judging" data-testid="debate-judging">
          The judge is writing the report <TypingDots label="The judge is writing" />
        </p>
      )}
      {problem && (
        <p class="alert alert-error" role="alert" data-testid="debate-failed">
          {problem.message}
        </p>
      )}
      {synthesis && (
        <SynthesisReport
          synthesis={synthesis}
          userName={props.userName}
          opponentName={props.opponent.name}
        />
      )}
      {phase === "done" && (
        <p class="alert alert-ok" role="status" data-testid="debate-finished">
          The debate has finished.
        </p>
      )}
    </div>
  );
}
