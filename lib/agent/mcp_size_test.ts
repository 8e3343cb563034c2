import assert from "node:assert/strict";
import {
  clipText,
  compactAuthor,
  fairCap,
  fitTexts,
  MCP_AVATAR_MAX,
  utf8Length,
  utf8Prefix,
} from "./mcp_size.ts";

Deno.test("utf8Prefix never splits a character and fits the byte budget", () => {
  assert.equal(utf8Prefix("日本語", 7), "日本");
  assert.equal(utf8Prefix("a😀b", 4), "a");
  assert.equal(utf8Prefix("a😀b", 5), "a😀");
  assert.equal(utf8Prefix("abc", 0), "");
  for (const s of ["héllo wörld", "日本語のテキスト", "emoji 😀😀😀 mix"]) {
    for (let n = 0; n <= utf8Length(s); n++) {
      const p = utf8Prefix(s, n);
      assert.ok(utf8Length(p) <= n && s.startsWith(p));
    }
  }
});

Deno.test("fairCap: short texts keep their length, long ones share the rest equally", () => {
  assert.equal(fairCap([10, 20], 100), Infinity);
  assert.equal(fairCap([100, 5_000, 9_000], 4_100), 2_000);
  assert.equal(fairCap([9_000, 9_000, 9_000], 3_000), 1_000);
  const lengths = [50, 700, 12_000, 30, 4_000];
  const cap = fairCap(lengths, 3_000);
  const used = lengths.reduce((a, l) => a + Math.min(l, cap), 0);
  assert.ok(used <= 3_000 && used > 3_000 - lengths.length, `${used}`);
});

Deno.test("clipText ends a clipped text with how much is shown and the call for the rest", () => {
  assert.deepEqual(clipText("short", 100, "read_post {…}"), { text: "short", clipped: false });
  const { text, clipped } = clipText("word ".repeat(1000), 100, 'read_post {id: "m1"}');
  assert.equal(clipped, true);
  assert.match(
    text,
    /\n\n\[… clipped: 99 of 5000 characters shown; read_post \{id: "m1"\} returns it whole\]$/,
  );
});

Deno.test("fitTexts: the lead keeps its share, the others share the budget, order kept", () => {
  const fitted = fitTexts(
    [
      { text: "d".repeat(10_000), whole: "q" },
      { text: "short answer", whole: "m1" },
      { text: "a".repeat(20_000), whole: "m2" },
      { text: "b".repeat(20_000), whole: "m3" },
    ],
    8_000,
    { leadShare: 2_000 },
  );
  assert.deepEqual(fitted.map((f) => f.clipped), [true, false, true, true]);
  assert.equal(fitted[1].text, "short answer");
  assert.ok(fitted[0].text.startsWith("d".repeat(2_000)));
  const body = (f: { text: string }) => f.text.split("\n\n[")[0].length;
  assert.equal(body(fitted[2]), body(fitted[3]));
  assert.ok(body(fitted[2]) + body(fitted[3]) + 12 <= 6_000);
  assert.deepEqual(fitTexts([], 100), []);
});

Deno.test("compactAuthor drops only over-long avatar URLs", () => {
  const short = { id: "u", name: "Ada", avatar: "https://x.example/a.png" };
  assert.equal(compactAuthor(short), short);
  const long = { ...short, avatar: `https://x.example/${"a".repeat(MCP_AVATAR_MAX)}` };
  assert.deepEqual(compactAuthor(long), { ...short, avatar: null });
  assert.deepEqual(compactAuthor({ ...short, avatar: null }), { ...short, avatar: null });
});
