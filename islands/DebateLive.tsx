import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import {
  DebateHistory,
  DebateTranscript,
  DebateVersus,
  type HistoryItemView,
  type SideView,
  StandInNote,
  SynthesisReport,
  type TurnView,
  TypingDots,
} from "@/components/DebateView.tsx";
import { TOPIC_MAX_CHARS } from "@/lib/shared.ts";
import type { DebateMessage, Role } from "@/lib/debates/model.ts";
import type { Synthesis } from "@/lib/schemas/debate.ts";
import { readEventStream, type StreamEvent } from "@/lib/debates/sse_reader.ts";
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

/** Reconnection delays (ms): exponential backoff, capped. */
const BACKOFF_MS = [500, 1_000, 2_000, 4_000, 8_000];
const MAX_RECONNECTS = 12;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Phase = "idle" | "starting" | "debating" | "judging" | "done" | "failed";

interface Problem {
  message: string;
  signIn?: boolean;
  retryAfter?: number;
}

/** Only web addresses are sent as the agent's avatar (the API accepts nothing else). */
function webAvatar(avatar: string | null): string | undefined {
  return avatar && /^https?:\/\//i.test(avatar) ? avatar : undefined;
}

/**
 * The live debate: a topic box and the agent profile, then the debate as it is written
 * — read from the POST response's SSE stream with fetch — and the judge's report.
 */
