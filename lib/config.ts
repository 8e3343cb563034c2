/**
 * The one place that reads the process environment. Every variable is part of the
 * deployment interface (docs/decisions.md#configuration); a bad value stops start-up with a message that
 * names the variable, never a stack trace.
 *
 * @module
 */
import { z } from "zod";

/** Provider identifiers as docs/decisions.md#configuration names them. */
export const PROVIDERS = ["provider_a", "provider_b", "provider_c"] as const;
export type ProviderId = typeof PROVIDERS[number];

/** Endpoints and credentials of one identity provider. */
export interface ProviderConfig {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** provider_a and provider_c: userinfo; provider_b: user. */
  profileUrl: string;
  /** provider_b only: the emails endpoint used when the profile has no email. */
  emailsUrl?: string;
  /**
   * `PROVIDER_X_ISSUER`: the `iss` the provider's authorization response must carry when
   * it carries one (RFC 9207, docs/interface.md#sign-in).
   */
  issuer?: string;
  /**
   * The `scope` of the authorize redirect when the deployment sets it (`PROVIDER_C_SCOPES`;
   * otherwise the provider's default from `PROVIDER_INFO`).
   */
  scope?: string;
}

/**
 * The verified email of the local providers' ready moderator account ("Morgan Moderator")
 * (lib/auth/local/accounts.ts): listed as a moderator in local mode only.
 */
export const LOCAL_MODERATOR_EMAIL = "moderator@local.test";

/**
 * Where local mode listens when `HOSTNAME` is unset: this computer only. Local mode signs
 * anyone in as any local account (the Moderator too), so it is never open to the network
 * unless the person running it says so.
 */
export const LOCAL_MODE_HOSTNAME = "127.0.0.1";

/** The parsed configuration. `appSecret` is undefined until local mode supplies one. */
export interface Config {
  port: number;
  /**
   * `HOSTNAME`: the listen address. Unset, it is {@link LOCAL_MODE_HOSTNAME} in local mode
   * and `0.0.0.0` otherwise.
   */
  hostname: string;
  /** `HOSTNAME` was set (the start line says how to open or close local mode). */
  hostnameSet: boolean;
  appOrigin: string;
  /**
   * `KV_PATH`: a file, `:memory:` or a KV Connect URL. Undefined on Deno Deploy
   * (`DENO_DEPLOYMENT_ID` set) without `KV_PATH`: the platform's own database.
   */
  kvPath: string | undefined;
  /** `DENO_DEPLOYMENT_ID`: set by Deno Deploy; undefined elsewhere. */
  deploymentId?: string;
  appSecret?: string;
  /**
   * The language model: `LLM_API_KEY`, `LLM_BASE_URL`, `LLM_MODEL`, and the embeddings model
   * of semantic search (`LLM_EMBEDDING_MODEL`) with the dimensions asked of it
   * (`LLM_EMBEDDING_DIMENSIONS`).
   */
  llm: {
    apiKey?: string;
    baseUrl?: string;
    model: string;
    embeddingModel: string;
    embeddingDimensions: number;
  };
  providers: Partial<Record<ProviderId, ProviderConfig>>;
  localMode: boolean;
  /** Words refused in display names (comma-separated `OFFENSIVE_WORDS`). */
  offensiveWords: string[];
  /**
   * `MODERATORS`: user ids and verified emails (emails lower-cased) of moderators
   * (lib/auth/moderators.ts).
   */
  moderators: string[];
  /** Per-user posting limits (`LIMIT_*`; 0 turns one off), shared by all instances. */
  limits: PostingLimits;
  /** Debates running at once across all instances (`MAX_CONCURRENT_DEBATES`). */
  maxConcurrentDebates: number;
  /** Debates one user may start per day (`DEBATES_PER_USER_PER_DAY`; 0 turns it off). */
  debatesPerUserPerDay: number;
  /** AI expert panels started per day across all instances (`EXPERT_PANEL_PER_DAY`; 0 = none). */
  expertPanelPerDay: number;
  /** Roundtables one user may start per day (`ROUNDTABLES_PER_USER_PER_DAY`; 0 turns it off). */
  roundtablesPerUserPerDay: number;
  /** Roundtables started per day across all instances (`ROUNDTABLES_PER_DAY`; 0 = none). */
  roundtablesPerDay: number;
  /**
   * Opinion maps and thread summaries written per day across all instances
   * (`INSIGHTS_PER_DAY`; 0 = none): each one is a model call (lib/insights/budget.ts).
   */
  insightsPerDay: number;
  /**
   * Live streams (SSE) open at once in one process: per client address
   * (`STREAMS_PER_IP`) and in all (`STREAMS_PER_PROCESS`); past either a stream is
   * refused with 503 (lib/http/stream_slots.ts).
   */
  streams: { perIp: number; perProcess: number };
  /**
   * `NEW_ACCOUNT_HOURS`: an account younger than this with no up-voted or accepted content
   * is new (its flags weigh half, it posts under `limits.newAccount`, its links carry
   * `rel="ugc nofollow"`); 0: no account counts as new.
   */
  newAccountHours: number;
}

