/**
 * Zod schemas of the debate API: the request body of `POST /api/debate`, the Synthesis a
 * model must produce, and the answers — a stored debate (history and single read) and the
 * data of each event of the `POST /api/debate` stream (docs/interface.md#debate-stream). They
 * generate `/api/openapi.json` and let tests check real answers against it.
 *
 * @module
 */
import { z } from "zod";
import {
  AGENT_BIO_MAX,
  AGENT_NAME_MAX,
  CONCLUSION_MAX_CHARS,
  SOFT_MEMORY_ITEM_MAX,
  SOFT_MEMORY_ITEMS_MAX,
  TOPIC_MAX_CHARS,
  topicTooLong,
} from "../input_limits.ts";
import { DebateStatus } from "./profile.ts";

const httpUrl = z.string().trim().max(2048).refine((s) => {
  try {
    const u = new URL(s);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}, "must be an http(s) URL");

const shortList = z.array(z.string().trim().min(1).max(SOFT_MEMORY_ITEM_MAX)).max(
  SOFT_MEMORY_ITEMS_MAX,
);

/** The agent profile a user sends: their agent adopts it in the debate. */
export const UserProfileInputSchema = z.object({
  name: z.string().trim().min(1).max(AGENT_NAME_MAX),
  // An empty avatar means "none"; anything else must be a web image address.
  avatar: z.union([z.literal("").transform(() => null), httpUrl, z.null()]).optional(),
  bio: z.string().trim().max(AGENT_BIO_MAX).optional(),
  softMemory: z.object({ traits: shortList, interests: shortList }).optional(),
});

/** The body of `POST /api/debate` (presence of both fields is checked first). */
export const DebateRequestSchema = z.object({
  topic: z.string().trim().min(1).max(TOPIC_MAX_CHARS, {
    error: (iss) => topicTooLong(typeof iss.input === "string" ? iss.input.length : 0),
  }),
  userProfile: UserProfileInputSchema,
});

/** A validated request. */
export type DebateRequest = z.infer<typeof DebateRequestSchema>;
export type UserProfileInput = z.infer<typeof UserProfileInputSchema>;

/** Validated synthesis (docs/interface.md#debate-stream). */
export const SynthesisSchema = z.object({
  consensus: z.array(z.string().trim().min(1).max(400)).max(10),
  disagreements: z.array(z.string().trim().min(1).max(400)).max(10),
  winner: z.enum(["user", "opponent", "tie"]),
  winnerReason: z.string().trim().min(1).max(600),
  conclusion: z.string().trim().min(1).max(CONCLUSION_MAX_CHARS),
  recommendations: z.array(z.string().trim().min(1).max(400)).max(10),
});

/** The AI analysis that ends a debate. */
export type Synthesis = z.infer<typeof SynthesisSchema>;

const Role = z.enum(["user", "opponent"]).meta({ id: "DebateRole" });

/** A stored synthesis as documented (output side: no length rules). */
export const SynthesisDoc = SynthesisSchema.meta({ id: "Synthesis" });

export const DebateMessageSchema = z.object({
  role: Role,
  name: z.string(),
  content: z.string(),
  timestamp: z.number().meta({ description: "Unix time in milliseconds" }),
}).meta({ id: "DebateMessage" });

export const DebateUserProfile = z.object({
  id: z.string(),
  name: z.string(),
  avatar: z.string().nullable(),
  bio: z.string(),
}).meta({ id: "DebateUserProfile" });

export const DebateOpponentProfile = z.object({
  id: z.string(),
  name: z.string(),
  avatar: z.string(),
  bio: z.string(),
  title: z.string(),
}).meta({ id: "DebateOpponentProfile" });

/** A saved debate (`GET /api/debate/history` items, `GET /api/debates/:id`). */
export const DebateSchema = z.object({
  id: z.string().meta({ description: "`debate_<timestamp>_<random>`" }),
  topic: z.string(),
  userProfile: DebateUserProfile,
  opponentProfile: DebateOpponentProfile,
  messages: z.array(DebateMessageSchema),
  synthesis: SynthesisDoc.nullable(),
  status: DebateStatus,
  error: z.string().optional().meta({ description: "Why a `failed` debate stopped" }),
  userId: z.string(),
  createdAt: z.string().meta({ description: "ISO 8601" }),
  updatedAt: z.string().meta({ description: "ISO 8601" }),
}).meta({ id: "Debate" });

export const DebateHistory = z.array(DebateSchema).meta({
  id: "DebateHistory",
  description: "The 20 newest debates of the signed-in user, newest first.",
});

/** One event of the debate stream: what it means and the schema of its `data`. */
export interface EventDoc {
  description: string;
  data: z.ZodType;
}

/** The events of the debate stream, in the order they come (docs/interface.md#debate-stream). */
export const DEBATE_EVENTS: Record<string, EventDoc> = {
  init: {
    description: "Sent first: the debate id and both sides",
    data: z.object({
      id: z.string(),
      topic: z.string(),
      userProfile: DebateUserProfile.extend({
        softMemory: z.object({ traits: z.array(z.string()), interests: z.array(z.string()) })
          .optional(),
      }),
      opponentProfile: DebateOpponentProfile.extend({
        personality: z.string(),
        stance: z.string(),
      }),
    }),
  },
  start: {
    description: "A participant is about to speak",
    data: z.object({ role: Role, name: z.string() }),
  },
  chunk: {
    description: "A fragment of the current message: append it",
    data: z.object({ role: Role, content: z.string() }),
  },
  message: { description: "The message is complete (full text)", data: DebateMessageSchema },
  synthesizing: {
    description: "The debate is over; the analysis is being written",
    data: z.object({}),
  },
  synthesis: { description: "The AI analysis", data: SynthesisDoc },
  done: {
    description: "Last event: the whole debate",
    data: z.object({
      id: z.string(),
      topic: z.string(),
      messages: z.array(DebateMessageSchema),
      synthesis: SynthesisDoc,
    }),
  },
  error: {
    description: "A failure: the stream ends and the saved debate is marked failed",
    data: z.object({ message: z.string() }),
  },
};

/** The query of `GET /api/debates/:id/events` (the `Last-Event-ID` header wins). */
export const DebateEventsQuery = z.object({
  lastEventId: z.string().max(20).optional().meta({
    description:
      "Resume after this event id (as the `Last-Event-ID` header does); absent: from the start",
  }),
});