export default function DebateLive(props: Props) {
  const [topic, setTopic] = useState(props.initialTopic);
  const soft = useRef({ traits: props.traits, interests: props.interests });
  const [phase, setPhase] = useState<Phase>("idle");
  const [problem, setProblem] = useState<Problem | null>(null);
  const [opponent, setOpponent] = useState<SideView | null>(null);
  const [turns, setTurns] = useState<TurnView[]>([]);
  const [synthesis, setSynthesis] = useState<Synthesis | null>(null);
  const [debateId, setDebateId] = useState<string | null>(null);
  const [history, setHistory] = useState(props.history);
  const [reconnecting, setReconnecting] = useState(false);
  const [stopped, setStopped] = useState(false);
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
  const user: SideView = { name: props.agent.name, avatar: props.agent.avatar };

  const refreshHistory = async () => {
    try {
      const res = await fetch("/api/debate/history", { headers: { accept: "application/json" } });
      if (!res.ok) return;
      const list = await res.json() as {
        id: string;
        topic: string;
        opponentProfile: { name: string };
        status: string;
        synthesis: Synthesis | null;
        createdAt: string;
      }[];
      setHistory(list.map((d) => ({
        id: d.id,
        topic: d.topic,
        opponentName: d.opponentProfile.name,
        status: d.status,
        winner: d.synthesis?.winner,
        createdAt: d.createdAt,
      })));
    } catch {
      // The list refreshes on the next visit.
    }
  };

  const onEvent = (event: StreamEvent, opp: { current: SideView | null }) => {
    const data = event.data as Record<string, unknown>;
    switch (event.type) {
      case "init": {
        const o = data.opponentProfile as { name: string; avatar?: string; title?: string };
        opp.current = { name: o.name, avatar: o.avatar ?? null, title: o.title };
        setOpponent(opp.current);
        setDebateId(data.id as string);
        setPhase("debating");
        break;
      }
      case "start": {
        const role = data.role as Role;
        const avatar = role === "user" ? user.avatar : opp.current?.avatar ?? null;
        const fresh = { role, name: data.name as string, avatar, content: "", typing: true };
        // A `start` while the last turn is still being written restarts that turn (the
        // server instance died mid-message and another one writes it again).
        setTurns((ts) => ts.at(-1)?.typing ? [...ts.slice(0, -1), fresh] : [...ts, fresh]);
        break;
      }
      case "chunk":
        setTurns((ts) => {
          const last = ts.at(-1);
          if (!last) return ts;
          return [...ts.slice(0, -1), { ...last, content: last.content + String(data.content) }];
        });
        break;
      case "message": {
        const m = data as unknown as DebateMessage;
        setTurns((ts) => {
          const last = ts.at(-1);
          if (!last) return ts;
          return [...ts.slice(0, -1), { ...last, content: m.content, typing: false }];
        });
        break;
      }
      case "synthesizing":
        setPhase("judging");
        break;
      case "synthesis":
        setSynthesis(data as unknown as Synthesis);
        break;
      case "done":
        setPhase("done");
        break;
      case "error":
        setTurns((ts) => ts.map((t) => ({ ...t, typing: false })));
        setProblem({ message: String(data.message ?? "The debate stopped.") });
        setPhase("failed");
        break;
    }
  };

  const start = async (e: Event) => {
    e.preventDefault();
    const text = topic.replace(/\s+/g, " ").trim();
    if (!text) {
      setProblem({ message: "Enter a topic to debate." });
      return;
    }
    setProblem(null);
    setTurns([]);
    setSynthesis(null);
    setOpponent(null);
    setDebateId(null);
    setPhase("starting");
    setStopped(false);
    setFollowing(true);
    autoY.current = null;
    setShareNote(null);
    const controller = new AbortController();
    abort.current = controller;
    const opp = { current: null as SideView | null };
    let finished = false;
    try {
      const res = await fetch("/api/debate", {
        method: "POST",
        signal: controller.signal,
        headers: { "content-type": "application/json", accept: "text/event-stream" },
        body: JSON.stringify({
          topic: text,
          userProfile: {
            name: props.agent.name,
            avatar: webAvatar(props.agent.avatar),
            bio: props.agent.bio || undefined,
            softMemory: soft.current,
          },
        }),
      });
      if (!res.ok || !res.body) {
        const body = await res.json().catch(() => ({})) as {
          error?: string;
          retryAfter?: number;
        };
        if (res.status === 401) {
          setProblem({ message: "Sign in to start a debate.", signIn: true });
        } else if (res.status === 429) {
          const retryAfter = body.retryAfter ?? Number(res.headers.get("retry-after") ?? 60);
          setProblem({
            message: `You have started too many debates in the last minute. Try again in ${
              retryAfter >= 60 ? `${Math.ceil(retryAfter / 60)} minute` : `${retryAfter} second`
            }${(retryAfter >= 60 ? Math.ceil(retryAfter / 60) : retryAfter) === 1 ? "" : "s"}.`,
            retryAfter,
          });
        } else {
          setProblem({ message: body.error ?? `The debate could not start (HTTP ${res.status}).` });
        }
        setPhase("failed");
        return;
      }
      // Follow the POST stream; when it drops, resume through the stored events.
      let lastId = 0;
      let id: string | null = null;
      const handle = (event: StreamEvent) => {
        if (event.type === "init") id = (event.data as { id: string }).id;
        if (event.type === "done" || event.type === "error") finished = true;
        if (event.id) lastId = Number(event.id);
        onEvent(event, opp);
      };
      try {
        await readEventStream(res.body, handle);
      } catch (err) {
        if (controller.signal.aborted) throw err;
      }
      // The POST stream carries no ids: the first resume replays from the start.
      let fromStart = true;
      for (let attempt = 0; !finished && id && attempt < MAX_RECONNECTS; attempt++) {
        if (controller.signal.aborted) return;
        setReconnecting(true);
        await sleep(BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]);
        if (controller.signal.aborted) return;
        try {
          const r = await fetch(`/api/debates/${encodeURIComponent(id)}/events`, {
            headers: {
              accept: "text/event-stream",
              ...(fromStart ? {} : { "last-event-id": String(lastId) }),
            },
            signal: controller.signal,
          });
          if (!r.ok || !r.body) continue;
          if (fromStart) {
            // Rebuild the view from the replay: nothing doubled, nothing lost.
            setTurns([]);
            setSynthesis(null);
            fromStart = false;
          }
          setReconnecting(false);
          attempt = -1; // a stream that answered resets the backoff
          await readEventStream(r.body, handle).catch(() => {});
        } catch {
          if (controller.signal.aborted) return;
        }
      }
      setReconnecting(false);
      if (!finished && !controller.signal.aborted) {
        setProblem({
          message:
            "The connection closed before the debate finished. It keeps running on the server — find it in your history.",
        });
        setPhase("failed");
      }
    } catch {
      if (controller.signal.aborted) return;
      setProblem({
        message:
          "The connection to the debate was lost. It keeps running on the server — find it in your history.",
      });
      setPhase("failed");
    } finally {
      setReconnecting(false);
      setTurns((ts) => ts.map((t) => t.typing ? { ...t, typing: false } : t));
      if (props.signedIn) refreshHistory();
    }
  };

  /**
   * Stop following: the client stream ends; the server-side debate carries on and is
   * saved (SPEC.md: every debate is saved, also when the client disconnects).
   */
  const stop = () => {
    abort.current?.abort();
    setStopped(true);
    setReconnecting(false);
    setPhase("done");
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
            maxLength={TOPIC_MAX_CHARS}
            placeholder="e.g. Should cities ban cars downtown?"
            value={topic}
            disabled={running}
            onInput={(ev) => setTopic((ev.target as HTMLTextAreaElement).value)}
          />
          <p class="hint">
            Your agent argues first; an AI opponent chosen from the topic answers. Five rounds, then
            a judge's report.
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
          <DebateHistory items={history} userName={user.name} />
        </section>
      )}
    </div>
  );
}
