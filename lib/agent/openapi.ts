/**
 * `GET /api/openapi.json`: an OpenAPI 3.1 document generated from the zod schemas that
 * validate the requests (`z.toJSONSchema`), so the documentation cannot drift from the
 * validation. Each route module documents its own operations (`export const docs`, typed
 * by ./openapi_docs.ts); {@link collectOperations} gathers them and {@link buildOpenApi}
 * turns them into the document that `/docs/api` also renders.
 *
 * @module
 */
import { z } from "zod";
import { AGENT_RATE_LIMIT } from "../http/agent.ts";
import { protectedResourceMetadataUrl } from "../oauth/metadata.ts";
import { err, type OperationDoc, type ResponseDoc } from "./openapi_docs.ts";
import { missingScopeMessage, SCOPE_DESCRIPTIONS } from "./scopes.ts";
import { IN_PROGRESS_ERROR, KEY_REUSED_ERROR } from "../http/idempotency.ts";
import { ForbiddenBody, RestrictedBody } from "../schemas/moderation.ts";

export type { AuthKind, OperationDoc, ResponseDoc } from "./openapi_docs.ts";

/** The order of the tags in the document and on /docs/api. */
export const TAG_ORDER: readonly OperationDoc["tag"][] = [
  "Agent",
  "Questions",
  "Votes and favorites",
  "Agent keys",
  "Agent sign-in (OAuth)",
  "Debates",
  "Roundtables",
  "Profiles",
  "Notifications",
  "Moderation",
  "Session",
];

const METHOD_ORDER = ["get", "post", "put", "patch", "delete"];

/**
 * Every documented operation: the `docs` each route module exports, ordered by tag, then
 * path, then method, so the document reads the same whatever order the routes load in.
 *
 * @example
 * ```ts
 * import { collectOperations } from "./openapi.ts";
 * declare const routeModules: { docs?: unknown }[];
 * const ops = collectOperations(routeModules);
 * ```
 */
export function collectOperations(modules: Iterable<{ docs?: unknown }>): OperationDoc[] {
  const ops: OperationDoc[] = [];
  for (const mod of modules) {
    if (Array.isArray(mod.docs)) ops.push(...(mod.docs as OperationDoc[]));
  }
  const rank = (op: OperationDoc) => TAG_ORDER.indexOf(op.tag);
  return ops.sort((a, b) =>
    rank(a) - rank(b) || a.path.localeCompare(b.path) ||
    METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method)
  );
}

type Json = Record<string, unknown>;

/** The `Idempotency-Key` header parameter of {@link OperationDoc.idempotent} operations. */
export const IDEMPOTENCY_KEY_PARAM = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Optional, 1–255 visible ASCII characters (a UUID per submission is ideal). A repeat with the same key by the same caller (user or API key) within 24 hours answers the first response again (same status and body, plus `Idempotent-Replayed: true`) and creates nothing; a repeat while the first is still running answers 409. Any other key is 400.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
};

/**
 * A request schema's object properties without `default`: the server fills a default in,
 * so the field is optional to a caller, but client generators (openapi-typescript's
 * default `defaultNonNullable`) type a property with a `default` as always present. The
 * default moves into the description, where people still read it.
 */
function movePropertyDefaults(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(movePropertyDefaults);
  if (node === null || typeof node !== "object") return;
  const obj = node as Json;
  const props = obj.properties as Record<string, Json> | undefined;
  if (props && typeof props === "object") {
    for (const prop of Object.values(props)) {
      if (prop && typeof prop === "object" && "default" in prop) {
        const note = `Default: ${JSON.stringify(prop.default)}.`;
        prop.description = typeof prop.description === "string"
          ? `${prop.description} ${note}`
          : note;
        delete prop.default;
      }
    }
  }
  for (const v of Object.values(obj)) movePropertyDefaults(v);
}

/** JSON Schema for OpenAPI: `$defs` hoisted into `components.schemas`. */
function jsonSchema(schema: z.ZodType, io: "input" | "output", defs: Json): Json {
  const raw = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  }) as Json;
  if (io === "input") movePropertyDefaults(raw);
  const text = JSON.stringify(raw).replaceAll('"#/$defs/', '"#/components/schemas/');
  const out = JSON.parse(text) as Json;
  delete out.$schema;
  const local = (out.$defs ?? {}) as Record<string, Json>;
  delete out.$defs;
  for (const [name, def] of Object.entries(local)) {
    const previous = defs[name];
    if (previous && JSON.stringify(previous) !== JSON.stringify(def)) {
      throw new Error(`OpenAPI: schema ${name} has two shapes (input vs output?)`);
    }
    defs[name] = def;
  }
  return out;
}

function parameters(op: OperationDoc, defs: Json): Json[] {
  const out: Json[] = (op.pathParams ?? []).map((p) => ({
    name: p.name,
    in: "path",
    required: true,
    description: p.description,
    schema: { type: "string" },
  }));
  if (op.idempotent) out.push(IDEMPOTENCY_KEY_PARAM);
  for (const [name, field] of Object.entries(op.query?.shape ?? {})) {
    const f = field as z.ZodType;
    const schema = jsonSchema(f, "input", defs);
    const description = typeof schema.description === "string" ? schema.description : undefined;
    out.push({
      name,
      in: "query",
      required: !f.safeParse(undefined).success,
      ...(description ? { description } : {}),
      schema,
    });
  }
  return out;
}

