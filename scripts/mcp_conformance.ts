/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`, server
 * scenarios) against Parley's `/mcp` (docs/operations.md#mcp-conformance):
 *
 * 1. starts the app in local mode over a fresh KV file in a temporary directory, on a
 *    free loopback port (built as main.ts builds it; `deno task build` must have run);
 * 2. signs a person in and makes an agent key through `POST /api/profile/agent-keys`;
 * 3. serves the app with that key added as `Authorization: Bearer …` to every request
 *    that has none — the suite has no option for a header, and `/mcp` refuses requests
 *    without a key — leaving every other header (`Host`, `Origin`) as the suite sent it;
 * 4. runs the suite (`server --url http://127.0.0.1:PORT/mcp --suite all`) under Deno:
 *    the package needs Node 22's `fs.globSync`, so `npx` on Node 20 cannot start it;
 * 5. prints each scenario's checks and a table of scenarios with pass/fail, and which
 *    ones only a server carrying the suite's own `test_*` fixtures can pass.
 *
 * Usage: `deno task build && deno run -A scripts/mcp_conformance.ts [--scenario NAME]`.
 * Exit status 0 when every scenario that does not need the suite's fixtures passes.
 *
 * @module
 */
import { createApp } from "../lib/app.ts";
import { parseConfig } from "../lib/config.ts";
import { readBuildInfo } from "../lib/fresh/assets.ts";
import { openKv } from "../lib/kv/open.ts";
import { jobRunner } from "../lib/jobs/runner.ts";
import { resolveAppSecret } from "../lib/auth/secret.ts";
import { createSession, sessionCookieName } from "../lib/auth/sessions.ts";
import { createUser } from "../lib/auth/users.ts";
import type { Services } from "../lib/services.ts";
import manifest from "../manifest.gen.ts";

/** The suite's version this script was written against (pinned: scenarios change). */
export const CONFORMANCE_PACKAGE = "npm:@modelcontextprotocol/conformance@0.1.16";

/**
 * Scenarios that test a fixture the suite expects the server to carry (a tool named
 * `test_simple_text`, a resource `test://static-text`, a prompt `test_simple_prompt`…),
 * or a feature a stateless server without sampling, elicitation or server-sent streams
 * cannot offer — with the reason. Every other scenario must pass.
 */
export const OUT_OF_SCOPE: Record<string, string> = {
  "completion-complete":
    "completes the suite's prompt test_prompt_with_arguments (Parley answers Invalid params for an unknown prompt, as the spec says)",
  "tools-call-simple-text": "calls the suite's tool test_simple_text",
  "tools-call-image": "calls the suite's tool test_image_content",
  "tools-call-audio": "calls the suite's tool test_audio_content",
  "tools-call-embedded-resource": "calls the suite's tool test_embedded_resource",
  "tools-call-mixed-content": "calls the suite's tool test_multiple_content_types",
  "tools-call-with-logging":
    "calls the suite's tool test_tool_with_logging (and needs log notifications, which a stateless JSON answer cannot carry)",
  "tools-call-error": "calls the suite's tool test_error_handling",
  "tools-call-with-progress":
    "calls the suite's tool test_tool_with_progress (and needs progress notifications mid-call)",
  "tools-call-sampling":
    "calls the suite's tool test_sampling (sampling: Parley asks no client model)",
  "tools-call-elicitation":
    "calls the suite's tool test_elicitation (elicitation: Parley asks the person nothing)",
  "elicitation-sep1034-defaults":
    "calls the suite's tool test_elicitation_sep1034_defaults (elicitation)",
  "elicitation-sep1330-enums":
    "calls the suite's tool test_elicitation_sep1330_enums (elicitation)",
  "json-schema-2020-12": "lists the suite's tool json_schema_2020_12_tool",
  "server-sse-polling":
    "calls the suite's tool test_reconnection and needs SSE resumption (Parley answers JSON, stateless)",
  "server-sse-multiple-streams":
    "needs a session with several SSE streams (Parley is stateless, JSON responses)",
  "resources-read-text": "reads the suite's resource test://static-text",
  "resources-read-binary": "reads the suite's resource test://static-binary",
  "resources-templates-read": "reads the suite's template test://template/{id}/data",
  "resources-subscribe":
    "subscribes to test://watched-resource; Parley declares subscribe: false (stateless: nothing stays open to push updates on)",
  "resources-unsubscribe": "as resources-subscribe",
  "prompts-get-simple": "gets the suite's prompt test_simple_prompt",
  "prompts-get-with-args": "gets the suite's prompt test_prompt_with_arguments",
  "prompts-get-embedded-resource": "gets the suite's prompt test_prompt_with_embedded_resource",
  "prompts-get-with-image": "gets the suite's prompt test_prompt_with_image",
};

