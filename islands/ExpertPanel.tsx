import { useEffect, useRef, useState } from "preact/hooks";
import { AuthorLine } from "@/components/AuthorLine.tsx";
import { FlagAction } from "@/components/PostTools.tsx";
import { VoteAndFavorite } from "@/components/VoteAndFavorite.tsx";
import MessageForm from "@/islands/MessageForm.tsx";
import ShareButton from "@/islands/ShareButton.tsx";
import { sendJson } from "@/lib/client/api.ts";
import { useTypedBefore } from "@/lib/client/typed_before.ts";
import { CONTENT_MAX, PANEL_SHOWN_EVENT } from "@/lib/input_limits.ts";

interface ExpertInfo {
  id: string;
  name: string;
  title: string;
  avatar: string;
  expertise: string[];
}

interface Props {
  questionId: string;
  /** The question's title, for Share. */
  questionTitle: string;
  experts: ExpertInfo[];
  /** Experts already in the thread (written or still to write): not offered for invitation. */
  inThread: string[];
  /** The viewer's id, null signed out. */
  viewerId: string | null;
  /** Where the vote buttons send a signed-out viewer (null when signed in). */
  signInHref: string | null;
}

/** A panel message as the stream sends it (the stored message). */
interface LiveMessage {
  id: string;
  content: string;
  createdAt: number;
  expertId?: string;
  replyTo?: string;
  upvotes?: number;
  downvotes?: number;
  author: { id: string; name: string; avatar: string | null };
}

/**
 * A panel message that arrived over the stream, drawn like the server draws one: avatar,
 * name, time and the "AI expert" badge, then vote, favorite, reply, share and flag. The
 * text stays plain until the next page load renders its Markdown.
 */
function LiveExpertCard(
  { m, title, props }: { m: LiveMessage; title: string; props: Props },
) {
  const label = `${m.author.name}'s ${m.replyTo ? "reply" : "answer"}`;
  return (
    <li class="message" id={m.id} data-testid="live-expert-message">
      <article class="card message-card">
        <div class="message-body">
          <AuthorLine
            author={m.author}
            createdAt={m.createdAt}
            createdBy="system"
            now={Date.now()}
            verb={m.replyTo ? "replied" : "answered"}
            expertTitle={title}
          />
          <p class="expert-live-text" dir="auto">{m.content}</p>
        </div>
        <div class="row actions">
          <VoteAndFavorite
            targetType="message"
            targetId={m.id}
            upvotes={m.upvotes ?? 0}
            downvotes={m.downvotes ?? 0}
            vote={null}
            favorited={false}
            signInHref={props.signInHref}
            label={label}
          />
          {props.viewerId !== null && (
            <MessageForm
              questionId={props.questionId}
              replyTo={m.id}
              replyToName={m.author.name}
              maxLength={CONTENT_MAX}
            />
          )}
          <ShareButton
            questionId={props.questionId}
            messageId={m.id}
            title={props.questionTitle}
            label={label}
          />
          <FlagAction
            viewerId={props.viewerId}
            authorId={m.author.id}
            targetType="message"
            targetId={m.id}
            label={label}
          />
        </div>
      </article>
    </li>
  );
}

/**
 * The AI expert panel, live: follows `GET /api/questions/:id/panel/events` (typing
 * indicator, then each message as it is stored; resumes with `Last-Event-ID`), shows
 * messages not yet on the page as full cards, a quiet line when the panel could not join,
 * and the "Invite an expert" picker, which offers only experts not yet in the thread.
 */
export default function ExpertPanel(props: Props) {
  const [typing, setTyping] = useState<{ name: string; title: string } | null>(null);
  const [live, setLive] = useState<LiveMessage[]>([]);
  const [inThread, setInThread] = useState<string[]>(props.inThread);
  const [quiet, setQuiet] = useState<string | null>(null);
  // An expert picked before this script ran stays picked (and is the one invited).
  const [pick, setPick] = useTypedBefore("invite-expert");
  const [note, setNote] = useState<string | null>(null);
  const [gen, setGen] = useState(0);
  const lastId = useRef("");
  const byId = (id: string) => props.experts.find((e) => e.id === id);
  // Experts already in the thread (or just invited) would only repeat themselves.
  const invitable = props.experts.filter((x) => !inThread.includes(x.id));
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
      // Writing now: in the thread already, so no longer offered for invitation.
      if (d.expertId) setInThread((a) => a.includes(d.expertId) ? a : [...a, d.expertId]);
    });
    es.addEventListener("message", (e) => {
      track(e as MessageEvent);
      const { message } = JSON.parse((e as MessageEvent).data) as { message: LiveMessage };
      setTyping(null);
      if (message.expertId) {
        setInThread((a) => a.includes(message.expertId!) ? a : [...a, message.expertId!]);
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
      setInThread((a) => a.includes(pick) ? a : [...a, pick]);
      setPick("");
      setGen((g) => g + 1);
    } else setNote(r.error);
  };

  return (
    <div class="expert-panel" data-testid="expert-panel">
      <div aria-live="polite">
        {live.length > 0 && (
          <ol class="thread">
            {live.map((m) => (
              <LiveExpertCard
                key={m.id}
                m={m}
                title={byId(m.expertId ?? "")?.title ?? ""}
                props={props}
              />
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
      {props.viewerId !== null && (
        invitable.length > 0
          ? (
            <form class="row invite-expert" onSubmit={invite}>
              <label for="invite-expert">Invite an expert</label>
              <select
                id="invite-expert"
                value={pick}
                onChange={(e) => setPick((e.target as HTMLSelectElement).value)}
              >
                <option value="">Choose…</option>
                {invitable.map((x) => (
                  <option value={x.id} key={x.id}>{x.name} — {x.title}</option>
                ))}
              </select>
              <button type="submit" class="btn btn-small" disabled={!pick}>Invite</button>
              {note && <span class="hint" role="status">{note}</span>}
            </form>
          )
          : (
            <p class="hint" role="status" data-testid="panel-all-in">
              {note ? `${note} ` : ""}Every AI expert is already in this thread.
            </p>
          )
      )}
    </div>
  );
}
