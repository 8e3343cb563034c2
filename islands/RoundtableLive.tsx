import { useEffect, useReducer, useState } from "preact/hooks";
import {
  MinutesReport,
  RoundtableTranscript,
  type SeatView,
} from "@/components/RoundtableView.tsx";
import { TypingDots } from "@/components/DebateView.tsx";
import {
  type LiveRoundtable,
  liveRoundtableReducer,
  type TranscriptItem,
} from "@/lib/roundtables/live_state.ts";
import type { Minutes } from "@/lib/schemas/roundtable.ts";
import { followEventLog } from "@/lib/client/follow_log.ts";
import { sendJson } from "@/lib/client/api.ts";
import { useTypedBefore } from "@/lib/client/typed_before.ts";
import { INTERJECTION_MAX_CHARS } from "@/lib/input_limits.ts";

interface Props {
  id: string;
  seats: SeatView[];
  /** The transcript saved when the page was rendered (shown until the replay arrives). */
  items: TranscriptItem[];
  minutes: Minutes | null;
  status: "in_progress" | "completed" | "failed";
  error: string | null;
  /** The viewer is the host: offer the interjection form while it runs. */
  isHost: boolean;
}

/**
 * A roundtable on its page: while it runs, replays its events from the start
 * (`GET /api/roundtables/:id/events`) and follows them live — surviving reloads and
 * dropped connections — with the host's interjection form for the owner; once it ended,
 * the saved transcript and minutes (drawn on the server too, so they read without scripts).
 */
export default function RoundtableLive(props: Props) {
  const [live, dispatch] = useReducer(liveRoundtableReducer, null, (): LiveRoundtable => ({
    items: props.items,
    typing: null,
    minutes: props.minutes,
    phase: props.status === "in_progress"
      ? "discussing"
      : props.status === "completed"
      ? "done"
      : "failed",
    problem: props.status === "failed" ? props.error ?? "The roundtable stopped early." : null,
    reconnecting: false,
  }));
  useEffect(() => {
    if (props.status !== "in_progress") return;
    const abort = new AbortController();
    followEventLog(`/api/roundtables/${encodeURIComponent(props.id)}/events`, {
      event: (event) => dispatch({ type: "event", event }),
      replaying: () => dispatch({ type: "replaying" }),
      resumed: () => dispatch({ type: "resumed" }),
      reconnecting: () => dispatch({ type: "reconnecting" }),
      closed: () => dispatch({ type: "closed" }),
      lost: () => dispatch({ type: "lost" }),
      ended: () => dispatch({ type: "ended" }),
    }, abort.signal);
    return () => abort.abort();
  }, [props.id]);
  const { items, typing, minutes, phase, problem, reconnecting } = live;
  const running = phase === "discussing" || phase === "summarizing";
  return (
    <div data-testid="roundtable-live" data-phase={phase}>
      <div aria-live="polite">
        <RoundtableTranscript items={items} seats={props.seats} typing={typing} />
      </div>
      {reconnecting && (
        <p class="alert alert-info" role="status" data-testid="roundtable-reconnecting">
          Reconnecting…
        </p>
      )}
      {phase === "discussing" && (
        <p class="alert alert-info" role="status" data-testid="roundtable-following">
          The experts are still talking; their words appear here as they are written.
        </p>
      )}
      {phase === "summarizing" && !minutes && (
        <p class="debate-judging" data-testid="roundtable-summarizing">
          The minutes are being written <TypingDots label="The minutes are being written" />
        </p>
      )}
      {props.isHost && running && <InterjectForm id={props.id} seats={props.seats} />}
      {problem && (
        <p class="alert alert-error" role="alert" data-testid="roundtable-failed">{problem}</p>
      )}
      {minutes && <MinutesReport minutes={minutes} seats={props.seats} />}
      {phase === "done" && props.status === "in_progress" && (
        <p class="alert alert-ok" role="status" data-testid="roundtable-finished">
          The roundtable has finished.
        </p>
      )}
    </div>
  );
}

/** The host's words: the next speaker takes them up (the chosen expert, if any). */
function InterjectForm({ id, seats }: { id: string; seats: SeatView[] }) {
  // Words typed and the speaker chosen before this script ran are kept.
  const [text, setText] = useTypedBefore("interject-text");
  const [directTo, setDirectTo] = useTypedBefore("interject-to");
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!text.trim() || busy) return;
    setBusy(true);
    const r = await sendJson<{ id: string }>(
      "POST",
      `/api/roundtables/${encodeURIComponent(id)}/interject`,
      { text: text.trim(), ...(directTo ? { directTo } : {}) },
    );
    setBusy(false);
    if (r.ok) {
      const who = seats.find((s) => s.id === directTo)?.name;
      setNote({
        ok: true,
        text: who
          ? `Sent. ${who} will answer you next.`
          : "Sent. The next speaker will take it up.",
      });
      setText("");
    } else setNote({ ok: false, text: r.error });
  };
  return (
    <form class="card stack interject-form" onSubmit={submit} data-testid="interject-form">
      <h2 class="h3" id="interject-title">Interject as the host</h2>
      <label for="interject-text">Your question or remark</label>
      <textarea
        id="interject-text"
        name="text"
        rows={2}
        maxLength={INTERJECTION_MAX_CHARS}
        required
        value={text}
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
      />
      <div class="row">
        <label for="interject-to">Who should answer</label>
        <select
          id="interject-to"
          name="directTo"
          value={directTo}
          onChange={(e) => setDirectTo((e.target as HTMLSelectElement).value)}
        >
          <option value="">Whoever speaks next</option>
          {seats.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
        </select>
        <button class="btn btn-primary" type="submit" disabled={busy || !text.trim()}>
          Interject
        </button>
      </div>
      {note && (
        <p
          class={note.ok ? "hint" : "alert alert-error"}
          role={note.ok ? "status" : "alert"}
          data-testid="interject-note"
        >
          {note.text}
        </p>
      )}
    </form>
  );
}
