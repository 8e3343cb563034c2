import { useRef, useState } from "preact/hooks";
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
}

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
  const running = phase === "starting" || phase === "debating" || phase === "judging";
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
        setTurns((ts) => [...ts, {
          role,
          name: data.name as string,
          avatar,
          content: "",
          typing: true,
        }]);
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
    const opp = { current: null as SideView | null };
    let finished = false;
    try {
      const res = await fetch("/api/debate", {
        method: "POST",
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
            message:
              `You have started too many debates in the last minute. Try again in ${retryAfter} second${
                retryAfter === 1 ? "" : "s"
              }.`,
            retryAfter,
          });
        } else {
          setProblem({ message: body.error ?? `The debate could not start (HTTP ${res.status}).` });
        }
        setPhase("failed");
        return;
      }
      await readEventStream(res.body, (event) => {
        if (event.type === "done" || event.type === "error") finished = true;
        onEvent(event, opp);
      });
      if (!finished) {
        setProblem({
          message:
            "The connection closed before the debate finished. It keeps running on the server — find it in your history.",
        });
        setPhase("failed");
      }
    } catch {
      setProblem({
        message:
          "The connection to the debate was lost. It keeps running on the server — find it in your history.",
      });
      setPhase("failed");
    } finally {
      setTurns((ts) => ts.map((t) => t.typing ? { ...t, typing: false } : t));
      if (props.signedIn) refreshHistory();
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
          <DebateTranscript turns={turns} />
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
          {phase === "done" && debateId && (
            <p class="alert alert-ok" data-testid="debate-saved">
              Saved to your history.{" "}
              <a href={`/debates/${encodeURIComponent(debateId)}`}>Permanent link</a>
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
