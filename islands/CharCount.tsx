import { useEffect, useState } from "preact/hooks";
import { CharCounter, counterId } from "@/components/CharCounter.tsx";
import { COUNTER_FROM } from "@/lib/input_limits.ts";

interface Props {
  /** The id of the server-rendered `<input>` or `<textarea>` to count. */
  inputId: string;
  /** Its limit (characters after trimming, as the server counts). */
  max: number;
}

/**
 * A live counter for a plain server-rendered field (the title of the ask and edit forms):
 * it appears near the limit and says by how much the text is over; the field describes
 * itself by it while it shows. The field has no `maxlength`, so a pasted title is never cut
 * silently: the server refuses it with a sentence and the form keeps it.
 */
export default function CharCount({ inputId, max }: Props) {
  const [count, setCount] = useState(0);
  useEffect(() => {
    const field = document.getElementById(inputId) as HTMLInputElement | null;
    if (!field) return;
    const update = () => setCount(field.value.trim().length);
    update();
    field.addEventListener("input", update);
    return () => field.removeEventListener("input", update);
  }, [inputId]);
  useEffect(() => {
    const field = document.getElementById(inputId);
    if (!field) return;
    const id = counterId(inputId);
    const ids = (field.getAttribute("aria-describedby") ?? "").split(/\s+/).filter((x) =>
      x && x !== id
    );
    const shown = document.getElementById(id) !== null;
    field.setAttribute("aria-describedby", [...ids, ...(shown ? [id] : [])].join(" "));
    // Over the limit the field is invalid; back under, only the mark set here is removed
    // (a refused submit's own mark stays).
    if (count > max) {
      field.setAttribute("aria-invalid", "true");
      field.dataset.overLimit = "1";
    } else if (field.dataset.overLimit) {
      field.removeAttribute("aria-invalid");
      delete field.dataset.overLimit;
    }
  }, [count >= max * COUNTER_FROM, count > max]);
  return <CharCounter id={counterId(inputId)} count={count} max={max} />;
}
