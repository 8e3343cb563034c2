import { useEffect, useRef, useState } from "preact/hooks";
import { sendJson } from "@/lib/client/api.ts";
import { PANEL_SHOWN_EVENT } from "@/lib/input_limits.ts";

interface ExpertInfo {
  id: string;
  name: string;
  title: string;
  avatar: string;
  expertise: string[];
}

interface Props {
  questionId: string;
  experts: ExpertInfo[];
  signedIn: boolean;
}

interface LiveMessage {
  id: string;
  content: string;
  expertId?: string;
  replyTo?: string;
  author: { name: string };
}

/**
 * The AI expert panel, live: follows `GET /api/questions/:id/panel/events` (typing
 * indicator, then each message as it is stored; resumes with `Last-Event-ID`), shows
 * messages not yet on the page, a quiet line when the panel could not join, and the
 * "Invite an expert" picker (who already answered is marked).
 */
export default function ExpertPanel(props: Props) {
  const [typing, setTyping] = useState<{ name: string; title: string } | null>(null);
  const [live, setLive] = useState<LiveMessage[]>([]);
  const [answered, setAnswered] = useState<string[]>([]);
  const [quiet, setQuiet] = useState<string | null>(null);
  const [pick, setPick] = useState("");
  const [note, setNote] = useState<string | null>(null);
  const [gen, setGen] = useState(0);
  const lastId = useRef("");
  const byId = (id: string) => props.experts.find((e) => e.id === id);
  // Tell the "N new answers" pill how many panel messages are on screen already.
  useEffect(() => {
    globalThis.dispatchEvent(new CustomEvent(PANEL_SHOWN_EVENT, { detail: live.length }));
  }, [live.length]);

  useEffect(() => {
    const q = lastId.current ? `?lastEventId=${encodeURIComponent(lastId.current)}` : "";
    const es = new EventSource(
      `/api/questions/${encodeURIComponent(props.questionId)}/panel/events${q}`,
    );
    const track = (e: MessageEvent) => {
      if (e.lastEventId) lastId.current = e.lastEventId;
    };
    es.addEventListener("typing", (e) => {
      track(e as MessageEvent);
      const d = JSON.parse((e as MessageEvent).data);
      setTyping({ name: d.name, title: d.title });
    });
    es.addEventListener("message", (e) => {
      track(e as MessageEvent);
      const { message } = JSON.parse((e as MessageEvent).data) as { message: LiveMessage };
      setTyping(null);
      if (message.expertId) {
        setAnswered((a) => a.includes(message.expertId!) ? a : [...a, message.expertId!]);
      }
      // Already rendered by the server (the page was loaded after it): not twice.
      if (document.getElementById(message.id)) return;
      setLive((l) => l.some((m) => m.id === message.id) ? l : [...l, message]);
    });
    es.addEventListener("skipped", (e) => {
      track(e as MessageEvent);
      setTyping(null);
      setQuiet(JSON.parse((e as MessageEvent).data).message);
    });
    es.addEventListener("done", (e) => {
      track(e as MessageEvent);
      setTyping(null);
      es.close();
    });
    return () => es.close();
  }, [gen]);

  const invite = async (e: Event) => {
    e.preventDefault();
    if (!pick) return;
    const r = await sendJson(
      "POST",
      `/api/questions/${encodeURIComponent(props.questionId)}/invite`,
      { expertId: pick },
    );
    if (r.ok) {
      setNote(`${byId(pick)?.name ?? "The expert"} was invited and will answer here.`);
      setGen((g) => g + 1);
    } else setNote(r.error);
  };

  return (
    <div class="expert-panel" data-testid="expert-panel">
      <div aria-live="polite">
        {live.length > 0 && (
          <ol class="thread">
            {live.map((m) => (
              <li key={m.id} class="message" data-testid="live-expert-message">
                <article class="card message-card">
                  <div class="meta author-line">
                    <span class="expert-name" dir="auto">{m.author.name}</span>
                    <span class="badge-agent badge-expert" data-testid="badge-expert">
                      AI expert · {byId(m.expertId ?? "")?.title ?? ""}
                    </span>
                  </div>
                  <p class="expert-live-text">{m.content}</p>
                </article>
              </li>
            ))}
          </ol>
        )}
        {typing && (
          <p class="hint" data-testid="expert-typing">
            {typing.name} (AI expert · {typing.title}) is writing…
          </p>
        )}
        {quiet && <p class="hint" data-testid="panel-quiet">{quiet}</p>}
      </div>
      {props.signedIn && (
        <form class="row invite-expert" onSubmit={invite}>
          <label for="invite-expert">Invite an expert</label>
          <select
            id="invite-expert"
            value={pick}
            onChange={(e) => setPick((e.target as HTMLSelectElement).value)}
          >
            <option value="">Choose…</option>
            {props.experts.map((x) => (
              <option value={x.id} key={x.id}>
                {x.name} — {x.title}
                {answered.includes(x.id) ? " (already answered)" : ""}
              </option>
            ))}
          </select>
          <button type="submit" class="btn btn-small" disabled={!pick}>Invite</button>
          {note && <span class="hint" role="status">{note}</span>}
        </form>
      )}
    </div>
  );
}
