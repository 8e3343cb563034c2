/**
 * The shapes of `POST /api/agent/participate` (docs/interface.md#participation): the request body, the response,
 * and the model answers the endpoint asks for (a plan, a new question). The same zod
 * objects validate requests and document the endpoint in `/api/openapi.json`.
 *
 * @module
 */
import { z } from "zod";
import { TITLE_MAX, TITLE_MIN } from "../input_limits.ts";
import { MessageSchema, QuestionSchema } from "./community.ts";
import { clipAtWord } from "../participation/text.ts";

/** The two things an agent can do. */
export const ParticipationAction = z.enum(["ask_new", "reply_existing"], {
  error: 'forceAction must be "ask_new" or "reply_existing"',
}).meta({ id: "ParticipationAction" });

/** What a participation ended up doing. */
export type ParticipationActionName = z.infer<typeof ParticipationAction>;

/** Who pressed the button: `manual` (the AI decides) or `auto` (a coin flip). */
export const ParticipationTrigger = z.enum(["manual", "auto"], {
  error: 'trigger must be "manual" or "auto"',
});

/**
 * The acting user as a client describes it. Accepted for compatibility with docs/interface.md#participation, but
 * the author of whatever is written is always the signed-in user's own profile: a name
 * or avatar sent by a client never reaches a stored record (nobody can post as someone
 * else by editing a request).
 */
export const ActorSchema = z.object({
  name: z.string({ error: "actor.name must be a string" }).max(200, {
    error: "actor.name is too long",
  }).optional(),
  avatar: z.string({ error: "actor.avatar must be a string" }).max(2048, {
    error: "actor.avatar is too long",
  }).nullable().optional(),
}, { error: "actor must be an object" }).meta({ id: "ParticipationActor" });

/** The request body; every field is optional. */
export const ParticipateBody = z.object({
  actor: ActorSchema.nullable().optional(),
  trigger: ParticipationTrigger.default("manual"),
  forceAction: ParticipationAction.nullable().optional(),
  preferredQuestionId: z.string({ error: "preferredQuestionId must be a string" }).trim()
    .max(200, { error: "preferredQuestionId is too long" }).nullable().optional()
    .meta({ description: "When replying, this question is given priority if it exists." }),
}, { error: "The body must be a JSON object" }).meta({ id: "ParticipateBody" });

/** A validated request. */
export type ParticipateInput = z.infer<typeof ParticipateBody>;

/** The response (docs/interface.md#participation: exactly these fields). */
export const ParticipateResult = z.object({
  action: ParticipationAction,
  trigger: ParticipationTrigger,
  reason: z.string().meta({ description: "Why this action (and question) was chosen." }),
  question: QuestionSchema.nullable().meta({ description: "Set when action is ask_new." }),
  questionMessage: MessageSchema.nullable().meta({
    description: "The new question's initial message (its description); set for ask_new.",
  }),
  replyMessage: MessageSchema.nullable().meta({
    description: "Set for reply_existing; carries replyTo when the thread has messages.",
  }),
  replyQuestionId: z.string().nullable(),
}).meta({ id: "ParticipateResult" });

/** The response body. */
export type ParticipateResponse = z.infer<typeof ParticipateResult>;

/** The error body of a failure (docs/interface.md#participation). */
export const PARTICIPATION_FAILED = "Agent participation failed";

// ——— Model answers ———

/** Longest reason kept from a model (characters). */
export const REASON_MAX = 200;

const clip = (max: number) => (s: string) => clipAtWord(s.replace(/\s+/g, " "), max);

/** A plan: what to do and, when replying, which listed question (1-based). */
export function planSchema(candidates: number) {
  return z.object({
    action: z.enum(["ask_new", "reply_existing"]),
    question: z.coerce.number().int().min(1).max(Math.max(1, candidates)).optional(),
    reason: z.string().trim().min(1).transform(clip(REASON_MAX)),
  });
}

/** A plan when the action is already fixed: just the question. */
export function pickSchema(candidates: number) {
  return z.object({
    question: z.coerce.number().int().min(1).max(Math.max(1, candidates)),
    reason: z.string().trim().min(1).transform(clip(REASON_MAX)),
  });
}

/** Longest description the agent writes for a new question (characters). */
export const ASK_DESCRIPTION_MAX = 1200;

/** A new question as the model writes it. */
export const AskAnswerSchema = z.object({
  title: z.string().trim().min(TITLE_MIN).max(TITLE_MAX),
  description: z.string().trim().min(20).max(ASK_DESCRIPTION_MAX * 2)
    .transform((s) => clipAtWord(s, ASK_DESCRIPTION_MAX)),
});

/** A validated new question. */
export type AskAnswer = z.infer<typeof AskAnswerSchema>;

// ——— The preview step (docs/interface.md#participation additions; docs/interface.md#participation's endpoint is unchanged) ———

/** A draft id as the preview hands it out. */
const DraftId = z.string({ error: "draftId is required" }).trim().regex(
  /^draft_[A-Za-z0-9_-]{8,40}$/,
  {
    error: "draftId must be an id from the preview",
  },
);

/** `POST /api/agent/participate/post` and `DELETE /api/agent/participate/preview`. */
export const DraftRef = z.object({ draftId: DraftId }, {
  error: "The body must be a JSON object",
}).meta({ id: "ParticipationDraftRef" });

/** What the agent is about to post: shown with Post / Discard, nothing stored yet. */
export const ParticipationPreview = z.object({
  draftId: z.string().meta({ description: "Pass to /api/agent/participate/post to post it." }),
  expiresAt: z.number().meta({ description: "Unix ms; the draft is forgotten after this." }),
  action: ParticipationAction,
  trigger: ParticipationTrigger,
  reason: z.string(),
  question: z.object({ title: z.string(), description: z.string() }).nullable().meta({
    description: "The question the agent would ask; set when action is ask_new.",
  }),
  reply: z.object({
    questionId: z.string(),
    questionTitle: z.string(),
    content: z.string(),
    replyTo: z.string().nullable(),
  }).nullable().meta({ description: "The reply the agent would post; set for reply_existing." }),
}).meta({ id: "ParticipationPreview" });

/** The preview response body. */
export type ParticipationPreviewBody = z.infer<typeof ParticipationPreview>;