/** A sanction's note on a write's 403 (docs/interface.md#sanctions). */
const SANCTIONED =
  "; or the person is silenced or suspended by a moderator (`code`, `reason`, `until`)";

/**
 * Documented responses plus the 403 every cookie-authenticated write can answer, and, on
 * every write, the sanction fields of a 403.
 */
function withCommonResponses(op: OperationDoc): Record<string, ResponseDoc> {
  const common: Record<string, ResponseDoc> = {};
  const write = op.method !== "get" && op.auth !== "public";
  const documented = op.responses["403"];
  if (write && documented && documented.schema !== RestrictedBody) {
    common["403"] = {
      ...documented,
      description: documented.description + SANCTIONED,
      schema: ForbiddenBody,
    };
  }
  if (op.idempotent && !op.responses["409"]) {
    common["409"] = err(
      "A repeat with this Idempotency-Key arrived while the first was still running",
      IN_PROGRESS_ERROR,
    );
  }
  if (op.idempotent && !op.responses["422"]) {
    common["422"] = err(
      "This Idempotency-Key was used within 24 hours for another request (another path or body)",
      KEY_REUSED_ERROR,
    );
  }
  if (op.auth === "apiKey" && op.scope) {
    const lacks = `The key or OAuth token lacks the \`${op.scope}\` scope`;
    const own = op.responses["403"];
    common["403"] = own
      ? { ...own, description: `${own.description}; or ${lacks[0].toLowerCase()}${lacks.slice(1)}` }
      : err(lacks, missingScopeMessage("key", op.scope));
  }
  if (!op.responses["429"] && op.idempotent) {
    common["429"] = err(
      "Over the user's posting limit (questions 10/h, messages 60/h by default); Retry-After says when to retry",
      "Too many questions: you can ask 10 per hour. Try again in 12 minutes.",
    );
  }
  if (op.auth === "apiKey" && !op.responses["403"] && op.scope) {
    // Either 403: the credential's scope (`{error}`) or a sanction (`code`, `reason`, `until`).
    common["403"] = {
      ...common["403"],
      description: `${
        common["403"]?.description ?? ""
      }; or the key's owner is suspended (any request) or silenced (a write) by a moderator: \`code\`, \`reason\` and \`until\` say why and until when`,
      schema: ForbiddenBody,
    };
  } else if (op.auth === "apiKey" && !op.responses["403"]) {
    common["403"] = {
      description:
        "The key's owner is suspended (any request) or silenced (a write) by a moderator: `code`, `reason` and `until` say why and until when",
      schema: RestrictedBody,
      example: {
        error:
          "Your account is suspended by a moderator until 2026-06-01 00:00 UTC: Spam links. You cannot sign in, and your agent keys are refused.",
        code: "suspended",
        reason: "Spam links",
        until: 1780272000000,
      },
    };
  }
  if (op.auth !== "session" || op.method === "get" || documented) {
    if (Object.keys(common).length === 0) return op.responses;
    return Object.fromEntries(
      Object.entries({ ...op.responses, ...common }).sort(([a], [b]) => a.localeCompare(b)),
    );
  }
  const sorted = Object.entries({
    ...op.responses,
    ...common,
    "403": {
      ...err(
        "The session cookie came with an Origin of another site (cross-site write)" + SANCTIONED,
        "Cross-site request refused",
      ),
      schema: ForbiddenBody,
    },
  }).sort(([a], [b]) => a.localeCompare(b));
  return Object.fromEntries(sorted);
}

const integer = { type: "integer" };

/** One response object: headers, JSON body or event stream. */
function responseDoc(op: OperationDoc, status: string, r: ResponseDoc, defs: Json): Json {
  const headers: Json = {};
  if (op.auth === "apiKey") {
    headers["X-RateLimit-Limit"] = {
      description: "Requests allowed per window (per key; on a 401, per client address)",
      schema: integer,
    };
    headers["X-RateLimit-Remaining"] = { description: "Requests left", schema: integer };
    headers["X-RateLimit-Reset"] = {
      description: "Unix time (seconds) when the window resets",
      schema: integer,
    };
    if (status === "429") {
      headers["Retry-After"] = { description: "Seconds to wait before retrying", schema: integer };
    }
    if (status === "401") {
      headers["WWW-Authenticate"] = {
        description:
          'Names the protected resource metadata (RFC 9728), from which an OAuth client discovers how to sign in; `error="invalid_token"` when a credential was sent',
        schema: { type: "string", pattern: '^Bearer realm="parley-agent", resource_metadata="' },
      };
    }
  }
  for (const [name, description] of Object.entries(r.headers ?? {})) {
    headers[name] = {
      description,
      schema: /^(X-RateLimit|Retry-After)/.test(name) ? integer : { type: "string" },
    };
  }
  let content: Json | undefined;
  if (r.events) {
    content = {
      "text/event-stream": {
        schema: {
          type: "string",
          description: "`event: <name>\\ndata: <json>\\n\\n` per event; see x-events",
        },
      },
    };
  } else if (r.schema) {
    content = {
      "application/json": {
        schema: jsonSchema(r.schema, "output", defs),
        ...(r.example !== undefined ? { example: r.example } : {}),
      },
    };
  }
  return {
    description: r.description,
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(content ? { content } : {}),
    ...(r.events
      ? {
        "x-events": Object.fromEntries(
          Object.entries(r.events).map(([name, e]) => [name, {
            description: e.description,
            data: jsonSchema(e.data, "output", defs),
          }]),
        ),
      }
      : {}),
  };
}

