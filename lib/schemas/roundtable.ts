/**
 * Zod schemas of the roundtable API: the request of `POST /api/roundtables`, the host's
 * interjection, the minutes a model must produce, the stored roundtable as the API shows
 * it, and the data of each event of its stream. They generate `/api/openapi.json` and let
 * tests check real answers against it.
 *
 * @module
 */
import { z } from "zod";
import {
  BACKGROUND_MAX_CHARS,
  INTERJECTION_MAX_CHARS,
  ROUNDTABLE_MAX_EXPERTS,
  ROUNDTABLE_MAX_ROUNDS,
  ROUNDTABLE_MIN_EXPERTS,
  ROUNDTABLE_MIN_ROUNDS,
  TOPIC_MAX_CHARS,
  topicTooLong,
} from "../input_limits.ts";
import { expertById } from "../panel/experts.ts";
import type { EventDoc } from "./debate.ts";

const expertId = z.string().max(40).refine((id) => expertById(id) !== undefined, {
  error: "is not an expert of the catalogue (GET /api/experts)",
});

/** The body of `POST /api/roundtables`. */
export const RoundtableRequestSchema = z.object({
  topic: z.string().trim().min(1).max(TOPIC_MAX_CHARS, {
    error: (iss) => topicTooLong(typeof iss.input === "string" ? iss.input.length : 0),
  }),
  background: z.string().trim().max(BACKGROUND_MAX_CHARS).optional(),
  expertIds: z.array(expertId).min(ROUNDTABLE_MIN_EXPERTS).max(ROUNDTABLE_MAX_EXPERTS)
    .refine((ids) => new Set(ids).size === ids.length, { error: "names an expert twice" })
    .optional().meta({
      description:
        `${ROUNDTABLE_MIN_EXPERTS}–${ROUNDTABLE_MAX_EXPERTS} expert ids from \`GET /api/experts\`; absent: the model chooses for the topic`,
    }),
  rounds: z.number().int().min(ROUNDTABLE_MIN_ROUNDS).max(ROUNDTABLE_MAX_ROUNDS).optional()
    .meta({ description: "Discussion rounds after the opening round (default 3)" }),
});

/** A validated request. */
export type RoundtableRequest = z.infer<typeof RoundtableRequestSchema>;

/** The body of `POST /api/roundtables/:id/interject`. */
export const InterjectionRequestSchema = z.object({
  text: z.string().trim().min(1).max(INTERJECTION_MAX_CHARS),
  directTo: z.string().max(40).optional().meta({
    description: "The id of one of the roundtable's experts, who must answer next",
  }),
});

const point = z.string().trim().min(1).max(400);

/** The minutes of a roundtable as the model must write them (checked per panel by the engine). */
export const MinutesSchema = z.object({
  consensus: z.array(point).max(10),
  disagreements: z.array(point).max(10),
  stances: z.array(z.object({
    expertId: z.string().min(1).max(40),
    position: z.string().trim().min(1).max(600),
    keyPoints: z.array(point).max(6),
  })).min(1).max(ROUNDTABLE_MAX_EXPERTS),
  conclusion: z.string().trim().min(1).max(800),
  openQuestions: z.array(point).max(10),
}).meta({ id: "RoundtableMinutes" });

/** Validated minutes. */
export type Minutes = z.infer<typeof MinutesSchema>;

/**
 * The minutes of a panel of `expertIds`: one stance per expert, each expert once.
 *
 * @example
 * ```ts
 * const schema = minutesFor(["ada", "omar", "mei"]);
 * schema.safeParse({}).success; // false
 * ```
 */
export function minutesFor(expertIds: string[]) {
  return MinutesSchema.superRefine((m, ctx) => {
    const ids = m.stances.map((s) => s.expertId);
    const wrong = ids.filter((id) => !expertIds.includes(id));
    if (wrong.length) {
      ctx.addIssue({ code: "custom", message: `unknown expertId: ${wrong.join(", ")}` });
    }
    const missing = expertIds.filter((id) => !ids.includes(id));
    if (missing.length || new Set(ids).size !== ids.length) {
      ctx.addIssue({
        code: "custom",
        message: `exactly one stance per expert is needed: ${expertIds.join(", ")}`,
      });
    }
  });
}

const RoundtableExpert = z.object({ id: z.string(), name: z.string(), title: z.string() })
  .meta({ id: "RoundtableExpert" });

