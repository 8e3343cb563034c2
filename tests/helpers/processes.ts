/**
 * Real `main.ts` processes for deployment tests: spawn with a chosen environment and
 * permissions, wait for `/healthz`, and sign in through the local providers over HTTP
 * exactly as a browser does (no test-only shortcut into KV).
 */
import assert from "node:assert/strict";
import { ROOT } from "./app.ts";
import { CookieJar, freePort, ROUTES } from "./oauth.ts";
import { readUntil, type SseEvent } from "./sse.ts";
import type { ProviderId } from "@/lib/config.ts";
import { deployDenoVersion } from "@/scripts/deploy_deno.ts";

/**
 * The Deno that test processes run under: `PARLEY_TEST_DENO` (a path to a `deno` binary,
 * or a command such as `npx -y deno@2.5.0`, split on spaces) or else the Deno running the
 * tests. CI sets it to Deno Deploy's runtime for a second pass of the process tests, so
 * `main.ts` is proven to run there (no API newer than Deploy's Deno).
 *
 * @example
 * ```ts
 * const { command, args } = testDeno();
 * new Deno.Command(command, { args: [...args, "--version"] });
 * ```
 */
export function testDeno(): { command: string; args: string[] } {
  const configured = Deno.env.get("PARLEY_TEST_DENO")?.trim().split(/\s+/).filter(Boolean);
  if (!configured?.length) return { command: Deno.execPath(), args: [] };
  return { command: configured[0], args: configured.slice(1) };
}

/**
 * What a test process inherits besides PATH when it runs under `PARLEY_TEST_DENO`: an
 * older Deno on these machines fetches npm packages only with `DENO_TLS_CA_STORE=system`.
 */
function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = { PATH: Deno.env.get("PATH") ?? "" };
  const store = Deno.env.get("DENO_TLS_CA_STORE");
  if (store) env.DENO_TLS_CA_STORE = store;
  return env;
}

/**
 * Spawn `deno run <permissions> main.ts` under `deno` ({@link testDeno} unless a test
 * needs a particular one) with exactly `env` (plus PATH and `DENO_TLS_CA_STORE`).
 */
