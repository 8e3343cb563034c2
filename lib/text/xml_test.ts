import assert from "node:assert/strict";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { xmlText } from "./xml.ts";

Deno.test("xmlText drops every character XML 1.0 forbids and keeps the rest, pairs included", () => {
  const forbidden = [
    ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i))
      .filter((c) => !"\t\n\r".includes(c)),
    "\uD800",
    "\uDFFF",
    "\uFFFE",
    "\uFFFF",
  ];
  for (const c of forbidden) {
    assert.equal(xmlText(`a${c}b`), "ab", `U+${c.charCodeAt(0).toString(16)}`);
  }
  assert.equal(xmlText("tab\there\nline\r🦕 \uE000 \uFFFD"), "tab\there\nline\r🦕 \uE000 \uFFFD");
  // A lone surrogate next to a pair: only the lone one goes.
  assert.equal(xmlText("\uD83E\uDD95\uDD95"), "🦕");
});

Deno.test("xmlText: a strict parser reads back exactly the text, in an element and an attribute", () => {
  const text = `A <b> & "c" 'd' ]]> \u0001e`;
  const xml = `<r a="${xmlText(text)}" b='${xmlText(text)}'>${xmlText(text)}</r>`;
  assert.equal(XMLValidator.validate(xml), true);
  const parsed = new XMLParser({ ignoreAttributes: false, trimValues: false }).parse(xml);
  const expected = `A <b> & "c" 'd' ]]> e`;
  assert.deepEqual(parsed.r, { "#text": expected, "@_a": expected, "@_b": expected });
});
