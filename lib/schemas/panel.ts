/**
 * Schemas of the AI expert panel and the writing helpers (docs/interface.md#expert-panel).
 *
 * @module
 */
import { z } from "zod";
import type { EventDoc } from "./debate.ts";
import { MessageSchema } from "./community.ts";

export const ExpertSchema = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string(),
  avatar: z.string().meta({ description: "Initials shown in the avatar circle" }),
  expertise: z.array(z.string()),
}).meta({ id: "Expert" });

export const ExpertList = z.object({ experts: z.array(ExpertSchema) }).meta({ id: "ExpertList" });

export const InviteBody = z.object({
  expertId: z.string({ error: "expertId is required" }).min(1, { error: "expertId is required" })
    .max(40, { error: "expertId is too long" }),
}).meta({ id: "InviteExpert" });

export const InviteResponse = z.object({
  ok: z.literal(true),
  expertId: z.string(),
}).meta({ id: "InviteResult" });

export const DraftBody = z.object({
  questionId: z.string({ error: "questionId is required" }).min(1).max(200),
  replyTo: z.string().max(200).nullish(),
}).meta({ id: "DraftRequest" });

export const DraftResponse = z.object({ content: z.string() }).meta({ id: "Draft" });

export const IdeasBody = z.object({
  keyword: z.string({ error: "keyword is required" }).trim().min(2, {
    error: "keyword must be 2 to 60 characters",
  }).max(60, { error: "keyword must be 2 to 60 characters" }),
  batch: z.int().min(0).max(1000).optional().meta({ description: "Ask for another batch" }),
}).meta({ id: "IdeasRequest" });

export const IdeasResponse = z.object({
  ideas: z.array(z.object({
    title: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
  })).length(3),
}).meta({ id: "QuestionIdeas" });

export const PanelEventsQuery = z.object({
  lastEventId: z.string().max(20).optional().meta({
    description: "Resume after this event id (as `Last-Event-ID`); absent: from the start",
  }),
});

/** The events of a question's panel stream. */
export const PANEL_EVENTS: Record<string, EventDoc> = {
  typing: {
    description: "An expert started writing",
    data: z.object({ expertId: z.string(), name: z.string(), title: z.string() }),
  },
  message: {
    description: "An expert's message, stored (authorType `ai`, createdBy `system`)",
    data: z.object({ message: MessageSchema, expertTitle: z.string().optional() }),
  },
  skipped: {
    description: "An expert (or the whole panel) could not write: show a quiet line",
    data: z.object({
      message: z.string(),
      expertId: z.string().optional(),
      reason: z.string().optional(),
    }),
  },
  done: { description: "The panel's queue is empty (for now)", data: z.object({}) },
};
