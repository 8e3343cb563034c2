import type { Theme } from "@/lib/state.ts";

const NEXT: Record<Theme, Theme> = { auto: "light", light: "dark", dark: "auto" };
const LABEL: Record<Theme, string> = { auto: "Auto", light: "Light", dark: "Dark" };
const ICON: Record<Theme, string> = { auto: "◐", light: "☀", dark: "☾" };

/**
 * Colour-scheme switch as a plain form: the choice is a cookie the server renders on
 * `<html>`, so it works without JavaScript and pages without islands stay script-free.
 */
export function ThemeForm({ theme, path }: { theme: Theme; path: string }) {
  return (
    <form method="post" action="/theme" class="theme-form">
      <input type="hidden" name="theme" value={NEXT[theme]} />
      <input type="hidden" name="returnTo" value={path} />
      <button
        type="submit"
        class="btn btn-small"
        aria-label={`Colour theme: ${LABEL[theme]}. Switch to ${LABEL[NEXT[theme]]}`}
        title={`Theme: ${LABEL[theme]}`}
      >
        <span aria-hidden="true">{ICON[theme]}</span> {LABEL[theme]}
      </button>
    </form>
  );
}
