/**
 * How a roundtable looks: the panel, the transcript (each statement labelled AI-written
 * with its expert and what it answers; the host's words set apart), the statement being
 * written, and the minutes with each expert's position side by side. Render-only and free
 * of server imports, so the live island and the page share them.
 *
 * @module
 */
import type { Minutes } from "@/lib/schemas/roundtable.ts";
import type { TranscriptItem } from "@/lib/roundtables/live_state.ts";
import { TypingDots } from "./DebateView.tsx";
import { AgreementColumns, ReportPoints } from "./ReportPoints.tsx";

/** An expert at the table as shown. */
export interface SeatView {
  id: string;
  name: string;
  title: string;
  /** Initials for the avatar circle. */
  avatar: string;
}

function seatOf(seats: SeatView[], id: string): SeatView {
  return seats.find((s) => s.id === id) ?? { id, name: id, title: "", avatar: "?" };
}

/** The label every AI-written piece carries. */
export function AiLabel({ what = "AI-written" }: { what?: string }) {
  return <span class="badge-agent badge-expert" data-testid="ai-label">{what}</span>;
}

/** The experts at the table. */
export function Panel({ seats }: { seats: SeatView[] }) {
  return (
    <ul class="roundtable-panel" aria-label="The AI experts" data-testid="roundtable-panel">
      {seats.map((s) => (
        <li key={s.id} class="roundtable-seat">
          <span class="avatar avatar-initials" aria-hidden="true">{s.avatar}</span>
          <span>
            <strong>{s.name}</strong>
            <span class="hint">AI expert · {s.title}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Who or what a statement answers, in words. */
function answers(items: TranscriptItem[], seats: SeatView[], replyTo?: string): string | null {
  if (!replyTo) return null;
  if (replyTo.startsWith("h")) return "answering the host";
  const to = items.find((i) => i.kind === "statement" && i.message.id === replyTo);
  return to && to.kind === "statement"
    ? `answering ${seatOf(seats, to.message.expertId).name}`
    : "answering an earlier point";
}

const roundName = (round: number) => round === 0 ? "Opening round" : `Round ${round}`;

/** The transcript: statements with their round and what they answer, and the host's words. */
export function RoundtableTranscript(
  { items, seats, typing }: {
    items: TranscriptItem[];
    seats: SeatView[];
    typing?: { expertId: string; round: number; replyTo?: string; text: string } | null;
  },
) {
  if (items.length === 0 && !typing) {
    return <p class="empty" data-testid="roundtable-empty">Nobody has spoken yet.</p>;
  }
  return (
    <ol class="roundtable-transcript" aria-label="Transcript" data-testid="roundtable-transcript">
      {items.map((item) => {
        if (item.kind === "host") {
          const to = item.directTo ? seatOf(seats, item.directTo).name : null;
          return (
            <li
              key={item.id}
              id={`host-${item.id}`}
              class="roundtable-host"
              data-testid="roundtable-host"
            >
              <strong>The host</strong>
              {to && <span class="hint">to {to}</span>}
              <p dir="auto">{item.text}</p>
            </li>
          );
        }
        const m = item.message;
        const seat = seatOf(seats, m.expertId);
        const about = answers(items, seats, m.replyTo);
        return (
          <li
            key={m.id}
            id={`statement-${m.id}`}
            class="roundtable-statement"
            data-testid="roundtable-statement"
            data-expert={m.expertId}
            data-reply-to={m.replyTo}
          >
            <span class="avatar avatar-initials" aria-hidden="true">{seat.avatar}</span>
            <div class="roundtable-bubble">
              <div class="meta">
                <strong>{seat.name}</strong>
                <AiLabel what={`AI expert · ${seat.title}`} />
                <span class="hint">
                  {roundName(m.round)}
                  {about && (
                    <>
                      {" · "}
                      <a
                        href={`#${m.replyTo!.startsWith("h") ? "host" : "statement"}-${m.replyTo}`}
                      >
                        {about}
                      </a>
                    </>
                  )}
                </span>
              </div>
              <p>{m.content}</p>
            </div>
          </li>
        );
      })}
      {typing && (
        <li
          class="roundtable-statement"
          data-testid="roundtable-typing"
          data-expert={typing.expertId}
        >
          <span class="avatar avatar-initials" aria-hidden="true">
            {seatOf(seats, typing.expertId).avatar}
          </span>
          <div class="roundtable-bubble">
            <div class="meta">
              <strong>{seatOf(seats, typing.expertId).name}</strong>
              <AiLabel what={`AI expert · ${seatOf(seats, typing.expertId).title}`} />
              <span class="hint">
                {roundName(typing.round)}
                {typing.replyTo?.startsWith("h") ? " · answering the host" : ""}
              </span>
            </div>
            <p>
              {typing.text}
              <TypingDots label={`${seatOf(seats, typing.expertId).name} is writing`} />
            </p>
          </div>
        </li>
      )}
    </ol>
  );
}

/** The minutes: conclusion, consensus and disagreements, and each expert's position side by side. */
export function MinutesReport({ minutes, seats }: { minutes: Minutes; seats: SeatView[] }) {
  return (
    <section
      class="card synthesis"
      data-testid="roundtable-minutes"
      aria-labelledby="minutes-title"
    >
      <h2 id="minutes-title">Minutes</h2>
      <p>
        <AiLabel what="AI-written summary" />
      </p>
      <h3>Conclusion</h3>
      <p data-testid="minutes-conclusion">{minutes.conclusion}</p>
      <h3>Positions</h3>
      <ul class="minutes-stances" data-testid="minutes-stances">
        {minutes.stances.map((s) => {
          const seat = seatOf(seats, s.expertId);
          return (
            <li key={s.expertId} class="minutes-stance" data-testid="minutes-stance">
              <h4>
                {seat.name}
                <span class="hint">{seat.title}</span>
              </h4>
              <p>{s.position}</p>
              {s.keyPoints.length > 0 && (
                <ul>
                  {s.keyPoints.map((p, i) => <li key={i}>{p}</li>)}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
      <AgreementColumns consensus={minutes.consensus} disagreements={minutes.disagreements} />
      <h3>Open questions</h3>
      <ReportPoints items={minutes.openQuestions} empty="No open questions were noted." />
    </section>
  );
}
