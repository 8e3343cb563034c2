import { useEffect, useLayoutEffect, useReducer, useRef, useState } from "preact/hooks";
import {
  DebateHistory,
  DebateTranscript,
  DebateVersus,
  type HistoryItemView,
  type SideView,
  StandInNote,
  SynthesisReport,
  TypingDots,
} from "@/components/DebateView.tsx";
import { TOPIC_MAX_CHARS, topicTooLong } from "@/lib/input_limits.ts";
import { CharCounter, counterId } from "@/components/CharCounter.tsx";
import { initialLiveDebate, liveDebateReducer } from "@/lib/debates/live_state.ts";
import { followNewDebate, loadDebateHistory } from "@/lib/client/live_debate.ts";
import { useTypedBefore } from "@/lib/client/typed_before.ts";
import AgentProfileEditor from "./AgentProfileEditor.tsx";

interface Props {
  signedIn: boolean;
  /** The user's agent: from their profile. */
  agent: { name: string; avatar: string | null; bio: string };
  traits: string[];
  interests: string[];
  /** Local mode with the offline stand-in model: its output is labelled. */
  standIn: boolean;
  initialTopic: string;
  history: HistoryItemView[];
  /** The user's debate archive is public: offer Share. */
  archivePublic?: boolean;
}

/**
 * The live debate: a topic box and the agent profile, then the debate as it is written
 * — read from the POST response's SSE stream with fetch — and the judge's report.
 */