/** One check of a scenario, as the suite writes it to `checks.json`. */
interface Check {
  id: string;
  name: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

/** A free TCP port on 127.0.0.1 (closed again at once: the app binds it next). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** The scenarios the installed suite knows. */
async function listScenarios(dir: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-lock", CONFORMANCE_PACKAGE, "list", "--server"],
    // Outside the project: the suite's packages stay out of its deno.json and deno.lock.
    cwd: dir,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n")
    .map((l) => /^\s*-\s+(\S+)/.exec(l)?.[1]).filter((s): s is string => !!s);
}

/** Run one scenario; its checks (from the suite's output directory). */
async function runScenario(url: string, scenario: string, dir: string): Promise<Check[]> {
  const outDir = `${dir}/results-${scenario}`;
  await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--no-lock",
      CONFORMANCE_PACKAGE,
      "server",
      "--url",
      url,
      "--scenario",
      scenario,
      "-o",
      outDir,
    ],
    stdout: "null",
    stderr: "null",
    cwd: dir,
  }).output();
  const checks: Check[] = [];
  for await (const f of walk(outDir)) {
    if (f.endsWith("checks.json")) checks.push(...JSON.parse(await Deno.readTextFile(f)));
  }
  return checks;
}

async function* walk(dir: string): AsyncGenerator<string> {
  try {
    for await (const e of Deno.readDir(dir)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) yield* walk(path);
      else yield path;
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
}

async function main(): Promise<number> {
  const only = Deno.args.includes("--scenario")
    ? Deno.args[Deno.args.indexOf("--scenario") + 1]
    : undefined;
  const root = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
  const dir = await Deno.makeTempDir({ prefix: "parley-mcp-conformance-" });
  const port = freePort();
  const config = parseConfig({
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
    KV_PATH: `${dir}/parley.sqlite3`,
    LOCAL_MODE: "on",
    EXPERT_PANEL_PER_DAY: "0",
  });
  const kv = await openKv(config.kvPath);
  const secret = await resolveAppSecret(kv, config);
  const services: Services = { kv, config, secret, now: Date.now };
  const app = createApp(services, {
    manifest,
    build: await readBuildInfo(`${root}/.build`),
    buildDir: `${root}/.build`,
    logRequests: false,
  });

  // A person and their agent key, made through the API as the key page does.
  const user = await createUser(kv, {
    provider: "provider_a",
    name: "Conformance",
    image: null,
    bio: "",
    email: null,
  });
  const { token } = await createSession(kv, user.id, "provider_a", Date.now());
  const made = await app.request(`${config.appOrigin}/api/profile/agent-keys`, {
    method: "POST",
    headers: {
      cookie: `${sessionCookieName(config.appOrigin)}=${token}`,
      origin: config.appOrigin,
      "content-type": "application/json",
    },
    body: JSON.stringify({ name: "conformance" }),
  });
  if (made.status !== 201) throw new Error(`making a key: ${made.status} ${await made.text()}`);
  const { key } = await made.json() as { key: string };
  // The suite's own request budget: a run makes a few hundred requests.
  services.agentRateLimit = 100_000;

  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, (req, info) => {
    if (req.headers.has("authorization")) return app.fetch(req, info);
    const headers = new Headers(req.headers);
    headers.set("authorization", `Bearer ${key}`);
    return app.fetch(new Request(req, { headers }), info);
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  console.log(`Parley on ${url} (local mode, KV in ${dir}); suite ${CONFORMANCE_PACKAGE}`);

  const rows: { scenario: string; result: string; why: string }[] = [];
  let failures = 0;
  try {
    const scenarios = only ? [only] : await listScenarios(dir);
    for (const scenario of scenarios) {
      const checks = await runScenario(url, scenario, dir);
      const failed = checks.filter((c) => c.status === "FAILURE");
      const warned = checks.filter((c) => c.status === "WARNING");
      const passed = checks.length > 0 && failed.length === 0;
      const outOfScope = OUT_OF_SCOPE[scenario];
      console.log(`\n${scenario}`);
      for (const c of checks) {
        console.log(
          `  ${c.status.padEnd(7)} ${c.id}${c.errorMessage ? ` — ${c.errorMessage}` : ""}`,
        );
      }
      if (!passed && !outOfScope) failures++;
      rows.push({
        scenario,
        result: passed
          ? warned.length ? "pass (warning)" : "pass"
          : outOfScope
          ? "fail (out of scope)"
          : "FAIL",
        why: passed
          ? warned.map((c) => c.errorMessage ?? c.id).join("; ")
          : outOfScope ?? failed.map((c) => c.errorMessage ?? c.id).join("; "),
      });
    }
  } finally {
    await server.shutdown();
    await jobRunner(kv).shutdown(0);
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
  console.log("\n| scenario | result | why |\n| --- | --- | --- |");
  for (const r of rows) console.log(`| ${r.scenario} | ${r.result} | ${r.why} |`);
  const passedCount = rows.filter((r) => r.result.startsWith("pass")).length;
  console.log(
    `\n${passedCount} passed, ${rows.length - passedCount} failed ` +
      `(${rows.length - passedCount - failures} of them need the suite's own fixtures)`,
  );
  return failures ? 1 : 0;
}

if (import.meta.main) Deno.exit(await main());
