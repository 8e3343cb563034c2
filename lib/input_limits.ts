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
