import { counterText } from "@/lib/input_limits.ts";

/**
 * The live count under a text field near its limit ("9,500 of 10,000 characters"), and
 * over it ("…: 312 too many", marked): nothing is ever cut, the form refuses instead.
 * Render-only; the field's island passes the count. Nothing while far below the limit.
 */
export function CharCounter({ id, count, max }: { id: string; count: number; max: number }) {
  const text = counterText(count, max);
  if (text === null) return null;
  const over = count > max;
  return (
    <p id={id} class={over ? "char-count char-count-over" : "char-count"} data-testid="char-count">
      {text}
    </p>
  );
}

/** The id of a field's counter. */
export function counterId(fieldId: string): string {
  return `${fieldId}-count`;
}
