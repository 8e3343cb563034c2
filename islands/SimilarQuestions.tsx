import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { AnsweredBadge } from "@/components/Lifecycle.tsx";

/** One suggestion, as `GET /api/questions/similar` answers it. */
interface Similar {
  id: string;
  title: string;
  answerCount: number;
  accepted: boolean;
  score: number;
}

interface Props {
  /** The id of the title input the suggestions follow. */
  inputId: string;
}

/** Quiet time after the last keystroke before asking the server. */
const DEBOUNCE_MS = 250;
/** Fewer characters than this (trimmed) ask nothing. */
const MIN_CHARS = 3;

/** What the box shows: nothing yet, the last answer's questions, or "none found". */
type Shown = { kind: "idle" } | { kind: "list"; questions: Similar[] } | { kind: "none" };

function answersInWords(n: number): string {
  return n === 0 ? "no answers yet" : n === 1 ? "1 answer" : `${n} answers`;
}

/**
 * Similar questions under /ask's title: as the title is typed (debounced, from 3
 * characters, a newer keystroke aborting the older request) up to 5 existing questions
 * appear, each a link with its answer count and "answered" when an answer is accepted. The
 * box is a polite live region; it keeps the previous list while the next one loads and
 * never shrinks while the title is being typed, so the form below does not jump. Without
 * JavaScript the box stays empty and the form works as ever.
 */
export default function SimilarQuestions({ inputId }: Props) {
  const [shown, setShown] = useState<Shown>({ kind: "idle" });
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const tallest = useRef(0);

  useEffect(() => {
    const input = document.getElementById(inputId) as HTMLInputElement | null;
    if (!input) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight: AbortController | null = null;
    let lastAsked = "";

    const ask = async (title: string) => {
      inFlight?.abort();
      const controller = new AbortController();
      inFlight = controller;
      lastAsked = title;
      setBusy(true);
      try {
        const res = await fetch(`/api/questions/similar?title=${encodeURIComponent(title)}`, {
          headers: { accept: "application/json" },
          signal: controller.signal,
        });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const { questions } = await res.json() as { questions: Similar[] };
        if (inFlight !== controller) return;
        setShown(questions.length > 0 ? { kind: "list", questions } : { kind: "none" });
      } catch {
        // Aborted by a newer keystroke, or the network failed: suggestions are a help,
        // never in the way of asking, so a failure shows nothing new.
      } finally {
        if (inFlight === controller) {
          inFlight = null;
          setBusy(false);
        }
      }
    };

    const onInput = () => {
      clearTimeout(timer);
      const title = input.value.trim();
      if (title.length < MIN_CHARS) {
        inFlight?.abort();
        inFlight = null;
        lastAsked = "";
        setBusy(false);
        setShown({ kind: "idle" });
        return;
      }
      if (title === lastAsked) return;
      timer = setTimeout(() => ask(title), DEBOUNCE_MS);
    };

    input.addEventListener("input", onInput);
    // A form shown again after a refused submit already has a title.
    onInput();
    return () => {
      clearTimeout(timer);
      inFlight?.abort();
      input.removeEventListener("input", onInput);
    };
  }, [inputId]);

  // The box grows to its tallest content while the title is typed and keeps that height,
  // so a shorter list (or "none found") does not pull the fields below upward; it is
  // released when the title is cleared.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    if (shown.kind === "idle") {
      tallest.current = 0;
      el.style.minHeight = "";
      return;
    }
    tallest.current = Math.max(tallest.current, el.offsetHeight);
    el.style.minHeight = `${tallest.current}px`;
  }, [shown]);

  return (
    <div
      ref={box}
      class={shown.kind === "idle" ? "similar-questions" : "similar-questions similar-shown"}
      aria-live="polite"
      aria-busy={busy ? "true" : undefined}
      data-testid="similar-questions"
    >
      {shown.kind === "list" && (
        <>
          <p class="similar-heading" id="similar-heading">
            Already asked? These questions look similar:
          </p>
          <ul class="similar-list" aria-labelledby="similar-heading">
            {shown.questions.map((q) => (
              <li key={q.id} data-testid="similar-question">
                <a href={`/questions/${encodeURIComponent(q.id)}`} dir="auto">{q.title}</a>
                <span class="similar-meta">
                  {q.accepted && (
                    <>
                      <AnsweredBadge />
                      {" "}
                    </>
                  )}
                  <span class="hint">{answersInWords(q.answerCount)}</span>
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      {shown.kind === "none" && (
        <p class="hint similar-none">No similar questions found — yours may be the first.</p>
      )}
    </div>
  );
}
