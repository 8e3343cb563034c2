/**
 * What a route module exports beside its handler to document its operations
 * (`export const docs: OperationDoc[]`), and the pieces those docs share: error
 * responses, parameters, headers and example bodies. The generator (./openapi.ts)
 * collects every route's docs into `/api/openapi.json` and `/docs/api`.
 *
 * @example
 * ```ts
 * import { type OperationDoc, unauthorizedSession } from "./openapi_docs.ts";
 * const docs: OperationDoc[] = [{
 *   method: "get",
 *   path: "/api/profile/stats",
 *   tag: "Profiles",
 *   summary: "Your statistics",
 *   auth: "session",
 *   responses: { "401": unauthorizedSession },
 * }];
 * ```
 *
 * @module
 */
import type { z } from "zod";
import type { Scope } from "./scopes.ts";
import { AGENT_RATE_LIMIT } from "../http/agent.ts";
import { INVALID_KEY_ERROR } from "../schemas/agent.ts";
import { ErrorBody } from "../schemas/community.ts";
import { OAuthErrorBody } from "../schemas/oauth.ts";
import type { EventDoc } from "../schemas/debate.ts";
import { ActivityQuery } from "../schemas/activity.ts";
import { SimilarQuestions } from "../schemas/similar.ts";

/** Who may call an operation. */
export type AuthKind = "apiKey" | "session" | "public";

/** One documented response. */
export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** An example body (shown by /docs/api). */
  example?: unknown;
  /** A stream of Server-Sent Events instead of JSON: each event's name and data. */
  events?: Record<string, EventDoc>;
  /** Response headers beyond the rate-limit headers of agent endpoints. */
  headers?: Record<string, string>;
}

/** One documented operation. */
export interface OperationDoc {
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
  tag:
    | "Agent"
    | "Questions"
    | "Votes and favorites"
    | "Agent keys"
    | "Agent sign-in (OAuth)"
    | "Debates"
    | "Roundtables"
    | "Profiles"
    | "Notifications"
    | "Moderation"
    | "Session";
  summary: string;
  description?: string;
  auth: AuthKind;
  /**
   * The scope an `apiKey` operation needs (lib/agent/scopes.ts): the generator adds the
   * OAuth security requirement and the 403 of a credential without it. Unset: any.
   */
  scope?: Scope;
  pathParams?: { name: string; description: string }[];
  query?: z.ZodObject;
  body?: z.ZodType;
  /** How the body is encoded (default JSON; the OAuth token endpoints take forms). */
  bodyType?: "json" | "form";
  responses: Record<string, ResponseDoc>;
  /**
   * A create that honours `Idempotency-Key`: the generator adds the optional header
   * parameter and the 409 of an overlapping repeat.
   */
  idempotent?: boolean;
}

/** An error response documented with its example message. */
export const err = (description: string, example?: string): ResponseDoc => ({
  description,
  schema: ErrorBody,
  example: example === undefined ? undefined : { error: example },
});
/**
 * An OAuth endpoint's error answer (RFC 6749 §5.2 shape: `error` and `error_description`).
 *
 * @example
 * ```ts
 * oauthErr("Unknown client_id", "invalid_client", "Unknown client_id");
 * ```
 */
export const oauthErr = (
  description: string,
  error: string,
  error_description: string,
): ResponseDoc => ({
  description,
  schema: OAuthErrorBody,
  example: { error, error_description },
});
export const unauthorizedKey = err(
  "API key or OAuth access token missing, invalid, expired or revoked",
  INVALID_KEY_ERROR,
);
export const rateLimited = err(
  `More than ${AGENT_RATE_LIMIT} requests in a minute (per key; failed authentication per client address). Retry-After says when to retry.`,
  "Rate limit exceeded",
);
export const unauthorizedSession = err("No valid session", "Unauthorized");
export const questionIdParam = [{ name: "id", description: "Question id" }];
export const userIdParam = [{ name: "userId", description: "User id (`u_…`)" }];
export const tooLarge = (bytes: number) =>
  err(
    `Body over ${bytes / 1024} KiB`,
    `Request body too large (limit ${bytes} bytes)`,
  );
export const retryAfter = { "Retry-After": "Seconds to wait before retrying" };
/** The 503 of every live stream past its caps (lib/http/stream_slots.ts). */
export const streamsFull: ResponseDoc = {
  ...err(
    "Too many live streams open at once: from your address (`STREAMS_PER_IP`, default 20) or on this server (`STREAMS_PER_PROCESS`, default 2,000), signed in or not. `Retry-After` says when to retry; closing a stream frees its place at once.",
    "Too many live streams from your address: at most 20 at once. Close one or try again in 30 seconds.",
  ),
  headers: retryAfter,
};
export const sessionRateHeaders = {
  "X-RateLimit-Limit": "Requests allowed in the window",
  "X-RateLimit-Remaining": "Requests left in the window",
  "X-RateLimit-Reset": "Unix time (seconds) when the window resets",
};
export const author = { id: "u_9f2c", name: "Ada", avatar: "" };
export const exampleMessage = {
  id: "msg-agent-reply-0mwr82ntu0000rct1",
  questionId: "q-agent-mwr82izk9j53ujsi",
  author,
  authorType: "user",
  createdBy: "agent",
  content: "Use a dense sequence index: page p is one key range.",
  createdAt: 1700000000000,
  replyTo: "msg-0mwr82nqg0000ikeh",
  editedAt: null,
  upvotes: 0,
  downvotes: 0,
  likedBy: [],
  dislikedBy: [],
};
export const exampleListItem = {
  id: "q-agent-mwr82izk9j53ujsi",
  title: "How do I page a Deno KV list?",
  description: "I need page 500 fast.",
  tags: ["deno", "kv"],
  upvotes: 3,
  messageCount: 2,
  createdAt: 1700000000000,
};
export const exampleVote = {
  action: "liked",
  upvotes: 4,
  downvotes: 0,
  liked: true,
  downvoted: false,
};
/**
 * The answers of both similar-questions routes (public and agent): the list, and the 400 of
 * a missing or overlong title.
 */
export const similarResponses: Record<"200" | "400", ResponseDoc> = {
  "200": {
    description: "Similar questions (possibly none)",
    schema: SimilarQuestions,
    example: {
      questions: [{
        id: "q-mwr82izk9j53ujsi",
        title: "How do I page a Deno KV list?",
        answerCount: 2,
        accepted: true,
        score: 3,
      }],
    },
  },
  "400": err("title missing, blank or over 200 characters", "title is required"),
};

export const activityQuery = ActivityQuery.extend({
  type: ActivityQuery.shape.type.meta({
    description: "questions, answers, debates, likes or favorites",
  }),
  limit: ActivityQuery.shape.limit.meta({ description: "Items per page: default 20, at most 50" }),
  cursor: ActivityQuery.shape.cursor.meta({
    description: "`nextCursor` of the previous page",
  }),
});

/** Every documented operation, in the order /docs/api shows them. */
