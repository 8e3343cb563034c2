/**
 * The stylesheet's structure: a brace lost in a merge once nested whole feature sections
 * inside `.cover-empty` (CSS nesting made them silently never match). Only at-rules may
 * contain rules.
 */
import assert from "node:assert/strict";
import { ROOT } from "../helpers/app.ts";

/** Selectors of rules opened inside another style rule (not inside an at-rule). */
function nestedRules(css: string): string[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, "");
  const stack: string[] = [];
  const nested: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "{") {
      const prelude = text.slice(start, i).split(/[;}]/).pop()!.trim();
      if (stack.length > 0 && !stack[stack.length - 1].startsWith("@")) nested.push(prelude);
      stack.push(prelude);
      start = i + 1;
    } else if (ch === "}") {
      stack.pop();
      start = i + 1;
    } else if (ch === ";") {
      start = i + 1;
    }
  }
  assert.equal(stack.length, 0, `unclosed blocks: ${stack.join(" > ")}`);
  return nested;
}

Deno.test("every stylesheet rule sits at top level or inside an at-rule, none inside another rule", async () => {
  const css = await Deno.readTextFile(`${ROOT}/static/styles.css`);
  assert.deepEqual(nestedRules(css), []);
  assert.deepEqual(nestedRules(".a { color: red; .b { color: blue; } }"), [".b"]);
  assert.deepEqual(nestedRules("@media (x) { .a { color: red; } }"), []);
});

/** `property: value` declarations outside `:root` (where the scales themselves are set). */
function declarations(css: string): { property: string; value: string }[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, "").replace(/:root\s*\{[^}]*\}/, "");
  return [...text.matchAll(/([a-z-]+)\s*:\s*([^;{}]+);/g)].map((m) => ({
    property: m[1],
    value: m[2].trim(),
  }));
}

/**
 * Spacing and font sizes that step off the scales: a length in rem or px (other than a 1–2 px
 * hairline) where a `--space-*` or `--text-*` step belongs. Lengths in em follow the text
 * they sit in and are allowed.
 */
function offScale(css: string): string[] {
  const spacing = /^(margin|padding)(-[a-z]+)*$|^(row-|column-)?gap$/;
  const off: string[] = [];
  for (const { property, value } of declarations(css)) {
    const isSpacing = spacing.test(property);
    if (!isSpacing && property !== "font-size") continue;
    const lengths = value.replace(/var\(--[a-z0-9-]+\)/g, "").match(/-?\d*\.?\d+(rem|px)\b/g) ??
      [];
    const stray = lengths.filter((l) => !/^[12]px$/.test(l));
    if (stray.length > 0) off.push(`${property}: ${value}`);
    if (property === "font-size" && !/^(var\(--text-[a-z0-9]+\)|0|inherit|[\d.]+em)$/.test(value)) {
      off.push(`${property}: ${value}`);
    }
  }
  return [...new Set(off)];
}

Deno.test("every margin, padding, gap and font size is a step of the one spacing and type scale", async () => {
  const css = await Deno.readTextFile(`${ROOT}/static/styles.css`);
  assert.deepEqual(offScale(css), []);
  const root = css.match(/:root\s*\{([^}]*)\}/)![1];
  const steps = (prefix: string) => [...root.matchAll(new RegExp(`--${prefix}-[a-z0-9]+`, "g"))];
  assert.ok(steps("space").length >= 6 && steps("space").length <= 10, "a small spacing scale");
  assert.ok(steps("text").length >= 5 && steps("text").length <= 8, "a small type scale");
  // The check itself catches a stray value.
  assert.deepEqual(offScale(".a { padding: 0.35rem var(--space-2); font-size: 0.9rem; }"), [
    "padding: 0.35rem var(--space-2)",
    "font-size: 0.9rem",
  ]);
  assert.deepEqual(offScale(".a { margin: 0 auto; border-top: 1px; font-size: 0.92em; }"), []);
});
