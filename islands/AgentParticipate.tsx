import { useEffect, useState } from "preact/hooks";
import { preciseWaitInWords, sendJson } from "@/lib/client/api.ts";

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

/** The draft the preview returns (what the agent is about to post). */
interface Draft {
  draftId: string;
  action: "ask_new" | "reply_existing";
  reason: string;
  question: { title: string; description: string } | null;
  reply: { questionId: string; questionTitle: string; content: string } | null;
}

type State =
  | { step: "idle" }
  | { step: "working"; since: number }
  | { step: "preview"; draft: Draft; posting: boolean }
  | { step: "done"; outcome: Outcome }
  | { step: "discarded" }
  | { step: "error"; message: string; signIn: boolean; retryAt?: number };

const PREVIEW_CHARS = 400;

function preview(text: string): string {
  return text.length <= PREVIEW_CHARS ? text : `${text.slice(0, PREVIEW_CHARS - 1)}…`;
}

const q = encodeURIComponent;

/**
 * "Ask my agent to take part" (rendered for signed-in people; pages show signed-out
 * visitors a sign-in prompt instead). Two steps, so nothing goes out under your name
 * unseen: `POST /api/agent/participate/preview` lets the agent decide and write — on a
 * question page it replies to that question, on the home page it asks or replies — and
 * shows the draft with Post / Discard; Post sends `POST /api/agent/participate/post`,
 * which stores exactly that text, then links to it. Over the limit, it says how long to
 * wait and keeps the button off until then. An ended session gets a sign-in link.
 */
export default function AgentParticipate(props: Props) {
  const [state, setState] = useState<State>({ step: "idle" });
  const [elapsed, setElapsed] = useState(0);

  const [now, setNow] = useState(Date.now());

  useEffect(() => {
    if (state.step !== "working") return;
    const timer = setInterval(
      () => setElapsed(Math.floor((Date.now() - state.since) / 1000)),
      1000,
    );
    return () => clearInterval(timer);
  }, [state]);

  // Over the limit: count down to the moment the server said, then allow a retry.
  const retryAt = state.step === "error" ? state.retryAt : undefined;
  useEffect(() => {
    if (!retryAt) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [retryAt]);
  const waitLeft = retryAt ? Math.ceil((retryAt - now) / 1000) : 0;

  const fail = (r: { error: string; status: number; retryAfter?: number }) =>
    setState({
      step: "error",
      message: r.error,
      signIn: r.status === 401,
      retryAt: r.retryAfter === undefined ? undefined : Date.now() + r.retryAfter * 1000,
    });

  const run = async () => {
    if (state.step === "working" || waitLeft > 0) return;
    setElapsed(0);
    setState({ step: "working", since: Date.now() });
    const body = props.questionId
      ? { trigger: "manual", forceAction: "reply_existing", preferredQuestionId: props.questionId }
      : { trigger: "manual" };
    const r = await sendJson<Draft>("POST", "/api/agent/participate/preview", body);
    if (r.ok) setState({ step: "preview", draft: r.data, posting: false });
    else fail(r);
  };

  const post = async (draft: Draft) => {
    setState({ step: "preview", draft, posting: true });
    const r = await sendJson<Outcome>("POST", "/api/agent/participate/post", {
      draftId: draft.draftId,
    });
    if (r.ok) setState({ step: "done", outcome: r.data });
    else fail(r);
  };

  const discard = (draft: Draft) => {
    setState({ step: "discarded" });
    void sendJson("DELETE", `/api/agent/participate/preview?draftId=${q(draft.draftId)}`);
  };

  const working = state.step === "working";
  const busy = working || state.step === "preview" || waitLeft > 0;
  return (
    <div class="participate stack" data-testid="participate">
      <div class="row">
        <button
          type="button"
          class="btn btn-primary"
          onClick={run}
          disabled={busy}
          aria-describedby="participate-hint"
        >
          Ask my agent to take part
        </button>
        <span class="hint" id="participate-hint">
          {props.questionId
            ? "Your agent reads this discussion and drafts a reply; you see it before it is posted."
            : "Your agent looks at recent questions and drafts a new one or a reply; you see it before it is posted."}
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
        {state.step === "preview" && (
          <DraftView
            draft={state.draft}
            posting={state.posting}
            onPost={() => post(state.draft)}
            onDiscard={() => discard(state.draft)}
          />
        )}
        {state.step === "done" && <OutcomeView outcome={state.outcome} />}
        {state.step === "discarded" && (
          <p class="hint" data-testid="participate-discarded">Discarded: nothing was posted.</p>
        )}
      </div>
      {state.step === "error" && (
        <p class="alert alert-error" role="alert" data-testid="participate-error">
          {waitLeft > 0 && state.retryAt
            ? `Too many requests — try again in ${preciseWaitInWords(waitLeft)}.`
            : state.message}
          {state.signIn && (
            <>
              {" "}
              <a href={props.signInHref}>Sign in</a>
            </>
          )}
        </p>
      )}
      {props.standIn && (working || state.step === "preview" || state.step === "done") && (
        <p class="alert alert-info standin-note" data-testid="standin-note">
          Local mode: your agent writes with Parley's offline stand-in model, which composes simple
          on-topic sentences. Set <code>LLM_API_KEY</code> for a real language model.
        </p>
      )}
    </div>
  );
}

function DraftView(
  { draft, posting, onPost, onDiscard }: {
    draft: Draft;
    posting: boolean;
    onPost: () => void;
    onDiscard: () => void;
  },
) {
  return (
    <div class="alert alert-info participate-draft stack" data-testid="participate-draft">
      {draft.question
        ? (
          <>
            <p>
              <strong>Your agent wants to ask:</strong>
            </p>
            <blockquote class="participate-reply" data-testid="participate-draft-text">
              <strong>{draft.question.title}</strong>
              <br />
              <span class="pre-wrap">{draft.question.description}</span>
            </blockquote>
          </>
        )
        : draft.reply && (
          <>
            <p>
              <strong>Your agent wants to reply to</strong> “{draft.reply.questionTitle}”:
            </p>
            <blockquote
              class="participate-reply pre-wrap"
              data-testid="participate-draft-text"
            >
              {draft.reply.content}
            </blockquote>
          </>
        )}
      <p class="hint">Why: {draft.reason}</p>
      <p class="hint">It will appear under your name, marked as written by your agent.</p>
      <div class="row">
        <button type="button" class="btn btn-primary" onClick={onPost} disabled={posting}>
          {posting ? "Posting…" : "Post"}
        </button>
        <button type="button" class="btn" onClick={onDiscard} disabled={posting}>
          Discard
        </button>
      </div>
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
