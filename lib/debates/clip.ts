/**
 * Turning a model's streamed deltas into one debate message of at most `max`
 * characters, clipped at a word boundary, while streaming only text that is certain to
 * be in the final message (a chunk never shows words the clip later removes).
 *
 * The message is the model's text with whitespace runs collapsed to one space, a
 * leading "Name:" label removed, and, when longer than `max`, cut at the last space
 * within the limit. A word is released once a space after it has arrived within the
 * limit — from then on every possible cut keeps it.
 *
 * @module
 */

/**
 * The final form of a whole text (what {@link MessageClipper} converges to).
 *
 * @example
 * ```ts
 * clipMessage("Ada:  Short   and sweet.", 200, "Ada"); // "Short and sweet."
 * ```
 */
export function clipMessage(raw: string, max: number, speaker = ""): string {
  const c = new MessageClipper(max, speaker);
  c.push(raw);
  return c.finish().content;
}

/**
 * Incremental clipper for one streamed message.
 *
 * @example
 * ```ts
 * import type { ChatMessage, LlmClient } from "@/lib/llm/types.ts";
 * declare const llm: LlmClient;
 * declare const prompt: ChatMessage[];
 * declare function send(text: string): void;
 * const clip = new MessageClipper(200, "Ada");
 * for await (const delta of llm.stream(prompt)) {
 *   const ready = clip.push(delta);
 *   if (ready) send(ready);
 *   if (clip.settled) break; // the rest would be clipped anyway
 * }
 * const { content, rest } = clip.finish();
 * if (rest) send(rest);
 * ```
 */
export class MessageClipper {
  /** Normalized text so far (collapsed whitespace, no trailing space). */
  #text = "";
  #pendingSpace = false;
  /** Characters of `#text` already released. */
  #released = 0;
  /** Length of a leading speaker label, once decided (-1: undecided). */
  #labelEnd = -1;
  readonly #label: string;

  constructor(readonly max: number, speaker = "") {
    this.#label = speaker.trim() ? `${speaker.trim().toLowerCase()}:` : "";
    if (!this.#label) this.#labelEnd = 0;
  }

  /** True once enough text arrived to fix the message: later deltas cannot change it. */
  get settled(): boolean {
    return this.#labelEnd >= 0 && this.#body().length > this.max;
  }

  /** Add a delta; returns newly certain text to stream (possibly empty). */
  push(delta: string): string {
    if (this.settled) return "";
    for (const ch of delta) {
      if (/\s/.test(ch)) {
        if (this.#text.length > this.#labelEnd && this.#text.length > 0) this.#pendingSpace = true;
        continue;
      }
      if (this.#pendingSpace) {
        this.#text += " ";
        this.#pendingSpace = false;
      }
      this.#text += ch;
    }
    this.#decideLabel(false);
    if (this.#labelEnd < 0) return "";
    // Release up to the last space that lies within the limit and has arrived.
    const body = this.#body();
    const window = body.slice(0, this.max + 1);
    const boundary = this.#pendingSpace && body.length <= this.max
      ? body.length
      : window.lastIndexOf(" ");
    return this.#releaseTo(boundary);
  }

  /** End of stream: the message and the remainder not yet streamed. */
  finish(): { content: string; rest: string } {
    this.#decideLabel(true);
    const content = this.#final();
    const rest = content.slice(this.#released);
    this.#released = content.length;
    return { content, rest };
  }

  #body(): string {
    return this.#text.slice(this.#labelEnd).trimStart();
  }

  #final(): string {
    const body = this.#body();
    if (body.length <= this.max) return body;
    const space = body.slice(0, this.max + 1).lastIndexOf(" ");
    return space > 0 ? body.slice(0, space) : body.slice(0, this.max);
  }

  #releaseTo(end: number): string {
    if (end <= this.#released) return "";
    const out = this.#body().slice(this.#released, end);
    this.#released = end;
    return out;
  }

  /** Decide whether the text opens with "Name:" (undecided while it could still). */
  #decideLabel(final: boolean): void {
    if (this.#labelEnd >= 0) return;
    const head = this.#text.toLowerCase();
    if (head.startsWith(this.#label)) {
      this.#labelEnd = this.#label.length;
    } else if (!this.#label.startsWith(head) || final) {
      this.#labelEnd = 0;
    }
  }
}
