import { Flag } from "@/components/icons.gen.ts";
import { useEffect, useRef, useState } from "preact/hooks";
import { sendJson } from "@/lib/client/api.ts";

interface Props {
  targetType: "question" | "message";
  targetId: string;
  /** What is flagged, for screen readers ("Ada's answer"). */
  label: string;
}

const REASONS = [
  ["spam", "Spam"],
  ["offensive", "Offensive or abusive"],
  ["off_topic", "Off topic"],
  ["other", "Something else"],
] as const;

/**
 * "Flag": a small dialog (reason radios and an optional note) that reports a post to the
 * moderators through `POST /api/flags`. The dialog is drawn on the first click, not on the
 * server: it needs the island's script to open anyway, and a question page drew ~1 KB of
 * it for every answer, each time (a third of a signed-in page's forms).
 */
export default function FlagButton(props: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [drawn, setDrawn] = useState(false);
  const [reason, setReason] = useState<string>("spam");
  const [note, setNote] = useState("");
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const base = `flag-${props.targetId}`;
  // The first click draws the dialog; it opens once it is in the page.
  useEffect(() => {
    if (drawn) dialog.current?.showModal();
  }, [drawn]);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    const r = await sendJson<{ ok: true }>("POST", "/api/flags", {
      targetType: props.targetType,
      targetId: props.targetId,
      reason,
      ...(note.trim() ? { note: note.trim() } : {}),
    });
    setBusy(false);
    if (r.ok || r.status === 409) {
      setDone(true);
      setStatus("Thanks — the moderators will take a look.");
      dialog.current?.close();
    } else {
      setError(r.error);
    }
  };

  return (
    <div class="flag">
      <button
        type="button"
        class="btn btn-small btn-quiet"
        disabled={done}
        aria-label={`Flag ${props.label}`}
        onClick={() => drawn ? dialog.current?.showModal() : setDrawn(true)}
      >
        <Flag class="icon" aria-hidden="true" /> {done ? "Flagged" : "Flag"}
      </button>
      {status && <p class="hint" role="status">{status}</p>}
      {drawn && (
        <dialog ref={dialog} class="flag-dialog" aria-labelledby={`${base}-title`}>
          <form method="dialog" onSubmit={submit}>
            <h2 id={`${base}-title`} dir="auto">Flag {props.label}</h2>
            <fieldset>
              <legend>Why?</legend>
              {REASONS.map(([value, text]) => (
                <label key={value} class="radio">
                  <input
                    type="radio"
                    name={`${base}-reason`}
                    value={value}
                    checked={reason === value}
                    onChange={() => setReason(value)}
                  />{" "}
                  {text}
                </label>
              ))}
            </fieldset>
            <label for={`${base}-note`}>Note for the moderators (optional)</label>
            <textarea
              id={`${base}-note`}
              maxLength={500}
              rows={2}
              value={note}
              onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)}
            />
            {error && <p class="inline-error" role="alert">{error}</p>}
            <div class="row">
              <button type="submit" class="btn btn-primary" disabled={busy}>Send flag</button>
              <button type="button" class="btn" onClick={() => dialog.current?.close()}>
                Cancel
              </button>
            </div>
          </form>
        </dialog>
      )}
    </div>
  );
}
