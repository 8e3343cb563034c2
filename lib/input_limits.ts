/**
 * Limits and constants that both the server and the browser need. This module imports
 * nothing, so islands can use it without pulling server code or zod into their bundles;
 * the server's zod schemas (lib/schemas/) take their limits from here.
 *
 * @module
 */

// ——— Debates ———

/** Longest debate topic accepted (characters). */
export const TOPIC_MAX_CHARS = 300;
/** Longest synthesis conclusion (characters). */
export const CONCLUSION_MAX_CHARS = 100;

// ——— Questions and messages ———

/** Shortest and longest question title (characters, trimmed). */
export const TITLE_MIN = 2;
export const TITLE_MAX = 120;
/** Longest question description (characters). */
export const DESCRIPTION_MAX = 10_000;
/** Longest tag, and how many tags a question keeps. */
export const TAG_MAX_LENGTH = 40;
export const TAGS_KEPT = 5;
/** Longest search query of the feed (characters). */
export const SEARCH_QUERY_MAX = 200;
/** Longest message content accepted (characters). */
export const CONTENT_MAX = 10_000;

// ——— What the limits say, in sentences (the server's 400s and the forms use the same) ———

/**
 * A count as people write it: `10,312`.
 *
 * @example
 * ```ts
 * formatCount(10312); // "10,312"
 * ```
 */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/**
 * The title rule, with the title's length when there is one.
 *
 * @example
 * ```ts
 * titleRule(); // "Titles need 2 to 120 characters."
 * titleRule(134); // "Titles need 2 to 120 characters; this one has 134."
 * ```
 */
export function titleRule(length?: number): string {
  const rule = `Titles need ${TITLE_MIN} to ${TITLE_MAX} characters`;
  return length === undefined ? `${rule}.` : `${rule}; this one has ${formatCount(length)}.`;
}

/** An answer, reply or edit with nothing in it. */
export const CONTENT_EMPTY = "Write something first: an empty answer can't be posted.";

/**
 * An answer, reply or edit over {@link CONTENT_MAX}.
 *
 * @example
 * ```ts
 * contentTooLong(10312);
 * // "Answers and replies can have at most 10,000 characters; this one has 10,312."
 * ```
 */
export function contentTooLong(length: number): string {
  return `Answers and replies can have at most ${formatCount(CONTENT_MAX)} characters; ` +
    `this one has ${formatCount(length)}.`;
}

/**
 * A question's details over {@link DESCRIPTION_MAX}.
 *
 * @example
 * ```ts
 * descriptionTooLong(10001); // "Details can have at most 10,000 characters; these have 10,001."
 * ```
 */
export function descriptionTooLong(length: number): string {
  return `Details can have at most ${formatCount(DESCRIPTION_MAX)} characters; ` +
    `these have ${formatCount(length)}.`;
}

/**
 * A tag over {@link TAG_MAX_LENGTH}.
 *
 * @example
 * ```ts
 * tagTooLong("x".repeat(41)); // "Tags can have at most 40 characters each; “xxx…” has 41."
 * ```
 */
export function tagTooLong(tag: string): string {
  const shown = tag.length > 20 ? `${tag.slice(0, 20)}…` : tag;
  return `Tags can have at most ${TAG_MAX_LENGTH} characters each; “${shown}” has ` +
    `${formatCount(tag.length)}.`;
}

/**
 * A debate topic over {@link TOPIC_MAX_CHARS}.
 *
 * @example
 * ```ts
 * topicTooLong(320); // "Topics can have at most 300 characters; this one has 320."
 * ```
 */
export function topicTooLong(length: number): string {
  return `Topics can have at most ${formatCount(TOPIC_MAX_CHARS)} characters; ` +
    `this one has ${formatCount(length)}.`;
}

/** The live counter under a field appears from this share of its limit on. */
export const COUNTER_FROM = 0.9;

/**
 * The live counter's words near and over a limit (null while far below it).
 *
 * @example
 * ```ts
 * counterText(9500, 10000); // "9,500 of 10,000 characters"
 * counterText(10312, 10000); // "10,312 of 10,000 characters: 312 too many"
 * counterText(10, 10000); // null
 * ```
 */
export function counterText(count: number, max: number): string | null {
  if (count < max * COUNTER_FROM) return null;
  const of = `${formatCount(count)} of ${formatCount(max)} characters`;
  return count > max ? `${of}: ${formatCount(count - max)} too many` : of;
}

// ——— Profiles ———

/** Longest display name (code points). */
export const DISPLAY_NAME_MAX = 40;
/** Longest bio (code points). */
export const BIO_MAX = 200;
/** Longest avatar or cover URL (characters). */
export const IMAGE_URL_MAX = 2048;

// ——— Agent keys and local sign-in ———

/** Most live agent keys one user may hold. */
export const MAX_AGENT_KEYS = 5;
/** Longest agent key label. */
export const KEY_NAME_MAX = 40;
/** Longest name of a local (offline) sign-in account. */
export const LOCAL_NAME_MAX = 40;

// ——— Debate agent profile ———

/** Longest agent name and bio a user sends for a debate. */
export const AGENT_NAME_MAX = 80;
export const AGENT_BIO_MAX = 500;
/** Soft memory: at most this many traits (and interests), each at most this long. */
export const SOFT_MEMORY_ITEMS_MAX = 12;
export const SOFT_MEMORY_ITEM_MAX = 60;

/**
 * The window event the live AI panel sends with how many of its messages it has drawn
 * live: the "N new answers" pill leaves them out (they are already on screen).
 */
export const PANEL_SHOWN_EVENT = "parley:panel-shown";

/** The window event the live question page sends with fresh vote counts (islands). */
export const LIVE_COUNTS_EVENT = "parley:counts";

/** The detail of {@link LIVE_COUNTS_EVENT}. */
export interface LiveCounts {
  targetType: "question" | "message";
  targetId: string;
  upvotes: number;
  downvotes: number;
}

// ——— Roundtables ———

/** Longest roundtable background (characters). */
export const BACKGROUND_MAX_CHARS = 2000;
/** Longest host interjection (characters). */
export const INTERJECTION_MAX_CHARS = 500;
/** Fewest and most experts at a roundtable, and its discussion rounds (after the opening). */
export const ROUNDTABLE_MIN_EXPERTS = 3;
export const ROUNDTABLE_MAX_EXPERTS = 5;
export const ROUNDTABLE_MIN_ROUNDS = 2;
export const ROUNDTABLE_MAX_ROUNDS = 5;
/** Discussion rounds when the host names none. */
export const ROUNDTABLE_DEFAULT_ROUNDS = 3;
