/** Configuration: defaults, local mode, and errors that name the variable. */
import assert from "node:assert/strict";
import { ConfigError, parseConfig } from "@/lib/config.ts";

const providerA = {
  PROVIDER_A_CLIENT_ID: "id",
  PROVIDER_A_CLIENT_SECRET: "secret",
  PROVIDER_A_AUTHORIZE_URL: "https://a.example/authorize",
  PROVIDER_A_TOKEN_URL: "https://a.example/token",
  PROVIDER_A_USERINFO_URL: "https://a.example/userinfo",
};

const SECRET = "x".repeat(32);

Deno.test("parseConfig() defaults to local mode on port 8000 with a derived origin", () => {
  const c = parseConfig({});
  assert.equal(c.port, 8000);
  assert.equal(c.hostname, "127.0.0.1", "local mode listens on this computer only");
  assert.equal(c.hostnameSet, false);
  assert.equal(c.appOrigin, "http://localhost:8000");
  assert.equal(c.kvPath, "./data/parley.kv");
  assert.equal(c.llm.model, "gpt-4o-mini");
  assert.equal(c.localMode, true);
});

Deno.test("parseConfig() names the variable of a bad value", () => {
  assert.throws(
    () => parseConfig({ PORT: "eighty" }),
    (e) => e instanceof ConfigError && /^PORT /.test(e.message),
  );
  assert.throws(() => parseConfig({ PORT: "70000" }), /ConfigError: PORT /);
  assert.throws(() => parseConfig({ APP_ORIGIN: "ftp://x" }), /ConfigError: APP_ORIGIN /);
  assert.throws(
    () => parseConfig({ LOCAL_MODE: "maybe" }),
    /ConfigError: LOCAL_MODE must be on, off or auto/,
  );
  assert.throws(
    () => parseConfig({ APP_SECRET: "short" }),
    /ConfigError: APP_SECRET must be at least 32/,
  );
  assert.throws(() => parseConfig({ LLM_BASE_URL: "not a url" }), /ConfigError: LLM_BASE_URL /);
});

Deno.test("parseConfig() turns local mode off for a real provider and then requires APP_SECRET", () => {
  assert.throws(() => parseConfig(providerA), /ConfigError: APP_SECRET is required/);
  const c = parseConfig({ ...providerA, APP_SECRET: SECRET });
  assert.equal(c.localMode, false);
  assert.equal(c.providers.provider_a?.profileUrl, "https://a.example/userinfo");
});

Deno.test("parseConfig() names the missing variable of a partly configured provider", () => {
  const { PROVIDER_A_TOKEN_URL: _, ...partial } = providerA;
  assert.throws(
    () => parseConfig({ ...partial, APP_SECRET: SECRET }),
    /ConfigError: PROVIDER_A_TOKEN_URL is required/,
  );
});

Deno.test("parseConfig() requires a secret with LOCAL_MODE=off and refuses LOCAL_MODE=on with a real provider", () => {
  assert.throws(() => parseConfig({ LOCAL_MODE: "off" }), /ConfigError: APP_SECRET/);
  assert.equal(parseConfig({ LOCAL_MODE: "off", APP_SECRET: SECRET }).localMode, false);
  assert.throws(
    () => parseConfig({ ...providerA, LOCAL_MODE: "on", APP_SECRET: SECRET }),
    /ConfigError: LOCAL_MODE/,
  );
});

Deno.test("parseConfig() treats empty variables as unset and drops an origin's trailing slash", () => {
  const c = parseConfig({ PORT: "", APP_ORIGIN: "https://parley.example/" });
  assert.equal(c.port, 8000);
  assert.equal(c.appOrigin, "https://parley.example");
});

Deno.test("parseConfig() reads the live-stream caps, defaulting to 20 per address and 1,000 per process", () => {
  assert.deepEqual(parseConfig({}).streams, { perIp: 20, perProcess: 1000 });
  assert.deepEqual(
    parseConfig({ STREAMS_PER_IP: "3", STREAMS_PER_PROCESS: "7" }).streams,
    { perIp: 3, perProcess: 7 },
  );
  assert.throws(() => parseConfig({ STREAMS_PER_IP: "0" }), /ConfigError: STREAMS_PER_IP/);
  assert.throws(
    () => parseConfig({ STREAMS_PER_PROCESS: "many" }),
    /ConfigError: STREAMS_PER_PROCESS/,
  );
});

Deno.test("parseConfig() reads the embeddings model and its dimensions, 256 by default", () => {
  const c = parseConfig({});
  assert.equal(c.llm.embeddingModel, "text-embedding-3-small");
  assert.equal(c.llm.embeddingDimensions, 256);
  const set = parseConfig({
    LLM_EMBEDDING_MODEL: "text-embedding-3-large",
    LLM_EMBEDDING_DIMENSIONS: "1024",
  });
  assert.equal(set.llm.embeddingModel, "text-embedding-3-large");
  assert.equal(set.llm.embeddingDimensions, 1024);
  for (const bad of ["0", "4", "1.5", "many", "4000"]) {
    assert.throws(
      () => parseConfig({ LLM_EMBEDDING_DIMENSIONS: bad }),
      /ConfigError: LLM_EMBEDDING_DIMENSIONS must be/,
      bad,
    );
  }
});

Deno.test("parseConfig() binds local mode to 127.0.0.1 unless HOSTNAME is set; production to 0.0.0.0", () => {
  assert.equal(parseConfig({ LOCAL_MODE: "on" }).hostname, "127.0.0.1");
  const open = parseConfig({ LOCAL_MODE: "on", HOSTNAME: "0.0.0.0" });
  assert.deepEqual([open.hostname, open.hostnameSet], ["0.0.0.0", true]);
  assert.equal(parseConfig({ HOSTNAME: "::" }).hostname, "::");
  // An empty HOSTNAME= counts as unset, like every variable.
  assert.equal(parseConfig({ HOSTNAME: "" }).hostname, "127.0.0.1");
  const production = parseConfig({ ...providerA, APP_SECRET: SECRET });
  assert.deepEqual([production.hostname, production.localMode], ["0.0.0.0", false]);
  assert.equal(parseConfig({ LOCAL_MODE: "off", APP_SECRET: SECRET }).hostname, "0.0.0.0");
});
