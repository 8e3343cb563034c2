/** Markdown → HTML: GFM renders, and no XSS payload survives. */
import assert from "node:assert/strict";
import {
  excerpt,
  isSafeHref,
  linkHashtags,
  MARKDOWN_CACHE_BYTES,
  MARKDOWN_CACHE_ENTRIES,
  markdownCacheStats,
  renderMarkdown,
} from "@/lib/markdown.ts";

const PAYLOADS = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  '<a href="javascript:alert(1)">x</a>',
  "<iframe src=https://evil.example></iframe>",
  "<svg onload=alert(1)>",
  '<div style="background:url(javascript:alert(1))">x</div>',
  "[click](javascript:alert(1))",
  "[click](JaVaScRiPt:alert(1))",
  "[click](  javascript:alert(1))",
  "[click](java&#x09;script:alert(1))",
  "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "[click](vbscript:msgbox(1))",
  "[click](file:///etc/passwd)",
  '[click](https://ok.example "title\\" onmouseover=\\"alert(1)")',
  "![x](javascript:alert(1))",
  '![x](https://ok.example/a.png "x\\" onerror=\\"alert(1)")',
  "<https://ok.example/?a=<script>>",
  "[ref]\n\n[ref]: javascript:alert(1)",
  "`<script>`",
  "```html\n<script>alert(1)</script>\n```",
  "<!-- <script>alert(1)</script> -->",
  "<style>body{display:none}</style>",
  '<form action="https://evil.example"><input name=x></form>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  "&lt;script&gt;alert(1)&lt;/script&gt;",
  "[x](https://ok.example)<script>alert(1)</script>",
];

Deno.test("renderMarkdown() renders CommonMark and GFM", () => {
  const html = renderMarkdown(
    "# Title\n\n**bold** _em_ ~~gone~~ `code`\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n\nhttps://deno.com",
  );
  assert.match(html, /<h1>Title<\/h1>/);
  assert.match(html, /<strong>bold<\/strong> <em>em<\/em> <del>gone<\/del> <code>code<\/code>/);
  assert.match(html, /<table tabindex="0">/);
  assert.match(html, /<input type="checkbox" disabled="" checked="" \/>/);
  assert.match(
    html,
    /<a href="https:\/\/deno.com" rel="nofollow ugc noopener">https:\/\/deno.com<\/a>/,
  );
});

