import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { useTypedBefore } from "@/lib/client/typed_before.ts";
import { isSubmitShortcut, MarkdownEditor } from "@/components/MarkdownEditor.tsx";
import { newIdempotencyKey, sendJson } from "@/lib/client/api.ts";
import { contentTooLong, formatCount } from "@/lib/input_limits.ts";

interface Props {
  questionId: string;
  /** Set for a reply: the message replied to, and its author's name. */
  replyTo?: string;
  replyToName?: string;
  /** Longest content accepted. */
  maxLength: number;
}

/**
 * The answer form under a question, or (with `replyTo`) a reply form that opens from a
 * "Reply" button. Validation messages come from the server; on success the page reloads
 * at the new message, rendered (Markdown) by the server.
 */
export default function MessageForm(props: Props) {
  const isReply = Boolean(props.replyTo);
  const fieldId = `content-${props.replyTo ?? "answer"}`;
  const [open, setOpen] = useState(!isReply);
  // What was typed before this script ran is kept, not wiped by hydration.
  const [content, setContent] = useTypedBefore(fieldId);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The AI draft the text started from (sent along: the post says "drafted with AI" unless edited a lot).
  const [aiDraft, setAiDraft] = useState<string | null>(null);
  const [drafting, setDrafting] = useState(false);
  const draftWithAi = async () => {
    setDrafting(true);
    setError(null);
    const r = await sendJson<{ content: string }>("POST", "/api/ai/draft", {
      questionId: props.questionId,
      replyTo: props.replyTo,
    });
    setDrafting(false);
    if (!r.ok) return setError(r.error);
    setContent(r.data.content);
    setAiDraft(r.data.content);
    setSubmissionKey(newIdempotencyKey());
    field.current?.focus();
  };
  // One Idempotency-Key per submission: made when the form is shown, reused when the same
  // text is sent again (a double click, a retry after a network error), new once edited.
  const [submissionKey, setSubmissionKey] = useState(newIdempotencyKey);
  const field = useRef<HTMLTextAreaElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  // The button that had focus disappears when the form opens (and the reverse on Cancel):
  // move focus along so keyboard users are not dropped at the top of the page.
  const toggled = useRef(false);
  // A layout effect, so the very next keystroke already lands in the box.
  useLayoutEffect(() => {
    if (!toggled.current) return;
    (open ? field.current : toggle.current)?.focus();
  }, [open]);
  const setOpenByUser = (value: boolean) => {
    toggled.current = true;
    setOpen(value);
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    if (!content.trim()) {
      setError(isReply ? "Write a reply first." : "Write an answer first.");
      return;
    }
    // Over the limit: refused here in the server's words, never cut.
    if (content.trim().length > props.maxLength) {
      setError(contentTooLong(content.trim().length));
      field.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    const r = await sendJson<{ id: string }>(
      "POST",
      `/api/questions/${encodeURIComponent(props.questionId)}/messages`,
      { content, replyTo: props.replyTo, ...(aiDraft ? { aiDraft } : {}) },
      { "idempotency-key": submissionKey },
    );
    if (r.ok) {
      const id = encodeURIComponent(r.data.id);
      location.assign(`/questions/${encodeURIComponent(props.questionId)}?posted=${id}#${id}`);
      return;
    }
    setBusy(false);
    setError(r.error);
  };

  if (!open) {
    return (
      <button
        type="button"
        class="btn btn-small reply-toggle"
        aria-expanded="false"
        ref={toggle}
        onClick={() => setOpenByUser(true)}
      >
        Reply{props.replyToName
          ? <span class="visually-hidden">to {props.replyToName}</span>
          : null}
      </button>
    );
  }
  return (
    <form
      class={`stack message-form${isReply ? " reply-form" : ""}`}
      onSubmit={submit}
      noValidate
      onKeyDown={(e) => {
        // Esc anywhere in the reply box closes it; focus goes back to its Reply button.
        if (e.key === "Escape" && isReply) {
          e.preventDefault();
          setOpenByUser(false);
        }
      }}
    >
      <div>
        <label for={fieldId}>
          {isReply ? `Reply${props.replyToName ? ` to ${props.replyToName}` : ""}` : "Your answer"}
        </label>
        <MarkdownEditor
          id={fieldId}
          name="content"
          fieldRef={field}
          value={content}
          maxLength={props.maxLength}
          invalid={Boolean(error)}
          describedBy={`${fieldId}-hint${error ? ` ${fieldId}-error` : ""}`}
          onInput={(value) => {
            setContent(value);
            setSubmissionKey(newIdempotencyKey());
          }}
          onKeyDown={(e) => {
            if (isSubmitShortcut(e)) {
              e.preventDefault();
              submit(e);
            }
          }}
        />
        <p class="hint" id={`${fieldId}-hint`}>
          Markdown works: **bold**, `code`, lists, links. Up to {formatCount(props.maxLength)}{" "}
          characters. Ctrl+Enter posts{isReply ? ", Esc closes" : ""}.
        </p>
        {error && <p class="field-error" id={`${fieldId}-error`} role="alert">{error}</p>}
      </div>
      <div class="row">
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {busy ? "Posting…" : isReply ? "Post reply" : "Post answer"}
        </button>
        <button type="button" class="btn" disabled={drafting} onClick={draftWithAi}>
          {drafting ? "Drafting…" : "Draft with AI"}
        </button>
        {isReply && (
          <button
            type="button"
            class="btn"
            onClick={() => setOpenByUser(false)}
          >
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