export const RoundtableMessageSchema = z.object({
  id: z.string().meta({ description: "`m<n>`, in order" }),
  expertId: z.string(),
  name: z.string(),
  content: z.string(),
  round: z.number().int().meta({ description: "0: the opening round; 1…rounds: discussion" }),
  replyTo: z.string().optional().meta({
    description: "The id of the message (`m<n>`) or host interjection (`h<n>`) this one answers",
  }),
  timestamp: z.number().meta({ description: "Unix time in milliseconds" }),
}).meta({ id: "RoundtableMessage" });

export const InterjectionSchema = z.object({
  id: z.string().meta({ description: "`h<n>`: what an answering message names in `replyTo`" }),
  text: z.string(),
  directTo: z.string().optional(),
  afterMessageId: z.string().nullable().meta({
    description: "The last message before the run took it up (null: before the first)",
  }),
  timestamp: z.number().meta({ description: "Unix time in milliseconds" }),
}).meta({ id: "RoundtableInterjection" });

export const RoundtableStatus = z.enum(["in_progress", "completed", "failed"]).meta({
  id: "RoundtableStatus",
});

/** A roundtable (`GET /api/roundtables/:id`). */
export const RoundtableSchema = z.object({
  id: z.string().meta({ description: "`rt_<timestamp>_<random>`" }),
  topic: z.string(),
  background: z.string(),
  experts: z.array(RoundtableExpert),
  rounds: z.number().int(),
  status: RoundtableStatus,
  messages: z.array(RoundtableMessageSchema),
  interjections: z.array(InterjectionSchema).meta({
    description: "Only those the run has taken up (a pending one appears with its answer)",
  }),
  minutes: MinutesSchema.nullable(),
  error: z.string().optional().meta({ description: "Why a `failed` roundtable stopped" }),
  userId: z.string(),
  createdAt: z.string().meta({ description: "ISO 8601" }),
  updatedAt: z.string().meta({ description: "ISO 8601" }),
}).meta({ id: "Roundtable" });

/** One line of `GET /api/roundtables`. */
export const RoundtableListItemSchema = z.object({
  id: z.string(),
  topic: z.string(),
  experts: z.array(RoundtableExpert),
  status: RoundtableStatus,
  userId: z.string(),
  createdAt: z.string().meta({ description: "ISO 8601" }),
}).meta({ id: "RoundtableListItem" });

/** `GET /api/roundtables`. */
export const RoundtableListSchema = z.object({
  roundtables: z.array(RoundtableListItemSchema),
}).meta({ id: "RoundtableList" });

/** The query of `GET /api/roundtables`. */
export const RoundtableListQuery = z.object({
  mine: z.enum(["1"]).optional().meta({ description: "Your own (signed in), newest first" }),
  public: z.enum(["1"]).optional().meta({
    description: "Public ones (owners whose debate archive is public), newest first",
  }),
});

/** The query of `GET /api/roundtables/:id/events` (the `Last-Event-ID` header wins). */
export const RoundtableEventsQuery = z.object({
  lastEventId: z.string().max(20).optional().meta({
    description:
      "Resume after this event id (as the `Last-Event-ID` header does); absent: from the start",
  }),
});

/** The events of the roundtable stream, in the order they come. */
export const ROUNDTABLE_EVENTS: Record<string, EventDoc> = {
  init: {
    description: "Sent first: the id, topic, experts and discussion rounds",
    data: z.object({
      id: z.string(),
      topic: z.string(),
      experts: z.array(RoundtableExpert),
      rounds: z.number().int(),
    }),
  },
  speaking: {
    description:
      "An expert is about to speak (and answers `replyTo`); a `speaking` with no `statement` since the last one restarts that turn: drop its partial text",
    data: z.object({
      round: z.number().int(),
      expertId: z.string(),
      replyTo: z.string().optional(),
    }),
  },
  chunk: {
    description: "A fragment of the current statement: append it",
    data: z.object({ expertId: z.string(), content: z.string() }),
  },
  statement: {
    description: "The statement is complete (full message)",
    data: z.object({ round: z.number().int(), message: RoundtableMessageSchema }),
  },
  round_end: { description: "A round is over", data: z.object({ round: z.number().int() }) },
  interjection: {
    description: "The host spoke; the next turn takes it up (by `directTo` when given)",
    data: z.object({ id: z.string(), text: z.string(), directTo: z.string().optional() }),
  },
  summarizing: {
    description: "The discussion is over; the minutes are being written",
    data: z.object({}),
  },
  minutes: { description: "The minutes", data: MinutesSchema },
  done: { description: "Last event", data: z.object({ id: z.string() }) },
  error: {
    description: "A failure: the stream ends and the roundtable is marked failed",
    data: z.object({ message: z.string() }),
  },
};
