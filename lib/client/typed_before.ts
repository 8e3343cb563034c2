/**
 * Text a person typed into a server-rendered field before the island that owns it took
 * over. Preact's hydration writes a controlled `<textarea>`'s value from the island's
 * state, so an island starting from `""` wiped what was typed while its script loaded (on
 * a slow phone, a whole first paragraph; a quick test saw its answer refused as empty).
 *
 * @module
 */

/**
 * The current value of the `<textarea>` or `<input>` with id `id` in this page, or `""` on
 * the server and when there is no such field — an island's first state for the field.
 *
 * @example
 * ```ts
 * import { useState } from "preact/hooks";
 * import { typedBefore } from "./typed_before.ts";
 *
 * function Answer() {
 *   const [content, setContent] = useState(() => typedBefore("content-answer"));
 *   return content.length;
 * }
 * ```
 */
export function typedBefore(id: string): string {
  if (typeof document === "undefined") return "";
  const field = document.getElementById(id) as { value?: unknown } | null;
  return typeof field?.value === "string" ? field.value : "";
}
