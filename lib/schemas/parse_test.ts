/** parseInput(): the one validation helper of the routes, and its input helpers. */
import assert from "node:assert/strict";
import { z } from "zod";
import { HttpError } from "../fresh/error.ts";
import { asObject, describeIssues, parseInput, queryObject } from "./parse.ts";

const Body = z.object({ title: z.string({ error: "title is required" }) }).strict();
const Query = z.object({ limit: z.coerce.number().int().min(1, { error: "limit is too small" }) });

function refusal(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpError) return err;
    throw err;
  }
  throw new Error("expected an HttpError");
}

Deno.test("parseInput() returns the parsed data", () => {
  assert.deepEqual(parseInput(Body, { title: "Hi" }), { title: "Hi" });
  assert.deepEqual(parseInput(Query, { limit: "3" }, { in: "query" }), { limit: 3 });
});

Deno.test("parseInput() refuses with a 400 naming the first problem and every bad field", () => {
  const e = refusal(() => parseInput(Body, { title: 1, extra: true }));
  assert.equal(e.status, 400);
  assert.equal(e.message, "title is required");
  assert.deepEqual(e.extra, {
    issues: [
      { path: "title", message: "title is required" },
      { path: "(body)", message: 'Unrecognized key: "extra"' },
    ],
  });
});

Deno.test("parseInput() names a query parameter, and the query (not the body) as the place", () => {
  const e = refusal(() => parseInput(Query, { limit: "0" }, { in: "query" }));
  assert.deepEqual(e.extra, { issues: [{ path: "limit", message: "limit is too small" }] });
  const whole = refusal(() => parseInput(Query, null, { in: "query" }));
  assert.deepEqual((whole.extra.issues as { path: string }[]).map((i) => i.path), ["(query)"]);
});

Deno.test("parseInput() answers with a fixed message when given one, issues unchanged", () => {
  const e = refusal(() => parseInput(Body, {}, { message: "Invalid thing" }));
  assert.equal(e.message, "Invalid thing");
  assert.deepEqual(e.extra, { issues: [{ path: "title", message: "title is required" }] });
});

Deno.test("describeIssues() joins nested paths and names the place of a whole-input issue", () => {
  const parsed = z.object({ tags: z.array(z.string()) }).safeParse({ tags: ["a", 2] });
  assert.ok(!parsed.success);
  assert.deepEqual(describeIssues(parsed.error).map((i) => i.path), ["tags.1"]);
  const root = z.object({}).safeParse("x");
  assert.ok(!root.success);
  assert.deepEqual(describeIssues(root.error).map((i) => i.path), ["(body)"]);
  assert.deepEqual(describeIssues(root.error, "query").map((i) => i.path), ["(query)"]);
});

Deno.test("queryObject() keeps the last of a repeated name; asObject() reads non-objects as {}", () => {
  assert.deepEqual(queryObject(new URL("http://x/?a=1&b=2&a=3")), { a: "3", b: "2" });
  assert.deepEqual(asObject({ a: 1 }), { a: 1 });
  for (const v of [null, [], "s", 1]) assert.deepEqual(asObject(v), {});
});
