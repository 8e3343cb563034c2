import { Share2 } from "@/components/icons.gen.ts";
import { useState } from "preact/hooks";

interface Props {
  /** The question shared (or whose answer is shared); ignored when `path` is given. */
  questionId?: string;
  /** A page of this site to share instead, by path (a debate: `/debates/:id`). */
  path?: string;
  /** The answer or reply shared; the question itself when absent. */
  messageId?: string;
  /** The shared title (the question's). */
  title: string;
  /** What is shared, for screen readers ("Ada's answer"). */
  label: string;
}

/** Copies `text` with the async Clipboard API, else a hidden textarea and execCommand. */
async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch { /* denied or insecure context: try the old way */ }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch { /* unsupported */ }
  area.remove();
  return ok;
}

/**
 * "Share": the Web Share API where the browser has it (phones), else the absolute link
 * (`/questions/:id`, `…#<messageId>` for an answer, or `path`, such as a debate's) is copied, with a polite
 * "Link copied" status; when even copying fails, the link is shown to copy by hand.
 */
export default function ShareButton(props: Props) {
  const [status, setStatus] = useState("");
  const [manual, setManual] = useState<string | null>(null);

  const share = async () => {
    const url = props.path !== undefined
      ? `${location.origin}${props.path}`
      : `${location.origin}/questions/${encodeURIComponent(props.questionId ?? "")}${
        props.messageId ? `#${encodeURIComponent(props.messageId)}` : ""
      }`;
    setManual(null);
    if (typeof navigator.share === "function") {
      try {
        await navigator.share({ title: props.title, url });
        return;
      } catch (e) {
        // The person closed the share sheet: nothing to say.
        if (e instanceof DOMException && e.name === "AbortError") return;
      }
    }
    if (await copyText(url)) {
      setStatus("Link copied");
      setTimeout(() => setStatus(""), 4000);
    } else {
      setStatus("Copy this link:");
      setManual(url);
    }
  };

  return (
    <div class="share">
      <button
        type="button"
        class="btn btn-small btn-quiet"
        aria-label={`Share ${props.label}`}
        data-testid="share"
        onClick={share}
      >
        <Share2 class="icon" aria-hidden="true" /> Share
      </button>
      <span class="share-status" role="status" aria-live="polite">
        {status}
        {manual && (
          <input
            class="share-link"
            type="text"
            readOnly
            value={manual}
            aria-label="Link to copy"
            onFocus={(e) => (e.currentTarget as HTMLInputElement).select()}
          />
        )}
      </span>
    </div>
  );
}
