/**
 * On the server, where nothing was typed or chosen yet, a control's state is the value the
 * page is rendered with: the HTML the browser later hydrates is the server's own. What
 * happens to typed text and early choices in the browser is
 * tests/e2e/typed_before_hydration_test.ts.
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

function Rounds({ rounds, mine }: { rounds: string; mine: boolean }) {
  const [value, setValue] = useTypedBefore("rounds", rounds);
  const [chooseMyself, setChooseMyself] = useTypedBefore("mine", mine);
  return (
    <form>
      <select id="rounds" value={value} onChange={(e) => setValue(e.currentTarget.value)}>
        <option value="2">2</option>
        <option value="3">3</option>
      </select>
      <input
        type="radio"
        name="who"
        checked={!chooseMyself}
        onChange={() => setChooseMyself(false)}
      />
      <input
        id="mine"
        type="radio"
        name="who"
        checked={chooseMyself}
        onChange={() => setChooseMyself(true)}
      />
      {chooseMyself && <p>picker</p>}
    </form>
  );
}

Deno.test("on the server a choice's state is the one the page is rendered with", () => {
  assert.equal(typedBefore("mine", false), false);
  assert.equal(typedBefore("mine", true), true);
  assert.equal(
    renderToString(<Rounds rounds="3" mine={false} />),
    '<form><select id="rounds"><option value="2">2</option><option selected value="3">3</option>' +
      '</select><input type="radio" name="who" checked/><input id="mine" type="radio" ' +
      'name="who"/></form>',
  );
  assert.equal(
    renderToString(<Rounds rounds="2" mine />),
    '<form><select id="rounds"><option selected value="2">2</option><option value="3">3</option>' +
      '</select><input type="radio" name="who"/><input id="mine" type="radio" name="who" ' +
      "checked/><p>picker</p></form>",
  );
});
