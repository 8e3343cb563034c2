import assert from "node:assert/strict";
import { canonicalUrl } from "./page_meta.tsx";

Deno.test("canonicalUrl keeps the path and only the parameters that name content, on the public origin", () => {
  const at = (u: string) => canonicalUrl("https://p.example", new URL(u, "http://localhost:8080"));
  assert.equal(at("/questions/q1?sort=votes&posted=m1"), "https://p.example/questions/q1");
  assert.equal(at("/questions/q1?page=2"), "https://p.example/questions/q1?page=2");
  assert.equal(at("/?page=1&tag=go&q=x"), "https://p.example/?tag=go");
  assert.equal(at("/u/u1?tab=answers"), "https://p.example/u/u1?tab=answers");
});

Deno.test("canonicalUrl names one page for the spellings that show it: a tag in any case, an unreadable page number as page 1", () => {
  const at = (u: string) => canonicalUrl("https://p.example", new URL(u, "http://localhost:8080"));
  assert.equal(at("/?tag=SEO"), "https://p.example/?tag=seo");
  assert.equal(at("/?tag=Deno%20KV"), "https://p.example/?tag=deno-kv");
  for (const page of ["0", "abc", "-2", "1.5", "01", "99999999"]) {
    assert.equal(at(`/?page=${page}`), "https://p.example/", page);
  }
  assert.equal(at("/?page=12"), "https://p.example/?page=12");
});
