/**
 * Secrets never reach a log: a tour through sign-in, agent keys, agent calls, and AI
 * features whose model fails (with an OpenAI-compatible server that echoes the caller's
 * key in its error, as some do) is run with the request log and the console captured
 * the way Deno prints them (`Deno.inspect`, so error causes and properties count). No
 * line may hold a session cookie, an agent key, an OAuth code or state, an email, the
 * LLM API key, a client secret or APP_SECRET.
 */
import assert from "node:assert/strict";
import { logSink } from "@/lib/http/log.ts";
import { agentCall, agentKey, member, postAs } from "../helpers/community.ts";
import {
  appWithFakeProviders,
  callback,
  CookieJar,
  ROUTES,
  signInThrough,
  startLogin,
  TEST_SECRET,
} from "../helpers/oauth.ts";
import { sessionCookieName } from "@/lib/auth/sessions.ts";

const LLM_KEY = "sk-llm-5ecret-key-0123456789";

/** An OpenAI-compatible server that refuses every call and echoes the key it was sent. */
function echoingModel() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    await req.body?.cancel();
    const auth = req.headers.get("authorization") ?? "";
    return Response.json(
      { error: { message: `Incorrect API key provided: ${auth}`, type: "invalid_request_error" } },
      { status: 401, headers: { "x-echo-authorization": auth } },
    );
  });
  const port = (server.addr as Deno.NetAddr).port;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, close: () => server.shutdown() };
}

function capture() {
  const lines: string[] = [];
  const methods = ["log", "info", "warn", "error", "debug"] as const;
  const saved = methods.map((m) => console[m]);
  for (const m of methods) {
    console[m] = (...args: unknown[]) => {
      lines.push(
        args.map((a) => typeof a === "string" ? a : Deno.inspect(a, { depth: 8 })).join(" "),
      );
    };
  }
  const write = logSink.write;
  logSink.write = (line) => void lines.push(line);
  return {
    lines,
    restore() {
      methods.forEach((m, i) => (console[m] = saved[i]));
      logSink.write = write;
    },
  };
}

Deno.test("no log line carries a session, agent key, OAuth code/state, email, or any secret; KV holds no raw agent key", async () => {
  const model = echoingModel();
  const { t, fake, close } = await appWithFakeProviders({
    logRequests: true,
    env: { LLM_API_KEY: LLM_KEY, LLM_BASE_URL: model.baseUrl },
    llmTimeoutMs: 5000,
  });
  const log = capture();
  const secrets: string[] = [LLM_KEY, TEST_SECRET];
  try {
    for (const [k, v] of Object.entries(fake.env)) if (/SECRET/.test(k)) secrets.push(v);
    // Sign-in with each provider (codes, states and emails pass through).
    const cookieName = sessionCookieName(t.services.config.appOrigin);
    for (const p of ["provider_a", "provider_b", "provider_c"] as const) {
      const { jar } = await signInThrough(t, p);
      secrets.push(jar.get(cookieName)!, `code-${p}`);
    }
    // A failed exchange logs its cause: the code and state must not be in it.
    const jar = new CookieJar();
    const { state } = await startLogin(t, "provider_b", jar);
    fake.answers.provider_b.token = { status: 500, body: { error: "bad code" } };
    await callback(t, "provider_b", jar, { code: "code-that-fails-5ecret", state });
    secrets.push(state, "code-that-fails-5ecret");
    await t.request(`${ROUTES.provider_a.app}`, {
      headers: { cookie: "provider_a_auth_payload=forged-5ecret-payload" },
    });
    secrets.push("forged-5ecret-payload");

    // Agent keys: created, used, mistyped, revoked.
    const bob = await member(t, "Bob");
    secrets.push(bob.cookie.split("=")[1]);
    const key = await agentKey(t, bob);
    secrets.push(key);
    assert.equal((await agentCall(t, key, "/api/agent/me")).status, 200);
    await agentCall(t, key, "/api/agent/questions", { body: "{not json" });
    const wrong = `agent_${"x".repeat(43)}`;
    assert.equal((await agentCall(t, wrong, "/api/agent/me")).status, 401);
    secrets.push(wrong);

    // The model refuses: participation and a debate fail and log why.
    const part = await postAs(t, bob, "/api/agent/participate", { forceAction: "ask_new" });
    assert.equal(part.status, 500);
    await part.body?.cancel();
    const debate = await postAs(t, bob, "/api/debate", {
      topic: "Logs",
      userProfile: { name: "Bob" },
    });
    await debate.text();

    // API keys are kept hashed: the raw key is in no KV key or value.
    for await (const e of t.kv.list({ prefix: [] })) {
      const text = JSON.stringify([e.key, e.value], (_k, v) => typeof v === "bigint" ? `${v}` : v);
      assert.ok(!text.includes(key.slice(6)), `raw agent key stored under ${e.key.join("/")}`);
    }

    // Emails of the fake providers' accounts.
    for (const p of Object.values(fake.answers)) {
      for (const m of JSON.stringify(p).matchAll(/[\w.+-]+@[\w-]+\.[\w.]+/g)) secrets.push(m[0]);
    }
  } finally {
    log.restore();
    await close();
    await model.close();
  }
  assert.ok(log.lines.length > 20, "the tour produced log lines");
  // The failures were logged (so their text was scanned), each with its cause in words.
  for (
    const expected of [
      /participate: The model failed/,
      /Debate \S+ failed: The model/,
      /token endpoint answered 500/,
    ]
  ) {
    assert.ok(log.lines.some((l) => expected.test(l)), `no log line matches ${expected}`);
  }
  const leaks = log.lines.flatMap((line) =>
    secrets.filter((s) => s && line.includes(s)).map((s) =>
      `${s.slice(0, 12)}… in: ${line.slice(0, 300)}`
    )
  );
  assert.deepEqual(leaks, []);
});
