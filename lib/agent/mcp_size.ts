/**
 * Size caps of MCP answers (docs/interface.md#mcp). MCP clients put a tool's text into
 * the model's context and refuse big ones (Claude Code stops at 25,000 tokens), so every
 * answer that lists posts is bounded whatever the data: a page holds a fixed number of
 * items, long texts share a fixed byte budget ({@link fitTexts}), and fields that could
 * be long without saying anything to a model (an avatar URL may be 2,048 characters) are
 * dropped past a short length ({@link compactAuthor}).
 *
 * Budgets are in UTF-8 bytes: a token is about 3–4 bytes of English or JSON, and about 3
 * bytes of Chinese or Japanese (one character), so bytes bound tokens across scripts
 * where characters would not.
 *
 * @module
 */

/** Longest avatar URL an MCP answer keeps (longer ones become null). */
export const MCP_AVATAR_MAX = 300;

/** Bytes a clipped text keeps for its question description before the messages share the rest. */
export const MCP_DESCRIPTION_SHARE = 4_000;

const encoder = new TextEncoder();

/**
 * UTF-8 length of `text` in bytes.
 *
 * @example
 * ```ts
 * utf8Length("héllo"); // 6
 * ```
 */
export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/**
 * The longest start of `text` that fits in `bytes` bytes of UTF-8, never splitting a
 * character.
 *
 * @example
 * ```ts
 * utf8Prefix("日本語", 7); // "日本"
 * ```
 */
export function utf8Prefix(text: string, bytes: number): string {
  const { read } = encoder.encodeInto(text, new Uint8Array(Math.max(0, bytes)));
  return text.slice(0, read);
}

/**
 * The per-text cap that makes `lengths` fit in `budget` (water-filling): texts shorter
 * than the cap keep their length and give what they leave to the longer ones, which are
 * all cut to the same cap. Infinity when everything fits.
 *
 * @example
 * ```ts
 * fairCap([100, 5_000, 9_000], 4_100); // 2000
 * ```
 */
export function fairCap(lengths: readonly number[], budget: number): number {
  const total = lengths.reduce((a, b) => a + b, 0);
  if (total <= budget) return Infinity;
  const sorted = [...lengths].sort((a, b) => a - b);
  let left = budget;
  for (let i = 0; i < sorted.length; i++) {
    const share = Math.floor(left / (sorted.length - i));
    if (sorted[i] > share) return share;
    left -= sorted[i];
  }
  return Infinity;
}

/** One text to fit, with the hint a model needs to read the rest of it. */
export interface FitItem {
  text: string;
  /** What to call for the whole text, e.g. `read_post {targetType: "message", id: "m1"}`. */
  whole: string;
}

/** A text after {@link fitTexts}: whole, or clipped with a note saying so. */
export interface Fitted {
  text: string;
  clipped: boolean;
}

/**
 * Clip `text` to about `bytes` bytes, ending it with a note that says how much is shown
 * and how to read the rest. Unchanged when it fits.
 *
 * @example
 * ```ts
 * clipText("a".repeat(5_000), 1_000, "read_post {targetType: \"message\", id: \"m1\"}").clipped; // true
 * ```
 */
export function clipText(text: string, bytes: number, whole: string): Fitted {
  if (utf8Length(text) <= bytes) return { text, clipped: false };
  const shown = utf8Prefix(text, bytes).trimEnd();
  const note = `\n\n[… clipped: ${[...shown].length} of ${[...text].length} characters shown; ` +
    `${whole} returns it whole]`;
  return { text: shown + note, clipped: true };
}

/**
 * Fit `items` into `budget` bytes of text together: the first (a question's description,
 * when `leadShare` is given) keeps up to `leadShare` bytes, and the others share what is
 * left fairly ({@link fairCap}). Each clipped text ends with a note naming its `whole`
 * call. The result is in `items`' order.
 *
 * @example
 * ```ts
 * const [d, a] = fitTexts([
 *   { text: "Why?", whole: "read_post {targetType: \"question\", id: \"q1\"}" },
 *   { text: "x".repeat(50_000), whole: "read_post {targetType: \"message\", id: \"m1\"}" },
 * ], 16_000, { leadShare: 4_000 });
 * a.clipped; // true
 * ```
 */
export function fitTexts(
  items: readonly FitItem[],
  budget: number,
  opts: { leadShare?: number } = {},
): Fitted[] {
  if (items.length === 0) return [];
  const out: Fitted[] = [];
  let rest = items;
  let left = budget;
  if (opts.leadShare !== undefined) {
    const lead = clipText(items[0].text, opts.leadShare, items[0].whole);
    out.push(lead);
    left -= Math.min(utf8Length(items[0].text), opts.leadShare);
    rest = items.slice(1);
  }
  const cap = fairCap(rest.map((i) => utf8Length(i.text)), Math.max(0, left));
  for (const item of rest) out.push(clipText(item.text, cap, item.whole));
  return out;
}

/**
 * `author` with its avatar URL dropped (null) when it is longer than
 * {@link MCP_AVATAR_MAX}: nothing a model reads, and up to 2,048 characters each.
 *
 * @example
 * ```ts
 * compactAuthor({ id: "u1", name: "Ada", avatar: "https://x.example/" + "a".repeat(400) }).avatar; // null
 * ```
 */
export function compactAuthor<A extends { avatar: string | null }>(author: A): A {
  return author.avatar && author.avatar.length > MCP_AVATAR_MAX
    ? { ...author, avatar: null }
    : author;
}
