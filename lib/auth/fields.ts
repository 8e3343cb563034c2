/**
 * zod field helpers shared by the provider clients: strings clipped to a sane length
 * (profiles travel in a cookie of at most ~4 KB) and profile-to-user clean-up.
 *
 * @module
 */
import { z } from "zod";
import { cleanProviderName } from "../profile/names.ts";

/** A string clipped to `max` characters (clipping, not refusing: a long bio is no error). */
export function clipped(max: number) {
  return z.string().transform((s) => s.slice(0, max));
}

/** An optional string that may be null or missing, clipped; always `string | null` out. */
export function optionalClipped(max: number) {
  return z.string().nullish().transform((s) => (s == null ? null : s.slice(0, max)));
}

/** Display names start at most this long (profiles allow 1–40 characters). */
export const NAME_MAX = 40;
/** Bios are at most 200 characters (docs/interface.md#profiles). */
export const BIO_MAX = 200;

/**
 * A display name from provider data: the first candidate with text left once characters
 * the display-name rules refuse are gone (lib/profile/names.ts), clipped, never empty.
 */
export function displayName(...candidates: (string | null | undefined)[]): string {
  for (const c of candidates) {
    const t = cleanProviderName(c ?? "");
    if (t) return [...t].slice(0, NAME_MAX).join("");
  }
  return "Parley user";
}

/** An avatar URL from provider data, kept only when it is http(s). */
export function avatarUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const u = new URL(value);
    return u.protocol === "https:" || u.protocol === "http:" ? u.toString() : null;
  } catch {
    return null;
  }
}

/** A bio from provider data, clipped to {@link BIO_MAX}. */
export function bioText(...candidates: (string | null | undefined)[]): string {
  for (const c of candidates) {
    const t = c?.trim();
    if (t) return [...t].slice(0, BIO_MAX).join("");
  }
  return "";
}