/**
 * Per-user posting limits: questions, messages and votes+favorites (one shared budget) per
 * hour, flags per day, and the stricter daily limits of new accounts. `0` turns a limit off.
 */
export interface PostingLimits {
  questionsPerHour: number;
  messagesPerHour: number;
  votesPerHour: number;
  flagsPerDay: number;
  /**
   * New accounts (docs/interface.md#new-accounts): younger than `hours` with nothing
   * up-voted or accepted, they also post under these daily limits. Absent: none apply.
   */
  newAccount?: NewAccountLimits;
}

/** The stricter limits of new accounts, on top of the usual ones. */
export interface NewAccountLimits {
  /** `NEW_ACCOUNT_HOURS`: 0, no account is new. */
  hours: number;
  /** `LIMIT_NEW_ACCOUNT_QUESTIONS_PER_DAY` (0: off). */
  questionsPerDay: number;
  /** `LIMIT_NEW_ACCOUNT_MESSAGES_PER_DAY`: answers and replies (0: off). */
  messagesPerDay: number;
}

/**
 * Largest value a `LIMIT_*` variable takes: the sliding-window log keeps one timestamp per
 * accepted hit in one KV value (64 KiB), so a window holds at most this many.
 */
export const MAX_LIMIT = 5000;

/** Thrown for a bad environment; `message` names the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
const optionalString = z.string().trim().min(1).optional();
/** OAuth scope tokens (RFC 6749 §3.3) separated by spaces; runs of whitespace collapse. */
const scopeList = z.string().transform((v) => v.trim().split(/\s+/).join(" ")).pipe(
  z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/, {
    error: "must be scope tokens separated by spaces",
  }),
);
/** provider_c's default scopes (docs/decisions.md#configuration); `offline_access` is the operator's to add. */
export const DEFAULT_PROVIDER_C_SCOPES = "openid profile email";
/** A per-window count: a whole number from 0 (off) to {@link MAX_LIMIT}. */
const limitVar = (fallback: number) =>
  z.coerce.number({ error: "must be a number" }).int({ error: "must be a whole number" })
    .min(0, { error: "must be 0 (off) or more" })
    .max(MAX_LIMIT, { error: `must be at most ${MAX_LIMIT}` }).default(fallback);

/** Largest `STREAMS_PER_*` value: far beyond what one process can hold, so a typo shows. */
export const MAX_STREAMS = 1_000_000;

/** A count of open streams: a whole number from 1 to {@link MAX_STREAMS}. */
const streamCap = (fallback: number) =>
  z.coerce.number({ error: "must be a number" }).int({ error: "must be a whole number" })
    .min(1, { error: "must be at least 1" })
    .max(MAX_STREAMS, { error: `must be at most ${MAX_STREAMS}` }).default(fallback);

