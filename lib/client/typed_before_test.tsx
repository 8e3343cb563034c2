/**
 * On the server, where nothing was typed yet, a field's state is the value the page is
 * rendered with: the HTML the browser later hydrates is the server's own. What happens to
 * typed text in the browser is tests/e2e/typed_before_hydration_test.ts.
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { typedBefore, useTypedBefore } from "./typed_before.ts";

function Topic({ topic }: { topic: string }) {
  const [value, setValue] = useTypedBefore("topic", topic);
  return (
    <form>
      <textarea id="topic" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
      <button type="submit" disabled={!value.trim()}>Start</button>
    </form>
  );
}

Deno.test("on the server a field's text is the value the page is rendered with", () => {
  assert.equal(typedBefore("topic"), "");
  assert.equal(typedBefore("topic", "Night buses"), "Night buses");
  assert.equal(
    renderToString(<Topic topic="Night buses" />),
    '<form><textarea id="topic">Night buses</textarea><button type="submit">Start</button></form>',
  );
  assert.equal(
    renderToString(<Topic topic="" />),
    '<form><textarea id="topic"></textarea><button type="submit" disabled>Start</button></form>',
  );
});
