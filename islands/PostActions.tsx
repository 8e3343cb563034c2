import { Check } from "@/components/icons.gen.ts";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { isSubmitShortcut, MarkdownEditor } from "@/components/MarkdownEditor.tsx";
import { sendJson } from "@/lib/client/api.ts";
import { contentTooLong } from "@/lib/input_limits.ts";

interface Props {
  kind: "question" | "message";
  id: string;
  questionId: string;
  /** What the buttons act on, for screen readers ("your answer", "this question"). */
  label: string;
  /** A message's Markdown, for the inline edit box (messages only). */
  content?: string;
  maxLength: number;
  canEdit: boolean;
  canDelete: boolean;
  /** Set for the asker on a top-level answer: whether it is the accepted one. */
  accepted?: boolean;
}

const qPath = (id: string) => `/questions/${encodeURIComponent(id)}`;

/**
 * The per-post actions of the content lifecycle: Edit (inline for answers and replies, the edit page for
 * a question), Delete (after a confirmation in a native `<dialog>`, which keyboards and
 * Esc handle) and, for the asker, Accept / Unaccept on a top-level answer.
 */
export default function PostActions(props: Props) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(props.content ?? "");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const toggled = useRef(false);
  const what = props.kind === "question" ? "question" : "post";
  const fieldId = `edit-${props.id}`;

  useLayoutEffect(() => {
    if (!toggled.current) return;
    (editing ? field.current : editButton.current)?.focus();
  }, [editing]);
  const setEditingByUser = (v: boolean) => {
    toggled.current = true;
    setEditing(v);
    setError(null);
  };

  const save = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    // Over the limit: refused here in the server's words, never cut.
    if (draft.trim().length > props.maxLength) {
      setError(contentTooLong(draft.trim().length));
      return;
    }
    setBusy(true);
    setError(null);
    const r = await sendJson("PATCH", `/api/messages/${encodeURIComponent(props.id)}`, {
      content: draft,
    });
    if (r.ok) {
      const id = encodeURIComponent(props.id);
      location.assign(`${qPath(props.questionId)}?edited=${id}#${id}`);
      return;
    }
    // Refused: the text stays in the box, with the reason beside it.
    setBusy(false);
    setError(r.error);
  };

  const remove = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const path = props.kind === "question"
      ? `/api/questions/${encodeURIComponent(props.id)}`
      : `/api/messages/${encodeURIComponent(props.id)}`;
    const r = await sendJson("DELETE", path);
    if (r.ok) {
      if (props.kind === "question") location.assign("/?deleted=1");
      else location.assign(`${qPath(props.questionId)}?removed=1#answers-heading`);
      return;
    }
    setBusy(false);
    dialog.current?.close();
    setError(r.error);
  };

  const accept = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const r = await sendJson(
      "POST",
      `/api/questions/${encodeURIComponent(props.questionId)}/accept`,
      {
        messageId: props.accepted ? null : props.id,
      },
    );
    if (r.ok) {
      const id = encodeURIComponent(props.id);
      location.assign(`${qPath(props.questionId)}?accepted=${id}#${id}`);
      return;
    }
    setBusy(false);
    setError(r.error);
  };

  return (
    <div class="post-actions">
      <div class="row">
        {props.accepted !== undefined && (
          <button
            type="button"
            class={`btn btn-small accept-btn${props.accepted ? " is-accepted" : ""}`}
            aria-pressed={props.accepted}
            disabled={busy}
            onClick={accept}
          >
            <Check class="icon" aria-hidden="true" /> {props.accepted ? "Accepted" : "Accept"}
            <span class="visually-hidden">{` ${props.label}`}</span>
          </button>
        )}
        {props.canEdit && (props.kind === "question"
          ? (
            <a class="btn btn-small" href={`${qPath(props.id)}/edit`}>
              Edit<span class="visually-hidden">{` ${props.label}`}</span>
            </a>
          )
          : !editing && (
            <button
              type="button"
              class="btn btn-small"
              ref={editButton}
              aria-expanded="false"
              onClick={() => setEditingByUser(true)}
            >
              Edit<span class="visually-hidden">{` ${props.label}`}</span>
            </button>
          ))}
        {props.canDelete && (
          <button
            type="button"
            class="btn btn-small btn-danger"
            disabled={busy}
            onClick={() => dialog.current?.showModal()}
          >
            Delete<span class="visually-hidden">{` ${props.label}`}</span>
          </button>
        )}
      </div>
      {error && !editing && <p class="inline-error" role="alert">{error}</p>}
      {editing && (
        <form
          class="stack edit-form"
          onSubmit={save}
          noValidate
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.preventDefault();
              setEditingByUser(false);
            }
          }}
        >
          <label for={fieldId}>Edit {props.label}</label>
          <MarkdownEditor
            id={fieldId}
            name="content"
            fieldRef={field}
            value={draft}
            maxLength={props.maxLength}
            invalid={Boolean(error)}
            describedBy={error ? `${fieldId}-error` : undefined}
            onInput={setDraft}
            onKeyDown={(e) => {
              if (isSubmitShortcut(e)) save(e);
            }}
          />
          {error && <p class="field-error" id={`${fieldId}-error`} role="alert">{error}</p>}
          <div class="row">
            <button type="submit" class="btn btn-primary" disabled={busy}>
              {busy ? "Saving…" : "Save"}
            </button>
            <button
              type="button"
              class="btn"
              onClick={() =>
                setEditingByUser(false)}
            >
              Cancel
            </button>
          </div>
        </form>
      )}
      {props.canDelete && (
        <dialog
          ref={dialog}
          class="confirm-dialog"
          aria-labelledby={`${fieldId}-confirm`}
        >
          <form method="dialog" class="stack">
            <p id={`${fieldId}-confirm`}>
              <strong>Delete this {what}?</strong> {props.kind === "question"
                ? "It leaves the feed and search at once, with its answers."
                : "It cannot be undone."}
            </p>
            <div class="row">
              <button type="button" class="btn btn-danger" disabled={busy} onClick={remove}>
                {busy ? "Deleting…" : `Delete ${what}`}
              </button>
              {/* The dialog's own form closes it; Esc does too. Focus starts on Cancel. */}
              <button type="submit" class="btn" autoFocus>Cancel</button>
            </div>
          </form>
        </dialog>
      )}
    </div>
  );
}
