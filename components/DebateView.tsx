/**
 * How a debate looks: the two sides, the transcript (with a typing indicator for the
 * turn being written), the judge's report, and the history list. Render-only and free
 * of server imports, so the live-debate island and the saved-debate page share them.
 *
 * @module
 */
import { RelativeTime } from "@/components/RelativeTime.tsx";
import { DEBATE_STATUS_TEXT } from "@/components/debate_status.ts";
import type { Role } from "@/lib/debates/model.ts";
import type { Synthesis } from "@/lib/schemas/debate.ts";
import { AgreementColumns, ReportPoints } from "@/components/ReportPoints.tsx";

/** One side of a debate as shown. */
export interface SideView {
  name: string;
  avatar: string | null;
  /** The opponent's role line ("Evidence-first skeptic"). */
  title?: string;
}

/** One turn as shown. */
export interface TurnView {
  role: Role;
  name: string;
  avatar: string | null;
  content: string;
  /** True while the speaker is still writing. */
  typing?: boolean;
}

/** One line of the history list. */
export interface HistoryItemView {
  id: string;
  topic: string;
  opponentName: string;
  status: string;
  winner?: Synthesis["winner"];
  /** ISO 8601. */
  createdAt: string;
}

function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean).slice(0, 2);
  return (words.map((w) => [...w][0] ?? "").join("") || "?").toUpperCase();
}

/** A speaker's picture, or their initials when they have none. */
export function SpeakerAvatar({ side, large }: { side: SideView; large?: boolean }) {
  const cls = `avatar debate-avatar${large ? " avatar-lg" : ""}`;
  return side.avatar
    ? <img class={cls} src={side.avatar} alt="" width={large ? 72 : 40} height={large ? 72 : 40} />
    : <span class={`${cls} avatar-initials`} aria-hidden="true">{initials(side.name)}</span>;
}

/**
 * "Ada vs Vera Quell, Evidence-first skeptic". `viewerIsOwner` false (someone else's saved
 * debate) names the agent as the owner's rather than "Your agent".
 */
export function DebateVersus(
  { user, opponent, viewerIsOwner = true }: {
    user: SideView;
    opponent: SideView;
    viewerIsOwner?: boolean;
  },
) {
  return (
    <div class="debate-versus" data-testid="debate-versus">
      <div class="debate-side debate-side-user">
        <SpeakerAvatar side={user} large />
        <div>
          <strong dir="auto">{user.name}</strong>
          <div class="hint">{viewerIsOwner ? "Your agent" : `${user.name}'s agent`}</div>
        </div>
      </div>
      <span class="debate-vs" aria-hidden="true">vs</span>
      <div class="debate-side debate-side-opponent">
        <SpeakerAvatar side={opponent} large />
        <div>
          <strong>{opponent.name}</strong>
          {opponent.title && <div class="hint">{opponent.title}</div>}
        </div>
      </div>
    </div>
  );
}

/** The turns so far; the last may still be typing. */
export function DebateTranscript(
  { turns, viewerIsOwner = true }: { turns: TurnView[]; viewerIsOwner?: boolean },
) {
  return (
    <ol
      class="debate-transcript"
      id="debate-transcript"
      aria-live="polite"
      aria-label="Transcript"
      tabIndex={-1}
      data-testid="debate-transcript"
    >
      {turns.map((t, i) => (
        <li
          key={i}
          class={`debate-turn debate-turn-${t.role}`}
          data-testid="debate-turn"
          data-role={t.role}
          data-typing={t.typing ? "true" : undefined}
        >
          <SpeakerAvatar side={t} />
          <div class="debate-bubble">
            <div class="debate-speaker">
              {t.name}
              <span class="visually-hidden">
                {t.role === "user" ? (viewerIsOwner ? " (your agent)" : " (agent)") : " (opponent)"}
              </span>
            </div>
            <p>
              {t.content}
              {t.typing && <TypingDots label={`${t.name} is writing`} />}
            </p>
          </div>
        </li>
      ))}
    </ol>
  );
}

/** Three pulsing dots with an accessible label. */
export function TypingDots({ label }: { label: string }) {
  return (
    <span class="typing" role="status" data-testid="typing">
      <span class="visually-hidden">{label}</span>
      <span class="typing-dot" aria-hidden="true" />
      <span class="typing-dot" aria-hidden="true" />
      <span class="typing-dot" aria-hidden="true" />
    </span>
  );
}

/** The judge's report: verdict, conclusion, consensus, disagreements, recommendations. */
export function SynthesisReport(
  { synthesis, userName, opponentName }: {
    synthesis: Synthesis;
    userName: string;
    opponentName: string;
  },
) {
  const verdict = synthesis.winner === "tie"
    ? "A tie"
    : `${synthesis.winner === "user" ? userName : opponentName} wins`;
  return (
    <section class="card synthesis" data-testid="synthesis" aria-labelledby="synthesis-title">
      <h2 id="synthesis-title">The judge's report</h2>
      <div class={`synthesis-verdict synthesis-verdict-${synthesis.winner}`}>
        <strong data-testid="synthesis-winner">{verdict}</strong>
        <p>{synthesis.winnerReason}</p>
      </div>
      <h3>Conclusion</h3>
      <p class="synthesis-conclusion" data-testid="synthesis-conclusion">{synthesis.conclusion}</p>
      <AgreementColumns consensus={synthesis.consensus} disagreements={synthesis.disagreements} />
      <h3>Recommendations</h3>
      <ReportPoints items={synthesis.recommendations} empty="No recommendations were made." />
    </section>
  );
}

/** The label on anything the offline stand-in model wrote. */
export function StandInNote() {
  return (
    <p class="alert alert-info standin-note" data-testid="standin-note">
      Local mode: this debate is written by Parley's offline stand-in model, which composes simple
      on-topic sentences. Set <code>LLM_API_KEY</code> for a real language model.
    </p>
  );
}

/**
 * The user's recent debates, linking to each saved debate. `starting`: a first debate is
 * being set up (no id yet, so nothing to list), and "will be listed here" is not said under it.
 */
export function DebateHistory(
  { items, userName, starting = false }: {
    items: HistoryItemView[];
    userName: string;
    starting?: boolean;
  },
) {
  if (items.length === 0) {
    if (starting) return null;
    return (
      <p class="muted" data-testid="debate-history-empty">Your debates will be listed here.</p>
    );
  }
  return (
    <ul class="list debate-history" data-testid="debate-history">
      {items.map((d) => (
        <li key={d.id} class="card debate-history-item">
          <a href={`/debates/${encodeURIComponent(d.id)}`}>
            <strong dir="auto">{d.topic}</strong>
          </a>
          <div class="meta">
            <span>vs {d.opponentName}</span>
            <span class={`debate-status debate-status-${d.status}`}>
              {DEBATE_STATUS_TEXT[d.status] ?? d.status}
            </span>
            {d.winner && (
              <span>
                {d.winner === "tie"
                  ? "Tie"
                  : `Winner: ${d.winner === "user" ? userName : d.opponentName}`}
              </span>
            )}
            <RelativeTime ms={Date.parse(d.createdAt)} />
          </div>
        </li>
      ))}
    </ul>
  );
}
