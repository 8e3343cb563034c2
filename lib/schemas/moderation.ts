/**
 * Moderation inputs and outputs (docs/interface.md#moderation).
 *
 * @module
 */
import { z } from "zod";
import { TargetType } from "./community.ts";

export const FlagReason = z.enum(["spam", "offensive", "off_topic", "other"], {
  error: 'reason must be "spam", "offensive", "off_topic" or "other"',
}).meta({ id: "FlagReason" });

/** `POST /api/flags`. */
export const FlagBody = z.object({
  targetType: TargetType,
  targetId: z.string({ error: "targetId is required" }).min(1, "targetId is required"),
  reason: FlagReason,
  note: z.string().trim().max(500, "note must be at most 500 characters").optional(),
}).meta({ id: "FlagBody" });

export const ModActionName = z.enum(["hide", "restore", "dismiss", "delete"], {
  error: 'action must be "hide", "restore", "dismiss" or "delete"',
}).meta({ id: "ModAction" });

/** `POST /api/mod/actions`. */
export const ModActionBody = z.object({
  targetType: TargetType,
  targetId: z.string({ error: "targetId is required" }).min(1, "targetId is required"),
  action: ModActionName,
}).meta({ id: "ModActionBody" });

const reasonCounts = z.object({
  spam: z.int().optional(),
  offensive: z.int().optional(),
  off_topic: z.int().optional(),
  other: z.int().optional(),
});

export const Standing = z.enum(["new", "established"]).meta({
  id: "Standing",
  description:
    "new: younger than NEW_ACCOUNT_HOURS with nothing up-voted or accepted (its flags weigh half)",
});

export const Flagger = z.object({
  id: z.string(),
  name: z.string(),
  standing: Standing,
}).meta({ id: "Flagger" });

export const ModQueueItem = z.object({
  targetType: TargetType,
  targetId: z.string(),
  questionId: z.string(),
  questionTitle: z.string(),
  author: z.object({ id: z.string(), name: z.string() }),
  excerpt: z.string(),
  flags: z.int().meta({ description: "Distinct flags since the last decision" }),
  weight: z.number().meta({
    description:
      "Sum of the flags' weights: 1 each, 0.5 from a new account; 3 hides the post pending review",
  }),
  flaggers: z.array(Flagger).meta({
    description: "The newest flaggers (at most 20), with their standing when they flagged",
  }),
  reasons: reasonCounts,
  notes: z.array(z.string()),
  hidden: z.boolean().meta({
    description: "Hidden now (flag weight 3 hides a post pending review)",
  }),
  lastFlaggedAt: z.number(),
}).meta({ id: "ModQueueItem" });

export const ModQueueResult = z.object({ queue: z.array(ModQueueItem) }).meta({
  id: "ModQueue",
});

export const ModLogEntry = z.object({
  id: z.string(),
  action: ModActionName,
  targetType: TargetType,
  targetId: z.string(),
  questionId: z.string(),
  moderator: z.object({ id: z.string(), name: z.string() }),
  at: z.number(),
}).meta({ id: "ModLogEntry" });

export const ModLogResult = z.object({
  entries: z.array(ModLogEntry),
  nextCursor: z.string().nullable(),
}).meta({ id: "ModLog" });

export const CursorQuery = z.object({
  cursor: z.string().max(500, "cursor is too long").optional(),
});
