/** The start line says where Parley listens and, in local mode, who can reach it. */
import assert from "node:assert/strict";
import { parseConfig } from "./config.ts";
import { isLoopback, startLine } from "./start_line.ts";

Deno.test("startLine() in local mode on loopback says only this computer can reach it and how to open it", () => {
  const config = parseConfig({ KV_PATH: ":memory:" });
  const line = startLine(config, { hostname: config.hostname, port: 8000 }, { standIn: true });
  assert.match(line, /^Parley listening on http:\/\/127\.0\.0\.1:8000 — local mode/);
  assert.match(line, /only this computer can reach it \(set HOSTNAME=0\.0\.0\.0 to open it/);
  assert.match(line, /offline stand-in model/);
  assert.match(line, /origin http:\/\/localhost:8000$/);
});

Deno.test("startLine() in local mode on an open address warns that anyone reaching it can sign in as the Moderator", () => {
  const config = parseConfig({ KV_PATH: ":memory:", HOSTNAME: "0.0.0.0" });
  const line = startLine(config, { hostname: "0.0.0.0", port: 8080 }, null);
  assert.match(line, /http:\/\/0\.0\.0\.0:8080/);
  assert.match(line, /open to your network because HOSTNAME is set/);
  assert.match(line, /the Moderator too/);
  assert.match(line, /no language model/);
  const v6 = startLine(config, { hostname: "::", port: 8080 }, { model: "m" });
  assert.match(v6, /http:\/\/\[::\]:8080/);
});

Deno.test("startLine() in production says nothing of local accounts", () => {
  const config = parseConfig({ LOCAL_MODE: "off", APP_SECRET: "x".repeat(32) });
  const line = startLine(config, { hostname: "0.0.0.0", port: 8000 }, { model: "gpt-4o-mini" });
  assert.match(line, /— production; model gpt-4o-mini;/);
  assert.doesNotMatch(line, /local mode|local account|Moderator/);
});

Deno.test("isLoopback() knows this computer's addresses", () => {
  for (const h of ["127.0.0.1", "127.1.2.3", "::1", "localhost"]) assert.ok(isLoopback(h), h);
  for (const h of ["0.0.0.0", "::", "192.168.1.2"]) assert.ok(!isLoopback(h), h);
});
