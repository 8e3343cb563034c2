/**
 * What a person typed or chose in a server-rendered form before the island that owns it
 * took over. Preact's hydration writes a controlled `<textarea>`'s value from the island's
 * state, so an island starting from its server value wiped what was typed while its
 * script loaded (on a slow phone, a whole first paragraph; a quick test saw its answer
 * refused as empty). An `<input>`, a `<select>`, a checkbox and a radio button keep what
 * the person left through hydration, but the island's state does not have it: the next
 * render put the server's value back, and a submit sent it.
 *
 * @module
 */
import { type Dispatch, type StateUpdater, useLayoutEffect, useState } from "preact/hooks";

/**
 * What a form control holds: a string is a text field's or a `<select>`'s value, a
 * boolean whether a checkbox or radio button is on.
 */
type Entry = string | boolean;

/** A form control by id, as the module reads and writes it. */
type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/**
 * The control with id `id` in this page when it holds entries like `like` — a text field
 * or `<select>` for a string, a checkbox or radio button for a boolean — else null.
 */
function control(id: string, like: Entry): Control | null {
  if (typeof document === "undefined") return null;
  const el = document.getElementById(id) as Partial<HTMLInputElement> | null;
  if (typeof el?.value !== "string") return null;
  const onOff = el.type === "checkbox" || el.type === "radio";
  return onOff === (typeof like === "boolean") ? el as Control : null;
}

/** What `field` holds, read as `like` is: its value or whether it is on. */
function entryIn(field: Control, like: Entry): Entry {
  return typeof like === "boolean" ? (field as HTMLInputElement).checked : field.value;
}

/** Puts `entry` back into `field`. */
function putEntry(field: Control, entry: Entry): void {
  if (typeof entry === "boolean") (field as HTMLInputElement).checked = entry;
  else field.value = entry;
}

/** Where the caret is in `field` when the person is in it and it has one (text, not a select). */
function caretIn(field: Control): readonly [number, number] | null {
  if (document.activeElement !== field) return null;
  const { selectionStart, selectionEnd } = field as Partial<HTMLInputElement>;
  return typeof selectionStart === "number" && typeof selectionEnd === "number"
    ? [selectionStart, selectionEnd]
    : null;
}

/**
 * What the control with id `id` in this page holds now — the text of a `<textarea>` or
 * `<input>`, the value of a `<select>` when `serverValue` is a string; whether a checkbox
 * or radio button is on when it is a boolean — or `serverValue` (default `""`) on the
 * server and when there is no such control.
 *
 * @example
 * ```ts
 * import { typedBefore } from "./typed_before.ts";
 *
 * const topic = typedBefore("debate-topic", "What the server rendered");
 * const avatarOn = typedBefore("privacy-aiAvatar", false);
 * ```
 */
export function typedBefore(id: string, serverValue?: string): string;
export function typedBefore(id: string, serverValue: boolean): boolean;
export function typedBefore(id: string, serverValue: Entry = ""): Entry {
  const field = control(id, serverValue);
  return field ? entryIn(field, serverValue) : serverValue;
}

/**
 * `useState` for the form control with id `id`, which the server rendered holding
 * `serverValue`: it ends up holding what the person typed or chose there before the island
 * hydrated. A string is a text field's or a `<select>`'s value (default `""`), a boolean
 * whether a checkbox or radio button is on; a group of radio buttons is read through the
 * one that means something (on: that choice, off: the other). Read once, before hydration
 * touches the control.
 *
 * The island first renders with `serverValue` — the value its server HTML was made from,
 * so what hydration leaves unpatched (a button's `disabled`, an `aria-invalid`) is right —
 * and a layout effect then moves the state to the person's entry before the page paints.
 * A textarea that hydration reset gets its text and caret back at once, so the person's
 * next keystroke lands where it would have. A control the island draws later (not in the
 * server's HTML) simply starts from `serverValue`.
 *
 * @example
 * ```ts
 * import { h } from "preact";
 * import { useTypedBefore } from "./typed_before.ts";
 *
 * function Topic(props: { topic: string }) {
 *   const [topic, setTopic] = useTypedBefore("debate-topic", props.topic);
 *   const [open, setOpen] = useTypedBefore("debate-open", false);
 *   return h(
 *     "form",
 *     null,
 *     h("textarea", {
 *       id: "debate-topic",
 *       value: topic,
 *       onInput: (e: Event) => setTopic((e.currentTarget as HTMLTextAreaElement).value),
 *     }),
 *     h("input", {
 *       id: "debate-open",
 *       type: "checkbox",
 *       checked: open,
 *       onChange: (e: Event) => setOpen((e.currentTarget as HTMLInputElement).checked),
 *     }),
 *   );
 * }
 * ```
 */
export function useTypedBefore(
  id: string,
  serverValue?: string,
): [string, Dispatch<StateUpdater<string>>];
export function useTypedBefore(
  id: string,
  serverValue: boolean,
): [boolean, Dispatch<StateUpdater<boolean>>];
export function useTypedBefore(id: string, serverValue: Entry = ""): [Entry, unknown] {
  const [entered] = useState(() => {
    const field = control(id, serverValue);
    if (!field) return null;
    const entry = entryIn(field, serverValue);
    return entry === serverValue ? null : { entry, caret: caretIn(field) };
  });
  const [value, setValue] = useState<Entry>(serverValue);
  // Once, right after hydration: layout effects run before the browser paints or handles input.
  useLayoutEffect(() => {
    if (!entered) return;
    const field = control(id, serverValue);
    if (field && entryIn(field, serverValue) !== entered.entry) {
      putEntry(field, entered.entry);
      if (entered.caret) (field as HTMLTextAreaElement).setSelectionRange(...entered.caret);
    }
    setValue(entered.entry);
  }, []);
  return [value, setValue];
}