export default function DebateLive(props: Props) {
  // A topic typed before this script ran is kept, not wiped by hydration.
  const [topic, setTopic] = useTypedBefore("debate-topic", props.initialTopic);
  const soft = useRef({ traits: props.traits, interests: props.interests });
  const [live, dispatch] = useReducer(liveDebateReducer, props.agent.avatar, initialLiveDebate);
  const { phase, problem, opponent, turns, synthesis, debateId, reconnecting, stopped } = live;
  const [history, setHistory] = useState(props.history);
  const [following, setFollowing] = useState(true);
  const [shareNote, setShareNote] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const running = phase === "starting" || phase === "debating" || phase === "judging";

  // Keep the newest text in view while the reader follows; a reader who scrolled up
  // stays where they are and gets "Jump to live".
  const autoY = useRef<number | null>(null);
  /** The reader moved the page up since the last automatic scroll (not the page shrinking). */
  const readerScrolledUp = () => {
    const y = globalThis.scrollY;
    const bottom = document.documentElement.scrollHeight - globalThis.innerHeight;
    return autoY.current !== null && y < autoY.current - 2 && y < bottom - 2;
  };
  const scrollToLive = (force = false) => {
    // The page moved up since the last automatic scroll: the reader did that.
    if (!force && readerScrolledUp()) {
      setFollowing(false);
      return;
    }
    const items = document.querySelectorAll("#debate-transcript > li");
    const target = phase === "judging" || synthesis
      ? document.querySelector("[data-testid=debate-judging], [data-testid=synthesis]")
      : items[items.length - 1];
    if (!target) return;
    target.scrollIntoView({ block: "end", behavior: "auto" });
    autoY.current = globalThis.scrollY;
  };
  // A layout effect: the scroll happens in the same frame as the new text.
  useLayoutEffect(() => {
    if (running && following) scrollToLive();
  }, [turns, phase, synthesis, following]);
  useEffect(() => {
    if (!running) return;
    const onScroll = () => {
      const y = globalThis.scrollY;
      const items = document.querySelectorAll("#debate-transcript > li");
      const last = items[items.length - 1];
      if (!last) return;
      // Following never scrolls up, so moving up is the reader's doing; back near the
      // newest text, following resumes.
      if (readerScrolledUp()) setFollowing(false);
      else if (last.getBoundingClientRect().bottom <= globalThis.innerHeight + 48) {
        autoY.current = y;
        setFollowing(true);
      }
    };
    globalThis.addEventListener("scroll", onScroll, { passive: true });
    return () => globalThis.removeEventListener("scroll", onScroll);
  }, [running]);
  // When the debate starts, focus moves to the transcript's live region.
  useEffect(() => {
    if (phase === "debating") {
      document.getElementById("debate-transcript")?.focus({ preventScroll: true });
    }
  }, [phase === "debating"]);
  // A started debate has an address: /debates/:id replaces /debate in the address bar as
  // soon as the stream names the debate, as a redirect would (no reload: this page keeps
  // following it live). Reloading, bookmarking or sharing it opens the debate's own page,
  // which follows it too; Back leaves for the page before, as after any redirect.
  const sentTopic = useRef("");
  useEffect(() => {
    if (!debateId) return;
    const path = `/debates/${encodeURIComponent(debateId)}`;
    if (location.pathname === path) return;
    globalThis.history.replaceState({ debateId }, "", path);
    document.title = `${sentTopic.current || "Debate"} · Debate · Parley`;
  }, [debateId]);
  const user: SideView = { name: props.agent.name, avatar: props.agent.avatar };
  // The debate under way is in the history from the moment it has an id (the saved list is
  // read again when it ends): "Your debates will be listed here" under it was untrue.
  const startedAt = useRef("");
  const listed = debateId && !history.some((d) => d.id === debateId)
    ? [{
      id: debateId,
      topic: sentTopic.current,
      opponentName: opponent?.name ?? "an expert",
      status: phase === "failed" ? "failed" : running || stopped ? "in_progress" : "completed",
      createdAt: startedAt.current || new Date().toISOString(),
    }, ...history]
    : history;

  const start = async (e: Event) => {
    e.preventDefault();
    const text = topic.replace(/\s+/g, " ").trim();
    if (!text) {
      dispatch({ type: "invalid", message: "Enter a topic to debate." });
      return;
    }
    if (text.length > TOPIC_MAX_CHARS) {
      dispatch({ type: "invalid", message: topicTooLong(text.length) });
      return;
    }
    dispatch({ type: "begin" });
    sentTopic.current = text;
    startedAt.current = new Date().toISOString();
    setFollowing(true);
    autoY.current = null;
    setShareNote(null);
    const controller = new AbortController();
    abort.current = controller;
    await followNewDebate(
      text,
      { ...props.agent, softMemory: soft.current },
      dispatch,
      controller.signal,
    );
    if (props.signedIn) {
      const items = await loadDebateHistory();
      if (items) setHistory(items);
    }
  };

  /**
   * Stop following: the client stream ends; the server-side debate carries on and is
   * saved (docs/interface.md#debates: every debate is saved, also when the client disconnects).
   */
  const stop = () => {
    abort.current?.abort();
    dispatch({ type: "stopped" });
  };

  const share = async () => {
    if (!debateId) return;
    const url = `${location.origin}/debates/${encodeURIComponent(debateId)}`;
    try {
      if (typeof navigator.share === "function") {
        await navigator.share({ title: topic, url });
        return;
      }
      await navigator.clipboard.writeText(url);
      setShareNote("Link copied.");
    } catch {
      setShareNote(`Copy this link: ${url}`);
    }
  };

  return (
    <div class="debate-live" data-phase={phase}>
      <form class="card stack debate-setup" onSubmit={start}>
        <div>
          <label for="debate-topic">Topic</label>
          <textarea
            id="debate-topic"
            name="topic"
            class="debate-topic"
            rows={2}
            placeholder="e.g. Should cities ban cars downtown?"
            value={topic}
            disabled={running}
            onInput={(ev) => setTopic((ev.target as HTMLTextAreaElement).value)}
          />
          <CharCounter
            id={counterId("debate-topic")}
            count={topic.replace(/\s+/g, " ").trim().length}
            max={TOPIC_MAX_CHARS}
          />
          <p class="hint">
            Up to {TOPIC_MAX_CHARS}{" "}
            characters. Your agent argues first; an AI opponent chosen from the topic answers. Five
            rounds, then a judge's report.
          </p>
        </div>
        <AgentProfileEditor
          name={props.agent.name}
          avatar={props.agent.avatar}
          bio={props.agent.bio}
          traits={props.traits}
          interests={props.interests}
          disabled={running}
          onChange={(next) => soft.current = next}
        />
        <div class="row">
          <button type="submit" class="btn btn-primary" disabled={running}>
            {running ? "Debating…" : phase === "idle" ? "Start the debate" : "Start a new debate"}
          </button>
          {phase === "starting" && <TypingDots label="Starting the debate" />}
          {running && (
            <button type="button" class="btn" onClick={stop} data-testid="debate-stop">
              Stop
            </button>
          )}
        </div>
      </form>

      {problem && (
        <div class="alert alert-error" role="alert" data-testid="debate-error">
          {problem.message}
          {problem.signIn && (
            <>
              {" "}
              <a href="/signin?returnTo=/debate">Sign in</a>
            </>
          )}
        </div>
      )}

      {opponent && (
        <section class="debate-stage" aria-label="The debate">
          {props.standIn && <StandInNote />}
          <DebateVersus user={user} opponent={opponent} />
          {reconnecting && (
            <p class="alert alert-info" role="status" data-testid="debate-reconnecting">
              Reconnecting…
            </p>
          )}
          <DebateTranscript turns={turns} />
          {running && !following && (
            <button
              type="button"
              class="btn btn-primary debate-jump"
              data-testid="debate-jump"
              onClick={() => {
                setFollowing(true);
                scrollToLive(true);
              }}
            >
              Jump to live
            </button>
          )}
          {phase === "judging" && !synthesis && (
            <p class="debate-judging" data-testid="debate-judging">
              The judge is writing the report <TypingDots label="The judge is writing" />
            </p>
          )}
          {synthesis && (
            <SynthesisReport
              synthesis={synthesis}
              userName={user.name}
              opponentName={opponent.name}
            />
          )}
          {stopped && debateId && (
            <p class="alert alert-info" data-testid="debate-stopped">
              You stopped following. The debate goes on on the server and is saved to your history.
              {" "}
              <a href={`/debates/${encodeURIComponent(debateId)}`}>Open it later</a>
            </p>
          )}
          {phase === "done" && !stopped && debateId && (
            <p class="alert alert-ok" data-testid="debate-saved">
              Saved to your history.{" "}
              <a href={`/debates/${encodeURIComponent(debateId)}`}>Permanent link</a>
            </p>
          )}
          {props.archivePublic && debateId && (
            <p class="row">
              <button type="button" class="btn" onClick={share} data-testid="debate-share">
                Share
              </button>
              {shareNote && <span role="status">{shareNote}</span>}
            </p>
          )}
        </section>
      )}

      {props.signedIn && (
        <section class="debate-history-section" aria-labelledby="debate-history-title">
          <h2 id="debate-history-title">Your debates</h2>
          <DebateHistory items={listed} userName={user.name} starting={phase === "starting"} />
        </section>
      )}
    </div>
  );
}
