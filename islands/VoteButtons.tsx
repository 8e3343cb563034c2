import { ArrowBigDown, ArrowBigUp } from "@/components/icons.gen.ts";
import { useEffect, useState } from "preact/hooks";
import { LIVE_COUNTS_EVENT, type LiveCounts } from "@/lib/input_limits.ts";
import { sendJson } from "@/lib/client/api.ts";
import { applyVote, nextVote, type VoteType } from "@/lib/community/vote_table.ts";

interface Props {
  targetType: "question" | "message";
  targetId: string;
  upvotes: number;
  downvotes: number;
  /** The signed-in user's current vote. */
  vote: VoteType | null;
  /** Where to sign in when signed out (null when signed in). */
  signInHref: string | null;
  /** What is voted on, for screen readers ("this question", "Ada's answer"). */
  label: string;
  /** The viewer's own post: the counts show, the buttons are disabled with the reason. */
  own?: boolean;
}

/** Why the vote buttons of one's own post are disabled. */
export const OWN_POST_REASON = "You can't vote on your own post";

interface VoteState {
  upvotes: number;
  downvotes: number;
  vote: VoteType | null;
}

/**
 * Up/down vote buttons: optimistic update, the server's counts once it answers, rollback
 * with a visible message on failure, a sign-in prompt when signed out.
 */
export default function VoteButtons(props: Props) {
  const [state, setState] = useState<VoteState>({
    upvotes: props.upvotes,
    downvotes: props.downvotes,
    vote: props.vote,
  });
  const [error, setError] = useState<string | null>(null);
  const [prompt, setPrompt] = useState(false);
  const [busy, setBusy] = useState(false);

  // Live counts from the question page's stream (islands/QuestionLive.tsx).
  useEffect(() => {
    const onCounts = (e: Event) => {
      const d = (e as CustomEvent<LiveCounts>).detail;
      if (d.targetType !== props.targetType || d.targetId !== props.targetId) return;
      setState((s) => ({ ...s, upvotes: d.upvotes, downvotes: d.downvotes }));
    };
    globalThis.addEventListener(LIVE_COUNTS_EVENT, onCounts);
    return () => globalThis.removeEventListener(LIVE_COUNTS_EVENT, onCounts);
  }, [props.targetType, props.targetId]);

  const cast = async (requested: VoteType) => {
    if (props.signInHref) {
      setPrompt(true);
      return;
    }
    if (busy) return;
    const before = state;
    const { next } = nextVote(before.vote, requested);
    setState({ ...applyVote(before, before.vote, next), vote: next });
    setError(null);
    setBusy(true);
    const r = await sendJson<
      { upvotes: number; downvotes: number; liked: boolean; downvoted: boolean }
    >(
      "POST",
      "/api/likes",
      { targetType: props.targetType, targetId: props.targetId, voteType: requested },
    );
    setBusy(false);
    if (r.ok) {
      const vote = r.data.liked ? "up" : r.data.downvoted ? "down" : null;
      setState({ upvotes: r.data.upvotes, downvotes: r.data.downvotes, vote });
    } else {
      setState(before);
      setError(`Your vote was not saved: ${r.error}`);
    }
  };

  const reasonId = `vote-own-${props.targetType}-${props.targetId}`;
  const own = props.own === true;
  return (
    <div
      class="vote"
      role="group"
      aria-label={`Votes on ${props.label}`}
      data-busy={busy ? "true" : "false"}
    >
      <button
        type="button"
        class="btn btn-small vote-btn vote-up"
        aria-pressed={state.vote === "up"}
        title={own ? OWN_POST_REASON : "Upvote"}
        disabled={own}
        aria-describedby={own ? reasonId : undefined}
        onClick={() => cast("up")}
      >
        <span class="visually-hidden">{`Upvote ${props.label}, `}</span>
        <ArrowBigUp class="icon" aria-hidden="true" />
        <span class="vote-count" data-testid="upvotes">{state.upvotes}</span>
        <span class="visually-hidden">{state.upvotes === 1 ? " upvote" : " upvotes"}</span>
      </button>
      <button
        type="button"
        class="btn btn-small vote-btn vote-down"
        aria-pressed={state.vote === "down"}
        title={own ? OWN_POST_REASON : "Downvote"}
        disabled={own}
        aria-describedby={own ? reasonId : undefined}
        onClick={() => cast("down")}
      >
        <span class="visually-hidden">{`Downvote ${props.label}, `}</span>
        <ArrowBigDown class="icon" aria-hidden="true" />
        <span class="vote-count" data-testid="downvotes">{state.downvotes}</span>
        <span class="visually-hidden">{state.downvotes === 1 ? " downvote" : " downvotes"}</span>
      </button>
      {own && <span class="visually-hidden" id={reasonId}>{OWN_POST_REASON}</span>}
      {error && <p class="inline-error" role="alert">{error}</p>}
      {prompt && props.signInHref && (
        <p class="signin-prompt" role="status">
          <a href={props.signInHref}>Sign in</a> to vote.
        </p>
      )}
    </div>
  );
}
