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