/** `LLM_EMBEDDING_MODEL` when unset. */
export const DEFAULT_EMBEDDING_MODEL = "text-embedding-3-small";
/**
 * `LLM_EMBEDDING_DIMENSIONS` when unset: 256 Float32 values are 1 KiB per question
 * (docs/decisions.md#semantic-rerank).
 */
export const DEFAULT_EMBEDDING_DIMENSIONS = 256;
/** Largest `LLM_EMBEDDING_DIMENSIONS` (text-embedding-3-large's full size). */
export const MAX_EMBEDDING_DIMENSIONS = 3072;

const envSchema = z.object({
  PORT: z.coerce.number({ error: "must be a number" }).int().min(0).max(65535).default(8000),
  HOSTNAME: z.string().min(1).optional(),
  APP_ORIGIN: httpUrl.optional(),
  KV_PATH: z.string().min(1).optional(),
  DENO_DEPLOYMENT_ID: optionalString,
  APP_SECRET: z.string().min(32, { error: "must be at least 32 characters" }).optional(),
  LLM_API_KEY: optionalString,
  LLM_BASE_URL: httpUrl.optional(),
  LLM_MODEL: z.string().min(1).default("gpt-4o-mini"),
  LLM_EMBEDDING_MODEL: z.string().trim().min(1).default(DEFAULT_EMBEDDING_MODEL),
  LLM_EMBEDDING_DIMENSIONS: z.coerce.number({ error: "must be a number" })
    .int({ error: "must be a whole number" })
    .min(8, { error: "must be at least 8" })
    .max(MAX_EMBEDDING_DIMENSIONS, { error: `must be at most ${MAX_EMBEDDING_DIMENSIONS}` })
    .default(DEFAULT_EMBEDDING_DIMENSIONS),
  LOCAL_MODE: z.enum(["on", "off", "auto"], { error: "must be on, off or auto" }).default("auto"),
  OFFENSIVE_WORDS: z.string().optional(),
  MODERATORS: z.string().optional(),
  LIMIT_QUESTIONS_PER_HOUR: limitVar(10),
  LIMIT_MESSAGES_PER_HOUR: limitVar(60),
  LIMIT_VOTES_PER_HOUR: limitVar(600),
  LIMIT_FLAGS_PER_DAY: limitVar(20),
  LIMIT_NEW_ACCOUNT_QUESTIONS_PER_DAY: limitVar(3),
  LIMIT_NEW_ACCOUNT_MESSAGES_PER_DAY: limitVar(10),
  MAX_CONCURRENT_DEBATES: z.coerce.number({ error: "must be a number" }).int().min(1, {
    error: "must be at least 1",
  }).max(100_000).default(50),
  DEBATES_PER_USER_PER_DAY: limitVar(50),
  EXPERT_PANEL_PER_DAY: limitVar(200),
  INSIGHTS_PER_DAY: limitVar(500),
  ROUNDTABLES_PER_USER_PER_DAY: limitVar(10),
  ROUNDTABLES_PER_DAY: limitVar(100),
  STREAMS_PER_IP: streamCap(20),
  STREAMS_PER_PROCESS: streamCap(1000),
  NEW_ACCOUNT_HOURS: z.coerce.number({ error: "must be a number" })
    .int({ error: "must be a whole number of hours" })
    .min(0, { error: "must be 0 (no account counts as new) or more" })
    .max(8760, { error: "must be at most 8760 (a year)" }).default(24),
  PROVIDER_A_CLIENT_ID: optionalString,
  PROVIDER_A_CLIENT_SECRET: optionalString,
  PROVIDER_A_AUTHORIZE_URL: httpUrl.optional(),
  PROVIDER_A_TOKEN_URL: httpUrl.optional(),
  PROVIDER_A_USERINFO_URL: httpUrl.optional(),
  PROVIDER_A_ISSUER: optionalString,
  PROVIDER_B_CLIENT_ID: optionalString,
  PROVIDER_B_CLIENT_SECRET: optionalString,
  PROVIDER_B_AUTHORIZE_URL: httpUrl.optional(),
  PROVIDER_B_TOKEN_URL: httpUrl.optional(),
  PROVIDER_B_USER_URL: httpUrl.optional(),
  PROVIDER_B_EMAILS_URL: httpUrl.optional(),
  PROVIDER_B_ISSUER: optionalString,
  PROVIDER_C_CLIENT_ID: optionalString,
  PROVIDER_C_CLIENT_SECRET: optionalString,
  PROVIDER_C_AUTHORIZE_URL: httpUrl.optional(),
  PROVIDER_C_TOKEN_URL: httpUrl.optional(),
  PROVIDER_C_USERINFO_URL: httpUrl.optional(),
  PROVIDER_C_ISSUER: optionalString,
  PROVIDER_C_SCOPES: scopeList.default(DEFAULT_PROVIDER_C_SCOPES),
});

