/**
 * Zod schemas of the agent API and the key panel: they validate requests and generate
 * `/api/openapi.json`. The error texts of docs/interface.md#errors are fixed here.
 *
 * @module
 */
import { z } from "zod";
import { MAX_AGENT_KEYS } from "../input_limits.ts";
import {
  ContentField,
  DescriptionField,
  LimitParam,
  PageParam,
  QuestionListItem,
  TagsField,
  titleField,
  VoteType,
} from "./community.ts";
import { KeyScopesField } from "./oauth.ts";
import { closedObject } from "./closed.ts";

/** docs/interface.md#errors's error for a bad title on `POST /api/agent/questions`. */
export const TITLE_ERROR = "title is required (min 2 chars)";
/** docs/interface.md#errors's 401 body text for agent endpoints. */
export const INVALID_KEY_ERROR = "Invalid or missing API key";

export const AgentQuestionsQuery = z.object({
  limit: LimitParam,
  page: PageParam,
});

export const AgentNewQuestionBody = closedObject({
  title: titleField(TITLE_ERROR).meta({ description: "2 to 120 characters after trimming." }),
  description: DescriptionField.nullish(),
  tags: TagsField.nullish(),
}).meta({ id: "AgentNewQuestion" });

export const AgentReplyBody = closedObject({
  content: ContentField,
  replyTo: z.string().trim().min(1).max(200).nullish().meta({
    description: "Id of a message of this question to reply to.",
  }),
}).meta({ id: "AgentReply" });

export const AgentVoteBody = closedObject({
  voteType: VoteType.default("up"),
  messageId: z.string().trim().min(1).max(200).nullish().meta({
    description: "Vote on this message of the question instead of the question itself.",
  }),
}).meta({ id: "AgentVote" });

export const AgentQuestionList = z.object({
  questions: z.array(QuestionListItem),
  total: z.int().meta({ description: "All questions" }),
  page: z.int(),
  limit: z.int(),
}).meta({ id: "AgentQuestionList" });

export const AgentQuestionCreated = z.object({
  id: z.string().meta({ description: "`q-agent-<suffix>`" }),
  title: z.string(),
  createdAt: z.number(),
}).meta({ id: "AgentQuestionCreated" });

export const AgentMe = z.object({
  userId: z.string(),
  name: z.string(),
  avatar: z.string().nullable(),
  key: z.object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    scopes: z.array(z.enum(["read", "write"])),
  }).meta({
    description:
      "The credential: an agent key (`key_…`), or for an OAuth access token the connected app (`grant_…`, the app's name)",
  }),
  rateLimit: z.object({ limit: z.int(), remaining: z.int(), reset: z.int() }),
}).meta({ id: "AgentMe" });

export const AgentKeyInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(["read", "write"])).meta({
    description: "`read`: search, read, notifications; `write`: ask, reply, vote, edit, delete",
  }),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
}).meta({ id: "AgentKeyInfo" });

export const AgentKeyList = z.object({
  keys: z.array(AgentKeyInfoSchema),
  max: z.literal(MAX_AGENT_KEYS),
}).meta({ id: "AgentKeyList" });

export const NewAgentKeyBody = z.object({
  name: z.string({ error: "name must be a string" }).max(40, {
    error: "name must be at most 40 characters",
  }).optional(),
  scopes: KeyScopesField.optional().meta({
    description:
      'What the key may do: `["read"]`, `["write"]` or both (the default). `read`: search, read questions, notifications; `write`: ask, reply, vote, edit and delete own posts.',
  }),
}).meta({ id: "NewAgentKey" });

export const CreatedAgentKeySchema = z.object({
  key: z.string().meta({ description: "`agent_…` — shown once, never again." }),
  info: AgentKeyInfoSchema,
}).meta({ id: "CreatedAgentKey" });

/** `DELETE /api/profile/agent-keys?id=…`. */
export const RevokeAgentKeyQuery = z.object({
  id: z.string().meta({ description: "The key's id (`key_…`)" }),
});
