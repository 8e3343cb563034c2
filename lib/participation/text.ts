/**
 * Tidying model text before it is stored as a question or message: a leading
 * "Name:" label or wrapping quotes removed, and over-long text cut at a word boundary.
 * Line breaks are kept (message content is Markdown).
 *
 * @module
 */

/**
 * `text` cut to at most `max` characters at the last whitespace within the limit,
 * with an ellipsis when something was cut.
 *
 * @example
 * ```ts
 * clipAtWord("one two three", 9); // "one two…"
 * ```
 */
export function clipAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = text.slice(0, Math.max(1, max - 1));
  const cut = room.search(/\s\S*$/);
  const kept = (cut > max / 2 ? room.slice(0, cut) : room).replace(/[\s,;:—–-]+$/u, "");
  return `${kept}…`;
}

/**
 * A model's reply made fit to post: trimmed, without a leading `Name:` label, without
 * quotes wrapped around the whole text, and at most `max` characters.
 *
 * @example
 * ```ts
 * tidyReply('Ada: "Good point."', 500, "Ada"); // "Good point."
 * ```
 */
export function tidyReply(raw: string, max: number, speaker = ""): string {
  let text = raw.replace(/\r\n?/g, "\n").trim();
  if (speaker) {
    const label = new RegExp(`^\\**${escapeRegExp(speaker)}\\**\\s*:\\s*`, "i");
    text = text.replace(label, "");
  }
  const quoted = /^(["“])([\s\S]*)(["”])$/.exec(text);
  if (quoted && !quoted[2].includes(quoted[1] === "“" ? "”" : '"')) text = quoted[2].trim();
  return clipAtWord(text, max);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Text on one line, whitespace collapsed, for prompt listings. */
export function oneLine(text: string, max = 300): string {
  return clipAtWord(text.replace(/\s+/g, " ").trim(), max);
}