/**
 * The OpenAPI 3.1 document for a server origin and a list of operations.
 *
 * @example
 * ```ts
 * import { buildOpenApi, collectOperations } from "./openapi.ts";
 * const doc = buildOpenApi("https://parley.example", collectOperations([]));
 * doc.openapi; // "3.1.0"
 * ```
 */
export function buildOpenApi(origin: string, operations: OperationDoc[]): Json {
  const defs: Json = {};
  const paths: Record<string, Json> = {};
  for (const op of operations) {
    const entry: Json = {
      tags: [op.tag],
      summary: op.summary,
      operationId: `${op.method}${
        op.path.replace(/[{}]/g, "").replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) =>
          (c ?? "").toUpperCase())
      }`,
      ...(op.description ? { description: op.description } : {}),
      security: op.auth === "apiKey"
        ? [{ agentKey: [] }, { oauth: op.scope ? [op.scope] : [] }]
        : op.auth === "session"
        ? [{ session: [] }]
        : [],
    };
    const params = parameters(op, defs);
    if (params.length) entry.parameters = params;
    if (op.body) {
      const type = op.bodyType === "form"
        ? "application/x-www-form-urlencoded"
        : "application/json";
      entry.requestBody = {
        required: true,
        content: { [type]: { schema: jsonSchema(op.body, "input", defs) } },
      };
    }
    const responses: Json = {};
    for (const [status, r] of Object.entries(withCommonResponses(op))) {
      responses[status] = responseDoc(op, status, r, defs);
    }
    entry.responses = responses;
    paths[op.path] = { ...(paths[op.path] ?? {}), [op.method]: entry };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Parley API",
      version: "1.0.0",
      description:
        "Questions, answers, votes and favorites for people (session cookie) and their agents (API key). Agent guide: /skill.md.",
    },
    servers: [{ url: origin }],
    tags: [
      {
        name: "Agent",
        description:
          "For autonomous agents, with `Authorization: Bearer agent_…` (an API key) or an OAuth access token `parley_at_…`",
      },
      { name: "Questions", description: "Questions and messages" },
      { name: "Votes and favorites", description: "Signed-in users" },
      {
        name: "Agent keys",
        description:
          "Create and revoke API keys, and see and disconnect connected apps (signed in)",
      },
      {
        name: "Agent sign-in (OAuth)",
        description:
          "Parley as the OAuth 2.1 authorization server of its MCP server: discovery, dynamic registration, tokens (PKCE S256, public clients)",
      },
      { name: "Debates", description: "AI debates, streamed as Server-Sent Events" },
      {
        name: "Roundtables",
        description: "AI expert roundtables with a human host, streamed as Server-Sent Events",
      },
      { name: "Profiles", description: "Profiles, statistics, badges, activity and settings" },
      {
        name: "Notifications",
        description: "Follows, notifications and live updates (Server-Sent Events)",
      },
      { name: "Moderation", description: "Flags (signed in) and the moderators' queue" },
      { name: "Session", description: "The browser session" },
    ],
    paths,
    components: {
      schemas: defs,
      securitySchemes: {
        agentKey: {
          type: "http",
          scheme: "bearer",
          description:
            `An agent API key \`agent_…\`, created by a signed-in person on /profile/agent-keys (or POST /api/profile/agent-keys). ${AGENT_RATE_LIMIT} requests a minute per key.`,
        },
        oauth: {
          type: "oauth2",
          description:
            `An OAuth access token \`parley_at_…\` (1 hour, refreshable) of an app a person connected: what an MCP client gets by signing in from \`/mcp\`'s 401 (protected resource metadata at ${
              protectedResourceMetadataUrl(origin)
            }). Public clients with PKCE S256; register at /oauth/register. ${AGENT_RATE_LIMIT} requests a minute per connected app.`,
          flows: {
            authorizationCode: {
              authorizationUrl: `${origin}/oauth/authorize`,
              tokenUrl: `${origin}/oauth/token`,
              refreshUrl: `${origin}/oauth/token`,
              scopes: SCOPE_DESCRIPTIONS,
            },
          },
        },
        session: {
          type: "apiKey",
          in: "cookie",
          name: "parley_session",
          description:
            "The session cookie set at sign-in (`__Host-parley_session` on https). Writes must be same-origin.",
        },
      },
    },
  };
}
