import type { Ref } from "preact";
import { useEffect, useState } from "preact/hooks";
import { sendJson } from "@/lib/client/api.ts";
import { counterText } from "@/lib/input_limits.ts";
import { CharCounter, counterId } from "./CharCounter.tsx";

/** Props of {@link MarkdownEditor}. */
export interface MarkdownEditorProps {
  /** The textarea's id (the label's `for`); the tabs and panels derive their ids from it. */
  id: string;
  /** Form field name (a plain form posts it). */
  name: string;
  value: string;
  onInput: (value: string) => void;
  /**
   * The field's limit: a live counter shows near it (./CharCounter.tsx). The textarea has
   * no `maxlength`, so pasted text is never cut silently; the form refuses it in words.
   */
  maxLength: number;
  /** Ids of hint or error texts describing the field. */
  describedBy?: string;
  invalid?: boolean;
  autoFocus?: boolean;
  fieldRef?: Ref<HTMLTextAreaElement>;
  /** Keys in the textarea (Esc, Ctrl/Cmd+Enter), for the form around it. */
  onKeyDown?: (e: KeyboardEvent) => void;
  rows?: number;
}

/**
 * A Markdown textarea with Write and Preview tabs. Preview is rendered by the server
 * (`POST /api/markdown/preview`) through the same sanitizer as the page, so what it shows
 * is what will be posted. The textarea stays in the form while previewing (hidden), so a
 * plain form still posts it; before the script runs it is a plain textarea.
 */
export function MarkdownEditor(props: MarkdownEditorProps) {
  const [live, setLive] = useState(false);
  const [tab, setTab] = useState<"write" | "preview">("write");
  const [preview, setPreview] = useState<{ html: string } | { error: string } | null>(null);
  useEffect(() => setLive(true), []);
  const writeTab = `${props.id}-write-tab`;
  const previewTab = `${props.id}-preview-tab`;
  const previewPanel = `${props.id}-preview`;
  const count = props.value.trim().length;
  const countShown = counterText(count, props.maxLength) !== null;
  const describedBy = [props.describedBy, countShown ? counterId(props.id) : undefined]
    .filter(Boolean).join(" ") || undefined;

  const showPreview = async () => {
    setTab("preview");
    if (!props.value.trim()) {
      setPreview({ html: '<p class="muted">Nothing to preview yet.</p>' });
      return;
    }
    setPreview(null);
    const r = await sendJson<{ html: string }>("POST", "/api/markdown/preview", {
      text: props.value,
    });
    setPreview(r.ok ? { html: r.data.html } : { error: `Preview failed: ${r.error}` });
  };
  const select = (next: "write" | "preview") => {
    if (next === tab) return;
    if (next === "preview") showPreview();
    else setTab("write");
  };
  // Arrow keys move between the two tabs (the ARIA tabs pattern).
  const tabKeys = (e: KeyboardEvent) => {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    e.preventDefault();
    const next = tab === "write" ? "preview" : "write";
    select(next);
    document.getElementById(next === "write" ? writeTab : previewTab)?.focus();
  };

  return (
    <div class="md-editor" data-tab={tab}>
      {live && (
        <div class="md-tabs" role="tablist" aria-label="Write or preview">
          <button
            type="button"
            role="tab"
            id={writeTab}
            class="btn btn-small md-tab"
            aria-selected={tab === "write"}
            aria-controls={props.id}
            tabIndex={tab === "write" ? 0 : -1}
            onClick={() => select("write")}
            onKeyDown={tabKeys}
          >
            Write
          </button>
          <button
            type="button"
            role="tab"
            id={previewTab}
            class="btn btn-small md-tab"
            aria-selected={tab === "preview"}
            aria-controls={previewPanel}
            tabIndex={tab === "preview" ? 0 : -1}
            onClick={() => select("preview")}
            onKeyDown={tabKeys}
          >
            Preview
          </button>
        </div>
      )}
      <textarea
        id={props.id}
        name={props.name}
        ref={props.fieldRef}
        value={props.value}
        rows={props.rows}
        hidden={tab === "preview"}
        aria-invalid={props.invalid || count > props.maxLength ? "true" : undefined}
        aria-describedby={describedBy}
        autoFocus={props.autoFocus}
        onInput={(e) => props.onInput((e.target as HTMLTextAreaElement).value)}
        onKeyDown={props.onKeyDown}
      />
      {tab === "preview" && (
        <div
          id={previewPanel}
          class="md-preview"
          role="tabpanel"
          aria-labelledby={previewTab}
          aria-busy={preview === null ? "true" : undefined}
          data-testid="md-preview"
        >
          {preview === null
            ? <p class="muted">Rendering preview…</p>
            : "error" in preview
            ? <p class="field-error" role="alert">{preview.error}</p>
            : (
              // The server's sanitized rendering (lib/markdown.ts), as the page shows it.
              // deno-lint-ignore react-no-danger
              <div class="prose" dangerouslySetInnerHTML={{ __html: preview.html }} />
            )}
        </div>
      )}
      <CharCounter id={counterId(props.id)} count={count} max={props.maxLength} />
    </div>
  );
}

/** True for Ctrl+Enter or Cmd+Enter: the forms' submit shortcut. */
export function isSubmitShortcut(e: KeyboardEvent): boolean {
  return e.key === "Enter" && (e.ctrlKey || e.metaKey);
}
