import { Moon, Sun } from "@/components/icons.gen.ts";
import type { Theme } from "@/lib/state.ts";

type Scheme = "light" | "dark";
const LABEL: Record<Scheme, string> = { light: "Light", dark: "Dark" };
const ICON = { light: Sun, dark: Moon };
const OTHER: Record<Scheme, Scheme> = { light: "dark", dark: "light" };

/**
 * Colour-scheme switch as a plain form: the choice is a cookie the server renders on
 * `<html>`, so it works without JavaScript and pages without islands stay script-free.
 *
 * The button names the scheme you see and every click flips it. The server cannot know
 * the system's preference, so the form carries one button per system scheme and the
 * stylesheet shows the one matching `prefers-color-scheme`; each sends the theme that
 * flips what is on screen — `auto` when the flip lands on the system's own scheme, so a
 * choice that matches the system goes back to following it.
 *
 * @example
 * ```tsx
 * <ThemeForm theme="auto" path="/questions/q-1" />
 * ```
 */
export function ThemeForm({ theme, path }: { theme: Theme; path: string }) {
  return (
    <form method="post" action="/theme" class="theme-form" data-testid="theme-form">
      <input type="hidden" name="returnTo" value={path} />
      {(["light", "dark"] as const).map((system) => {
        const shown: Scheme = theme === "auto" ? system : theme;
        const Icon = ICON[shown];
        const next = OTHER[shown];
        const following = theme === "auto";
        return (
          <button
            key={system}
            type="submit"
            name="theme"
            value={next === system ? "auto" : next}
            class={`btn btn-small theme-btn theme-when-${system}`}
            aria-label={`Colour theme: ${LABEL[shown]}${following ? " (system)" : ""}. Switch to ${
              LABEL[next]
            }`}
            title={`${LABEL[shown]} theme${following ? ", following your system" : ""}: switch to ${
              LABEL[next].toLowerCase()
            }`}
          >
            {/* An SVG icon, not an emoji: it draws the same without an emoji font. */}
            <Icon class="icon" aria-hidden="true" />
            <span class="visually-hidden">{LABEL[shown]}</span>
          </button>
        );
      })}
    </form>
  );
}