export function spawnMain(
  env: Record<string, string>,
  permissions: string[] = ["-A"],
  deno: { command: string; args: string[] } = testDeno(),
): Deno.ChildProcess {
  return new Deno.Command(deno.command, {
    args: [...deno.args, "run", ...permissions, "main.ts"],
    cwd: ROOT,
    env: { ...inheritedEnv(), ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/**
 * What a local-mode `main.ts` on its own free loopback port over `kvPath` needs: its
 * origin, and the environment for {@link spawnMain} (`extra` on top, e.g. a fake model's).
 */
export function localMainEnv(
  kvPath: string,
  extra: Record<string, string> = {},
): { origin: string; env: Record<string, string> } {
  const port = freePort();
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    env: {
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      APP_ORIGIN: origin,
      KV_PATH: kvPath,
      LOCAL_MODE: "on",
      ...extra,
    },
  };
}

/** {@link spawnMain} with its output drained and not shown. */
export function spawnMainDrained(env: Record<string, string>): Deno.ChildProcess {
  const child = spawnMain(env);
  collectOutput(child);
  return child;
}

/** Collect a child's output as text (for failure messages). */
export function collectOutput(child: Deno.ChildProcess): () => string {
  let text = "";
  const dec = new TextDecoder();
  const pump = async (s: ReadableStream<Uint8Array>) => {
    for await (const chunk of s) text += dec.decode(chunk);
  };
  pump(child.stdout).catch(() => {});
  pump(child.stderr).catch(() => {});
  return () => text;
}

/** Wait until `origin/healthz` answers 200. */
/**
 * After a crash test: the killed instance reaped (killed now if the test failed first) and
 * the one that took over stopped as Deploy stops it (SIGTERM), each awaited.
 */
export async function stopCrashedAndSuccessor(
  crashed: Deno.ChildProcess,
  successor: Deno.ChildProcess | null,
): Promise<void> {
  try {
    crashed.kill("SIGKILL");
  } catch { /* already gone */ }
  if (successor) {
    successor.kill("SIGTERM");
    await successor.status;
  }
  await crashed.status.catch(() => {});
}

export async function waitHealthy(origin: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    try {
      const res = await fetch(`${origin}/healthz`);
      await res.body?.cancel();
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${origin} did not start`);
}

/**
 * Start a debate on `origin` as `cookie` and read its stream until three messages are
 * done and the fourth is streaming (the moment the crash tests kill the process).
 * Returns the debate's id and the events read.
 */
export async function debateMidway(
  origin: string,
  cookie: string,
): Promise<{ id: string; seen: SseEvent[] }> {
  const res = await fetch(`${origin}/api/debate`, {
    method: "POST",
    headers: { cookie, origin, "content-type": "application/json" },
    body: JSON.stringify({
      topic: "Should cities ban cars downtown?",
      userProfile: { name: "Ada" },
    }),
  });
  assert.equal(res.status, 200);
  const seen = await readUntil(
    res,
    (e, all) => e.type === "chunk" && all.filter((x) => x.type === "message").length === 3,
  );
  return { id: seen[0].data.id as string, seen };
}

/** One browser step: no redirects followed, cookies from the jar. */
export async function step(origin: string, jar: CookieJar, url: string, init: RequestInit = {}) {
  const res = await fetch(new URL(url, origin), {
    ...init,
    redirect: "manual",
    headers: { cookie: jar.header(), ...init.headers },
  });
  jar.take(res);
  return res;
}

/**
 * Open a local provider's chooser page and submit its form the way a browser would
 * (fields from the rendered page), choosing `choice`. Returns the provider's answer.
 */
export async function chooseLocalAccount(
  origin: string,
  jar: CookieJar,
  authorizeUrl: string,
  choice: Record<string, string>,
): Promise<Response> {
  const page = await step(origin, jar, authorizeUrl);
  assert.equal(page.status, 200);
  // Only the chooser's forms (the header has a theme form too).
  const html = (await page.text()).split('data-testid="local-oauth"')[1];
  const hidden = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [
      m[1],
      m[2].replace(/&amp;/g, "&"),
    ]),
  );
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1];
  return await step(origin, jar, action, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    body: new URLSearchParams({ ...hidden, ...choice }).toString(),
  });
}

/**
 * Sign in through a local provider: start, the chooser form (fields from the rendered
 * page), the provider's redirect to the API callback, the app callback. Returns the jar.
 */
export async function localSignIn(
  origin: string,
  provider: ProviderId,
  choice: Record<string, string>,
): Promise<CookieJar> {
  const jar = new CookieJar();
  const start = await step(origin, jar, ROUTES[provider].login);
  const authorize = start.headers.get("location")!;
  assert.ok(authorize.startsWith(`${origin}/local-oauth/${provider}/authorize?`), authorize);
  const decided = await chooseLocalAccount(origin, jar, authorize, choice);
  assert.equal(decided.status, 303);
  const cb = await step(origin, jar, decided.headers.get("location")!);
  const app = cb.headers.get("location")!;
  assert.ok(app.includes("/auth/callback/"), app);
  await step(origin, jar, app);
  return jar;
}

/**
 * Deno Deploy's runtime as a command: `PARLEY_DEPLOY_DENO` (a path or command; CI points
 * it at the copy it installed) or else `npx -y deno@<the version pinned in deno.json>`.
 * Run it with {@link deployDenoEnv} merged into the child's environment.
 *
 * @example
 * ```ts
 * const { command, args } = await deployDeno();
 * ```
 */
export async function deployDeno(): Promise<{ command: string; args: string[] }> {
  const configured = Deno.env.get("PARLEY_DEPLOY_DENO")?.trim().split(/\s+/).filter(Boolean);
  if (configured?.length) return { command: configured[0], args: configured.slice(1) };
  return { command: "npx", args: ["-y", `deno@${await deployDenoVersion()}`] };
}

/** What {@link deployDeno} needs in a cleared environment: npx's cache (HOME) and npm's TLS. */
export function deployDenoEnv(): Record<string, string> {
  return { HOME: Deno.env.get("HOME") ?? "/tmp", DENO_TLS_CA_STORE: "system" };
}

/** The version a Deno command reports (`deno --version`'s first line), e.g. `"2.5.0"`. */
export async function denoVersionOf(deno: { command: string; args: string[] }): Promise<string> {
  const out = await new Deno.Command(deno.command, {
    args: [...deno.args, "--version"],
    env: deployDenoEnv(),
    stdout: "piped",
    stderr: "null",
  }).output();
  const m = /^deno (\d+\.\d+\.\d+)/m.exec(new TextDecoder().decode(out.stdout));
  if (!out.success || !m) throw new Error(`${deno.command} ${deno.args.join(" ")} is not a Deno`);
  return m[1];
}