type Env = z.infer<typeof envSchema>;

/** `KV_PATH` when unset outside Deno Deploy. */
export const DEFAULT_KV_PATH = "./data/parley.kv";

/** Default words refused in display names; deployments extend it with OFFENSIVE_WORDS. */
const DEFAULT_OFFENSIVE_WORDS = ["fuck", "shit", "cunt", "nigger", "faggot", "retard", "whore"];

function providerFrom(
  env: Env,
  prefix: "PROVIDER_A" | "PROVIDER_B" | "PROVIDER_C",
  profileKey: "USERINFO_URL" | "USER_URL",
): ProviderConfig | undefined {
  const get = (k: string) =>
    (env as unknown as Record<string, string | undefined>)[`${prefix}_${k}`];
  const clientId = get("CLIENT_ID");
  if (!clientId) return undefined;
  const required = ["CLIENT_SECRET", "AUTHORIZE_URL", "TOKEN_URL", profileKey];
  if (prefix === "PROVIDER_B") required.push("EMAILS_URL");
  for (const k of required) {
    if (!get(k)) {
      throw new ConfigError(`${prefix}_${k} is required when ${prefix}_CLIENT_ID is set`);
    }
  }
  return {
    clientId,
    clientSecret: get("CLIENT_SECRET")!,
    authorizeUrl: get("AUTHORIZE_URL")!,
    tokenUrl: get("TOKEN_URL")!,
    profileUrl: get(profileKey)!,
    emailsUrl: prefix === "PROVIDER_B" ? get("EMAILS_URL") : undefined,
    ...(get("ISSUER") ? { issuer: get("ISSUER") } : {}),
    ...(prefix === "PROVIDER_C" ? { scope: env.PROVIDER_C_SCOPES } : {}),
  };
}

/**
 * Parse an environment (a plain record, so tests pass their own) into a Config.
 *
 * @example
 * ```ts
 * const config = parseConfig({ PORT: "8080", KV_PATH: ":memory:" });
 * config.appOrigin; // "http://localhost:8080"
 * ```
 * @throws {ConfigError} naming the first bad variable.
 */
