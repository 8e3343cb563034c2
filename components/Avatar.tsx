/**
 * Initials for a name: the first letters of its first two words ("Ada Lovelace" → "AL",
 * "linus" → "L"), "?" for an empty name.
 *
 * @example
 * ```ts
 * initials("Ada Lovelace"); // "AL"
 * ```
 */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.slice(0, 2).map((w) => [...w][0]?.toUpperCase() ?? "");
  return letters.join("") || "?";
}

/**
 * A round avatar that never shows an empty circle: the initials are always drawn, and
 * the image (when there is one) lies on top of them. An image that fails to load has
 * an empty `alt`, so the browser draws nothing for it and the initials show through —
 * no script needed, and no alt text can spill out of the circle. Decorative: the name
 * is always written next to it.
 *
 * @example
 * ```tsx
 * <Avatar name="Ada Lovelace" src={null} size="lg" />
 * ```
 */
export function Avatar(
  { name, src, size = "sm", testId }: {
    name: string;
    src: string | null | undefined;
    size?: "sm" | "lg";
    testId?: string;
  },
) {
  return (
    <span
      class={size === "lg" ? "avatar avatar-lg" : "avatar"}
      aria-hidden="true"
      data-testid={testId}
    >
      <span class="avatar-fallback">{initials(name)}</span>
      {src && (
        <img
          class="avatar-img"
          src={src}
          alt=""
          loading="lazy"
          referrerpolicy="no-referrer"
        />
      )}
    </span>
  );
}