Deno.test("renderMarkdown() yields no live tag, handler or dangerous URL for any XSS payload", () => {
  for (const payload of PAYLOADS) {
    const html = renderMarkdown(payload);
    assert.doesNotMatch(
      html,
      /<(script|iframe|svg|style|form|input(?! type="checkbox")|math|div|object|embed)\b/i,
      payload,
    );
    // Event handlers inside real tags (escaped author text like `&lt;img onerror=` is inert).
    // Attribute values never hold a raw quote, so names are what precedes `="…"`.
    for (const tag of html.matchAll(/<[a-z][^>]*>/gi)) {
      const names = [...tag[0].matchAll(/\s([^\s="/>]+)(?:="[^"]*")?/g)].map((m) => m[1]);
      assert.ok(names.every((n) => !/^on/i.test(n)), `${payload} → ${html}`);
    }
    assert.doesNotMatch(html, /(href|src)="\s*(javascript|vbscript|data|file):/i, payload);
    for (const m of html.matchAll(/<a\b[^>]*>/g)) {
      assert.match(m[0], /rel="nofollow ugc noopener"/, payload);
    }
  }
});

Deno.test("isSafeHref() keeps only http(s), mailto and relative targets", () => {
  assert.ok(isSafeHref("https://a.example/x?y=1&amp;z=2"));
  assert.ok(isSafeHref("http://a.example"));
  assert.ok(isSafeHref("mailto:ada@example.com"));
  assert.ok(isSafeHref("/questions/q-1"));
  assert.ok(isSafeHref("#fn-1"));
  assert.ok(!isSafeHref("irc://x"));
  assert.ok(!isSafeHref("javascript:alert(1)"));
  assert.ok(!isSafeHref(""));
  const html = renderMarkdown("[a](irc://chat) [b](mailto:x@y.z) [c](/rel)");
  assert.match(html, /<a rel="nofollow ugc noopener">a<\/a>/);
  assert.match(html, /<a href="mailto:x@y.z" rel="nofollow ugc noopener">b<\/a>/);
  assert.match(html, /<a href="\/rel" rel="nofollow ugc noopener">c<\/a>/);
});

Deno.test("renderMarkdown() prefixes footnote ids so several texts share a page", () => {
  const html = renderMarkdown("a[^1]\n\n[^1]: note", "msg-1-");
  assert.match(html, /id="msg-1-fn-1"/);
});

Deno.test("excerpt() is plain text, shortened with an ellipsis", () => {
  assert.equal(excerpt("# Hi\n\nSome **bold** [link](https://x.y)"), "Hi Some bold link");
  assert.equal(excerpt("word ".repeat(100), 20).length, 20);
});

Deno.test("excerpt() keeps hyphens and underscores inside words", () => {
  assert.equal(excerpt("Use per-voter keys in snake_case"), "Use per-voter keys in snake_case");
  assert.equal(excerpt("- one\n- _two_\n\n---\n> quoted `code`"), "one two quoted code");
});

Deno.test("excerpt drops Markdown tables, code fences, HTML and link syntax, keeping the words", () => {
  const text = [
    "Which store is faster?",
    "",
    "| Option | Latency |",
    "| ------ | ------- |",
    "| KV     | 2 ms    |",
    "",
    "```ts",
    "const x = 1;",
    "```",
    "See <b>this</b> [the docs](https://deno.com) and <https://example.com>, [ref][1].",
    "",
    "[1]: https://example.com/ref",
  ].join("\n");
  const e = excerpt(text);
  assert.equal(
    e,
    "Which store is faster? See this the docs and https://example.com, ref.",
  );
  assert.doesNotMatch(e, /Latency|-{3}|```|const|<|\]\(|\|/);
});

Deno.test("excerpt drops an unclosed code fence and keeps words with pipes in prose", () => {
  assert.equal(excerpt("Intro\n\n```\nnever closed\ncode"), "Intro");
  assert.equal(excerpt("Use a||b in code"), "Use ab in code");
  assert.equal(excerpt("per-voter snake_case"), "per-voter snake_case");
});

Deno.test("renderMarkdown() renders a text once: a repeat is the cached string, an edit a new render", () => {
  const text = `cache me **${crypto.randomUUID()}**`;
  const first = renderMarkdown(text);
  const before = markdownCacheStats().entries;
  assert.equal(renderMarkdown(text), first);
  assert.equal(markdownCacheStats().entries, before, "a repeat adds no entry");
  assert.match(renderMarkdown(`${text} edited`), /edited/);
  assert.equal(markdownCacheStats().entries, before + 1);
});

Deno.test("renderMarkdown() cache stays within its entry and size bounds; a huge text never flushes it", () => {
  const keep = `kept ${crypto.randomUUID()}`;
  renderMarkdown(keep);
  for (let i = 0; i < MARKDOWN_CACHE_ENTRIES + 200; i++) {
    if (i % 1000 === 0) renderMarkdown(keep); // recently used: survives the flood
    renderMarkdown(`flood ${i} *${i}*`);
  }
  const stats = markdownCacheStats();
  assert.ok(stats.entries <= MARKDOWN_CACHE_ENTRIES, `${stats.entries} entries`);
  assert.ok(stats.size <= MARKDOWN_CACHE_BYTES, `${stats.size} size`);
  // A text too big to cache (over 1% of the budget) is rendered but never flushes the rest.
  const entries = stats.entries;
  const huge = "x".repeat(MARKDOWN_CACHE_BYTES / 100 + 1);
  assert.equal(renderMarkdown(huge), `<p>${huge}</p>`);
  assert.equal(markdownCacheStats().entries, entries);
});

Deno.test("renderMarkdown() builds the GFM syntax extension once and the HTML one once per id prefix", () => {
  const start = markdownCacheStats();
  assert.equal(start.syntaxBuilds, 1);
  for (let i = 0; i < 50; i++) renderMarkdown(`gfm ${i} ~~x~~ | a |\n| - |`, "p-same-");
  renderMarkdown("one more", "p-same-");
  const end = markdownCacheStats();
  assert.equal(end.syntaxBuilds, 1);
  assert.ok(end.htmlBuilds - start.htmlBuilds <= 1, `${end.htmlBuilds - start.htmlBuilds} builds`);
});

Deno.test("renderMarkdown() links #hashtags to their tag feed, the tag in its canonical form", () => {
  assert.equal(
    renderMarkdown('Try #Deno and (#Deno_KV-2), "#quoted"'),
    '<p>Try <a href="/?tag=deno" class="hashtag">#Deno</a> and (<a href="/?tag=deno_kv-2" class="hashtag">#Deno_KV-2</a>), &quot;<a href="/?tag=quoted" class="hashtag">#quoted</a>&quot;</p>',
  );
  assert.equal(
    renderMarkdown("#Ünïcode"),
    '<p><a href="/?tag=%C3%BCn%C3%AFcode" class="hashtag">#Ünïcode</a></p>',
  );
});

Deno.test("renderMarkdown() leaves #words in code, pre and links plain", () => {
  const html = renderMarkdown(
    "`#code` and [see #inlink](https://a.example/#frag) <https://a.example/p#auto>\n\n```\n#pre\n```",
  );
  assert.doesNotMatch(html, /class="hashtag"/);
  assert.match(html, /<code>#code<\/code>/);
  assert.match(html, />see #inlink<\/a>/);
  assert.match(html, /<code>#pre\n<\/code>/);
});

Deno.test("renderMarkdown() makes no hashtag of a heading marker, an entity, a URL fragment, a#b or #42", () => {
  const html = renderMarkdown(
    "# Heading\n\n&#123; &amp;#x41; &#tag a#b example.com/page#part issue #42 #-x",
  );
  assert.doesNotMatch(html, /hashtag/);
  assert.match(html, /<h1>Heading<\/h1>/);
});

Deno.test("renderMarkdown() hashtags are XSS-safe: only word characters become a link, the rest stays escaped", () => {
  const html = renderMarkdown("#a\"onmouseover=alert(1) #<script>alert(1)</script> #b'x");
  assert.equal(
    html,
    '<p><a href="/?tag=a" class="hashtag">#a</a>&quot;onmouseover=alert(1) #&lt;script&gt;alert(1)&lt;/script&gt; <a href="/?tag=b" class="hashtag">#b</a>\'x</p>',
  );
  for (const p of PAYLOADS) {
    const out = renderMarkdown(`#tag ${p} #tag`);
    assert.doesNotMatch(out, /<(script|iframe|svg|style|form|math)\b/i);
    for (const tag of out.matchAll(/<[a-z][^>]*>/gi)) {
      const names = [...tag[0].matchAll(/\s([^\s="/>]+)(?:="[^"]*")?/g)].map((m) => m[1]);
      assert.ok(names.every((n) => !/^on/i.test(n)), `${p} → ${out}`);
    }
    assert.ok(out.startsWith('<p><a href="/?tag=tag" class="hashtag">#tag</a> '), out);
  }
  // A tag longer than tags may be stays text.
  assert.equal(linkHashtags(`<p>#${"a".repeat(41)}</p>`), `<p>#${"a".repeat(41)}</p>`);
});