export function parseConfig(raw: Record<string, string | undefined>): Config {
  // Empty strings mean "unset": shells and .env files often export VAR= .
  const cleaned = Object.fromEntries(
    Object.entries(raw).filter(([, v]) => v !== undefined && v !== ""),
  );
  // Parsed once per process: zod's compiled fast path for objects would cost a new
  // instance ~8 ms to build (main.ts's start-up budget) and save nothing here.
  const parsed = envSchema.safeParse(cleaned, { jitless: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0] ?? "environment");
    throw new ConfigError(`${name} ${issue.message}`);
  }
  const env = parsed.data;
  const providers: Config["providers"] = {};
  const a = providerFrom(env, "PROVIDER_A", "USERINFO_URL");
  const b = providerFrom(env, "PROVIDER_B", "USER_URL");
  const c = providerFrom(env, "PROVIDER_C", "USERINFO_URL");
  if (a) providers.provider_a = a;
  if (b) providers.provider_b = b;
  if (c) providers.provider_c = c;
  const anyReal = Object.keys(providers).length > 0;
  let localMode: boolean;
  if (env.LOCAL_MODE === "on") {
    if (anyReal) {
      throw new ConfigError(
        "LOCAL_MODE cannot be on while a real provider is configured (PROVIDER_*_CLIENT_ID)",
      );
    }
    localMode = true;
  } else localMode = env.LOCAL_MODE === "auto" && !anyReal;
  if (!localMode && !env.APP_SECRET) {
    throw new ConfigError("APP_SECRET is required outside local mode (at least 32 characters)");
  }
  const extraWords = (env.OFFENSIVE_WORDS ?? "").split(",").map((w) => w.trim().toLowerCase())
    .filter(Boolean);
  return {
    port: env.PORT,
    hostname: env.HOSTNAME ?? (localMode ? LOCAL_MODE_HOSTNAME : "0.0.0.0"),
    hostnameSet: env.HOSTNAME !== undefined,
    appOrigin: (env.APP_ORIGIN ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
    // On Deno Deploy the platform's managed KV is the default; elsewhere a local file.
    kvPath: env.KV_PATH ?? (env.DENO_DEPLOYMENT_ID ? undefined : DEFAULT_KV_PATH),
    ...(env.DENO_DEPLOYMENT_ID ? { deploymentId: env.DENO_DEPLOYMENT_ID } : {}),
    appSecret: env.APP_SECRET,
    llm: {
      apiKey: env.LLM_API_KEY,
      baseUrl: env.LLM_BASE_URL,
      model: env.LLM_MODEL,
      embeddingModel: env.LLM_EMBEDDING_MODEL,
      embeddingDimensions: env.LLM_EMBEDDING_DIMENSIONS,
    },
    providers,
    localMode,
    offensiveWords: [...DEFAULT_OFFENSIVE_WORDS, ...extraWords],
    moderators: [
      ...(env.MODERATORS ?? "").split(",").map((m) => m.trim())
        .filter(Boolean).map((m) => m.includes("@") ? m.toLowerCase() : m),
      // Local mode only: the local providers' ready moderator account ("Morgan Moderator") moderates.
      ...(localMode ? [LOCAL_MODERATOR_EMAIL] : []),
    ],
    limits: {
      questionsPerHour: env.LIMIT_QUESTIONS_PER_HOUR,
      messagesPerHour: env.LIMIT_MESSAGES_PER_HOUR,
      votesPerHour: env.LIMIT_VOTES_PER_HOUR,
      flagsPerDay: env.LIMIT_FLAGS_PER_DAY,
      newAccount: {
        hours: env.NEW_ACCOUNT_HOURS,
        questionsPerDay: env.LIMIT_NEW_ACCOUNT_QUESTIONS_PER_DAY,
        messagesPerDay: env.LIMIT_NEW_ACCOUNT_MESSAGES_PER_DAY,
      },
    },
    maxConcurrentDebates: env.MAX_CONCURRENT_DEBATES,
    debatesPerUserPerDay: env.DEBATES_PER_USER_PER_DAY,
    expertPanelPerDay: env.EXPERT_PANEL_PER_DAY,
    insightsPerDay: env.INSIGHTS_PER_DAY,
    roundtablesPerUserPerDay: env.ROUNDTABLES_PER_USER_PER_DAY,
    roundtablesPerDay: env.ROUNDTABLES_PER_DAY,
    streams: { perIp: env.STREAMS_PER_IP, perProcess: env.STREAMS_PER_PROCESS },
    newAccountHours: env.NEW_ACCOUNT_HOURS,
  };
}

/** Parse `Deno.env`. */
export function loadConfig(): Config {
  return parseConfig(Deno.env.toObject());
}
