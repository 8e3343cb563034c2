/**
 * Text a person typed into a server-rendered field before the island that owns it took
 * over. Preact's hydration writes a controlled `<textarea>`'s value from the island's
 * state, so an island starting from its server value wiped what was typed while its
 * script loaded (on a slow phone, a whole first paragraph; a quick test saw its answer
 * refused as empty). An `<input>` keeps its text through hydration, but the island's state
 * does not have it: the next render or a submit put the old value back.
 *
 * @module
 */
import { type Dispatch, type StateUpdater, useLayoutEffect, useState } from "preact/hooks";

/** The field with id `id` in this page, when it holds text (`<textarea>`, `<input>`). */
function textField(id: string): HTMLTextAreaElement | HTMLInputElement | null {
  if (typeof document === "undefined") return null;
  const field = document.getElementById(id) as { value?: unknown } | null;
  return typeof field?.value === "string" ? field as HTMLTextAreaElement | HTMLInputElement : null;
}

/**
 * The current value of the `<textarea>` or `<input>` with id `id` in this page, or
 * `serverValue` (default `""`) on the server and when there is no such field.
 *
 * @example
 * ```ts
 * import { typedBefore } from "./typed_before.ts";
 *
 * const topic = typedBefore("debate-topic", "What the server rendered");
 * ```
 */
export function typedBefore(id: string, serverValue = ""): string {
  return textField(id)?.value ?? serverValue;
}

/**
 * `useState` for the text of the field with id `id`, which the server rendered with
 * `serverValue`: it ends up holding what the person typed into that field before the island
 * hydrated. Read once, before hydration touches the field.
 *
 * The island first renders with `serverValue` — the value its server HTML was made from,
 * so what hydration leaves unpatched (a button's `disabled`, an `aria-invalid`) is right —
 * and a layout effect then moves the state to the typed text before the page paints. A
 * textarea that hydration reset gets its text and caret back at once, so the person's next
 * keystroke lands where it would have. A field the island draws later (not in the server's
 * HTML) simply starts from `serverValue`.
 *
 * @example
 * ```ts
 * import { h } from "preact";
 * import { useTypedBefore } from "./typed_before.ts";
 *
 * function Topic(props: { topic: string }) {
 *   const [topic, setTopic] = useTypedBefore("debate-topic", props.topic);
 *   return h("textarea", {
 *     id: "debate-topic",
 *     value: topic,
 *     onInput: (e) => setTopic((e.currentTarget as HTMLTextAreaElement).value),
 *   });
 * }
 * ```
 */
export function useTypedBefore(
  id: string,
  serverValue = "",
): [string, Dispatch<StateUpdater<string>>] {
  const [typed] = useState(() => {
    const field = textField(id);
    if (!field || field.value === serverValue) return null;
    const focused = document.activeElement === field;
    return {
      text: field.value,
      selection: focused ? [field.selectionStart, field.selectionEnd] as const : null,
    };
  });
  const [value, setValue] = useState(serverValue);
  // Once, right after hydration: layout effects run before the browser paints or handles input.
  useLayoutEffect(() => {
    if (!typed) return;
    const field = textField(id);
    if (field && field.value !== typed.text) {
      field.value = typed.text;
      const [start, end] = typed.selection ?? [null, null];
      if (start !== null && end !== null) field.setSelectionRange(start, end);
    }
    setValue(typed.text);
  }, []);
  return [value, setValue];
}
