/**
 * Self-contained avatar images for AI personas: an SVG with initials on a colour, as a
 * `data:` URL, so a stored debate shows its opponent without depending on a build id or
 * another host (the CSP allows `data:` images).
 *
 * @module
 */

/** Initials of a name: the first letters of its first two words. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.slice(0, 2).map((w) => [...w][0] ?? "").join("");
  return (letters || "?").toUpperCase();
}

/**
 * An avatar `data:` URL with initials on a background colour.
 *
 * @example
 * ```ts
 * initialsAvatar("Dr. Vera Quell", "#7c3aed"); // "data:image/svg+xml,…"
 * ```
 */
export function initialsAvatar(name: string, color: string): string {
  const safeColor = /^#[0-9a-fA-F]{3,8}$/.test(color) ? color : "#64748b";
  const text = initialsOf(name).replace(/[<>&"']/g, "");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">` +
    `<rect width="64" height="64" rx="32" fill="${safeColor}"/>` +
    `<text x="32" y="41" font-family="system-ui,sans-serif" font-size="24" font-weight="700" ` +
    `fill="#fff" text-anchor="middle">${text}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
