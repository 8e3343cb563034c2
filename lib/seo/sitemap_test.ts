import assert from "node:assert/strict";
import { sitemapIndexXml, sitemapXml } from "./sitemap.ts";

Deno.test("sitemap XML escapes locations and writes W3C dates", () => {
  const xml = sitemapXml([{ loc: "https://p.example/?tag=a&b<c", lastmod: 0 }]);
  assert.ok(xml.includes("<loc>https://p.example/?tag=a&amp;b&lt;c</loc>"));
  assert.ok(xml.includes("<lastmod>1970-01-01T00:00:00.000Z</lastmod>"));
  assert.ok(
    sitemapIndexXml(["https://p.example/s&1"]).includes("<loc>https://p.example/s&amp;1</loc>"),
  );
});

Deno.test("sitemap XML drops the characters XML 1.0 forbids", () => {
  const xml = sitemapXml([{ loc: "https://p.example/?tag=a\u0001b", lastmod: 0 }]);
  assert.ok(xml.includes("<loc>https://p.example/?tag=ab</loc>"));
  assert.ok(sitemapIndexXml(["https://p.example/\u0008s"]).includes("<loc>https://p.example/s<"));
});
