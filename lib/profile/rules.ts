/**
 * The rules of a profile edit as plain functions: the API's zod schema (lib/schemas/profile.ts)
 * and the profile editor island both call them, so the browser checks exactly what the
 * server enforces without shipping a validation library.
 *
 * @module
 */
import { BIO_MAX, DISPLAY_NAME_MAX, IMAGE_URL_MAX } from "../input_limits.ts";

/** Display names: letters of any script, digits, spaces, and `_ - .` only. */
const DISPLAY_NAME_CHARS = /^[\p{L}\p{M}\p{N} _.-]+$/u;

/**
 * True when a display name contains an offensive word: any of its words, or the whole
 * name with separators removed, equals a listed word. Whole-word matching avoids
 * refusing innocent names that merely contain a listed word (the "Scunthorpe problem").
 *
 * @example
 * ```ts
 * isOffensiveName("Scunthorpe", ["cunt"]); // false
 * ```
 */
export function isOffensiveName(name: string, words: readonly string[]): boolean {
  const tokens = name.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const list = new Set(words.map((w) => w.toLowerCase()));
  return tokens.some((t) => list.has(t)) || list.has(tokens.join(""));
}

/**
 * What is wrong with a display name (already trimmed), or null.
 *
 * @example
 * ```ts
 * displayNameProblem("Ada!", []); // "may contain only letters, digits, spaces, and _ - ."
 * ```
 */
export function displayNameProblem(name: string, offensive: readonly string[]): string | null {
  if (name.length < 1) return "must not be empty";
  if ([...name].length > DISPLAY_NAME_MAX) return `must be at most ${DISPLAY_NAME_MAX} characters`;
  if (!DISPLAY_NAME_CHARS.test(name)) return "may contain only letters, digits, spaces, and _ - .";
  if (isOffensiveName(name, offensive)) return "is not allowed";
  return null;
}

/** What is wrong with an avatar or cover URL (trimmed; empty means "none"), or null. */
export function imageUrlProblem(url: string): string | null {
  if (url === "") return null;
  if (url.length > IMAGE_URL_MAX) return `must be at most ${IMAGE_URL_MAX} characters`;
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:"
      ? null
      : "must be an http or https URL";
  } catch {
    return "must be an http or https URL";
  }
}

/** What is wrong with a bio (trimmed), or null. */
export function bioProblem(bio: string): string | null {
  return [...bio].length > BIO_MAX ? `must be at most ${BIO_MAX} characters` : null;
}
