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
