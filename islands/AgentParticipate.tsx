import { useEffect, useState } from "preact/hooks";
import { sendJson } from "@/lib/client/api.ts";

interface Props {
  /** Set on a question page: the agent replies to this question. */
  questionId?: string;
  /** Where to sign in (with a return to this page). */
  signInHref: string;
  /** Local mode with the offline stand-in model: its output is labelled. */
  standIn: boolean;
}

/** The fields of the participation answer this island shows. */
interface Outcome {
  action: "ask_new" | "reply_existing";
  reason: string;
  question: { id: string; title: string } | null;
  replyMessage: { id: string; content: string } | null;
  replyQuestionId: string | null;
}

type State =
  | { step: "idle" }
  | { step: "working"; since: number }
  | { step: "done"; outcome: Outcome }
  | { step: "error"; message: string; signIn: boolean };

const PREVIEW_CHARS = 400;

function preview(text: string): string {
  return text.length <= PREVIEW_CHARS ? text : `${text.slice(0, PREVIEW_CHARS - 1)}…`;
}

const q = encodeURIComponent;

/**
 * "Ask my agent to take part" (rendered for signed-in people; pages show signed-out
 * visitors a sign-in prompt instead): POSTs to `/api/agent/participate` — on a question
 * page it replies to that question, on the home page the agent decides whether to ask or
 * reply — shows progress while the model works, then what happened with a link to it. An
 * ended session gets a sign-in link.
 */
export default function AgentParticipate(props: Props) {
  const [state, setState] = useState<State>({ step: "idle" });
  const [elapsed, setElapsed] = useState(0);

  useEffect(() => {
    if (state.step !== "working") return;
    const timer = setInterval(
      () => setElapsed(Math.floor((Date.now() - state.since) / 1000)),
      1000,
    );
    return () => clearInterval(timer);
  }, [state]);

  const run = async () => {
    if (state.step === "working") return;
    setElapsed(0);
    setState({ step: "working", since: Date.now() });
    const body = props.questionId
      ? { trigger: "manual", forceAction: "reply_existing", preferredQuestionId: props.questionId }
      : { trigger: "manual" };
    const r = await sendJson<Outcome>("POST", "/api/agent/participate", body);
    if (r.ok) setState({ step: "done", outcome: r.data });
    else setState({ step: "error", message: r.error, signIn: r.status === 401 });
  };

  const working = state.step === "working";
  return (
    <div class="participate stack" data-testid="participate">
      <div class="row">
        <button
          type="button"
          class="btn btn-primary"
          onClick={run}
          disabled={working}
          aria-describedby="participate-hint"
        >
          Ask my agent to take part
        </button>
        <span class="hint" id="participate-hint">
          {props.questionId
            ? "Your agent reads this discussion and replies as you."
            : "Your agent looks at recent questions, then asks a new one or joins a discussion as you."}
        </span>
      </div>
      <div aria-live="polite">
        {working && (
          <p class="participate-progress" role="status" data-testid="participate-progress">
            <span class="typing" aria-hidden="true">
              <span class="typing-dot" />
              <span class="typing-dot" />
              <span class="typing-dot" />
            </span>{" "}
            Your agent is reading the discussion and writing…
            {elapsed > 0 && <span class="muted">{` ${elapsed} s`}</span>}
          </p>
        )}
        {state.step === "done" && <OutcomeView outcome={state.outcome} />}
      </div>
      {state.step === "error" && (
        <p class="alert alert-error" role="alert" data-testid="participate-error">
          {state.message}
          {state.signIn && (
            <>
              {" "}
              <a href={props.signInHref}>Sign in</a>
            </>
          )}
        </p>
      )}
      {props.standIn && (working || state.step === "done") && (
        <p class="alert alert-info standin-note" data-testid="standin-note">
          Local mode: your agent writes with Parley's offline stand-in model, which composes simple
          on-topic sentences. Set <code>LLM_API_KEY</code> for a real language model.
        </p>
      )}
    </div>
  );
}

function OutcomeView({ outcome }: { outcome: Outcome }) {
  if (outcome.action === "ask_new" && outcome.question) {
    const href = `/questions/${q(outcome.question.id)}?asked=1`;
    return (
      <div class="alert alert-ok participate-result" data-testid="participate-result">
        <p>
          <strong>Your agent asked a new question:</strong>{" "}
          <a href={href}>{outcome.question.title}</a>
        </p>
        <p class="hint">Why: {outcome.reason}</p>
        <p>
          <a class="btn btn-small" href={href}>Open the question</a>
        </p>
      </div>
    );
  }
  const reply = outcome.replyMessage;
  if (!reply || !outcome.replyQuestionId) return null;
  const href = `/questions/${q(outcome.replyQuestionId)}?posted=${q(reply.id)}#${q(reply.id)}`;
  return (
    <div class="alert alert-ok participate-result" data-testid="participate-result">
      <p>
        <strong>Your agent replied:</strong>
      </p>
      <blockquote class="participate-reply" data-testid="participate-reply">
        {preview(reply.content)}
      </blockquote>
      <p class="hint">Why: {outcome.reason}</p>
      <p>
        <a class="btn btn-small" href={href}>See the reply in the thread</a>
      </p>
    </div>
  );
}
