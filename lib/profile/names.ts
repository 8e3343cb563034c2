/**
 * Names that would pass for someone they are not: the reserved names (Parley itself, its
 * moderators, the AI experts and debate personas) and words that mix look-alike letters
 * of different scripts ("Аdmin" with a Cyrillic А). Look-alikes come from Unicode's
 * confusables table (UTS #39) as the `unhomoglyph` package maintains it, never a hand
 * list. Server-side only: the table is too big for the profile editor's bundle, so the
 * editor checks the plain rules (./rules.ts) and shows these problems from the API.
 *
 * @module
 */
import unhomoglyph from "unhomoglyph";
import { PERSONAS } from "../debates/personas.ts";
import { createHash } from "node:crypto";
import { EXPERTS } from "../panel/experts.ts";
import { DISPLAY_NAME_MAX } from "../input_limits.ts";
import { displayNameProblem } from "./rules.ts";

/** Names nobody may take: what Parley's staff and AI voices are called. */
export const RESERVED_NAMES: readonly string[] = [
  "moderator",
  "moderators",
  "admin",
  "administrator",
  "parley",
  "deleted user",
  ...EXPERTS.map((e) => e.name),
  ...PERSONAS.map((p) => p.name),
];

/**
 * What a name looks like, for comparing: lower case, accents and separators dropped, each
 * character replaced by its confusables prototype, so "Аdmin", "A.D.M.I.N" and "admin"
 * share one skeleton.
 *
 * @example
 * ```ts
 * import { nameSkeleton } from "./names.ts";
 *
 * nameSkeleton("\u0410dmin") === nameSkeleton("admin"); // true
 * ```
 */
export function nameSkeleton(name: string): string {
  const plain = name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/[\s_.\-]+/gu, "");
  return unhomoglyph(plain).toLowerCase();
}

const RESERVED_SKELETONS = new Set(RESERVED_NAMES.map(nameSkeleton));

/** Scripts whose letters are commonly mistaken for one another. */
const SCRIPTS: [string, RegExp][] = [
  ["Latin", /\p{Script=Latin}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Greek", /\p{Script=Greek}/u],
  ["Armenian", /\p{Script=Armenian}/u],
  ["Cherokee", /\p{Script=Cherokee}/u],
  ["Georgian", /\p{Script=Georgian}/u],
  ["Coptic", /\p{Script=Coptic}/u],
];

/** The script of a letter among {@link SCRIPTS}, "other" for the rest, null for a non-letter. */
function scriptOf(ch: string): string | null {
  if (!/\p{L}/u.test(ch)) return null;
  return SCRIPTS.find(([, re]) => re.test(ch))?.[0] ?? "other";
}

/**
 * The first letter that disguises itself inside a word of another script (a Cyrillic "А"
 * among Latin letters), with its script; null when every word keeps to one script or
 * its odd letters look like nothing else. Words, not whole names, so "Ivan Иванов" passes.
 */
function disguisedLetter(name: string): { letter: string; script: string } | null {
  for (const word of name.split(/[\s_.\-]+/u)) {
    const letters = [...word].map((ch) => ({ ch, script: scriptOf(ch) }))
      .filter((l): l is { ch: string; script: string } => l.script !== null);
    const counts = new Map<string, number>();
    for (const l of letters) counts.set(l.script, (counts.get(l.script) ?? 0) + 1);
    if (counts.size < 2) continue;
    // The word's main script is its most frequent; a look-alike from another one is the trick.
    const main = [...counts].sort((a, b) => b[1] - a[1])[0][0];
    const odd = letters.find((l) =>
      l.script !== main && unhomoglyph(l.ch.normalize("NFD")) !== l.ch.normalize("NFD")
    );
    if (odd) return { letter: odd.ch, script: odd.script };
  }
  return null;
}

/**
 * What makes a name pass for someone else, or null: a reserved name (in any spelling the
 * confusables table folds together) or a word mixing look-alike letters of two scripts.
 *
 * @example
 * ```ts
 * import { impersonationProblem } from "./names.ts";
 *
 * impersonationProblem("Moderator"); // "is reserved: it names Parley, its moderators or an AI voice"
 * impersonationProblem("\u0410dmin"); // "is reserved: …" (the skeleton is admin's)
 * impersonationProblem("Ada Lovelace"); // null
 * ```
 */
export function impersonationProblem(name: string): string | null {
  if (RESERVED_SKELETONS.has(nameSkeleton(name))) {
    return "is reserved: it names Parley, its moderators or an AI voice";
  }
  const odd = disguisedLetter(name);
  if (odd) {
    return `mixes look-alike letters from different scripts ("${odd.letter}" is ${odd.script}); write each word in one script`;
  }
  return null;
}

/**
 * Every display-name rule: the plain ones (./rules.ts) and {@link impersonationProblem}.
 *
 * @example
 * ```ts
 * import { displayNameRulesProblem } from "./names.ts";
 *
 * displayNameRulesProblem("Admin", []); // "is reserved: …"
 * ```
 */
export function displayNameRulesProblem(
  name: string,
  offensive: readonly string[],
): string | null {
  return displayNameProblem(name, offensive) ?? impersonationProblem(name);
}

/**
 * A provider's name made into text the display-name rules allow: invisible format
 * characters (right-to-left overrides, zero-width spaces) removed, any other character
 * the rules refuse turned into a space, spaces collapsed, clipped to the maximum.
 *
 * @example
 * ```ts
 * import { cleanProviderName } from "./names.ts";
 *
 * cleanProviderName("<img src=x onerror=alert(1)>"); // "img src x onerror alert 1"
 * cleanProviderName("Ada\u200b Love\u202elace"); // "Ada Lovelace"
 * ```
 */
export function cleanProviderName(raw: string): string {
  const text = raw.normalize("NFC").replace(/[\p{Cf}\p{Cc}]/gu, "")
    .replace(/[^\p{L}\p{M}\p{N} _.-]+/gu, " ").replace(/\s+/g, " ").trim();
  return [...text].slice(0, DISPLAY_NAME_MAX).join("").trim();
}

/**
 * The display name a new account gets from its provider: the cleaned provider name when
 * it passes every rule, otherwise "Member" and four hex digits derived from `seed` (the
 * provider and account id), stable across sign-ins.
 *
 * @example
 * ```ts
 * import { nameFromProvider } from "./names.ts";
 *
 * nameFromProvider("Ada Lovelace", "provider_a:a-1", []); // "Ada Lovelace"
 * nameFromProvider("Moderator", "provider_a:a-2", []); // "Member 1f0c" (say)
 * ```
 */
export function nameFromProvider(raw: string, seed: string, offensive: readonly string[]): string {
  const cleaned = cleanProviderName(raw);
  if (!displayNameRulesProblem(cleaned, offensive)) return cleaned;
  return `Member ${createHash("sha256").update(seed).digest("hex").slice(0, 4)}`;
}
