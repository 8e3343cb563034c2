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
  action: z.enum(["hide", "restore", "dismiss", "delete", "silence", "suspend", "lift", "withdraw"])
    .meta({
      description:
        "A post's moderation, a sanction on a person (targetType user), or a debate or roundtable withdrawn or restored",
    }),
  targetType: z.enum(["question", "message", "user", "debate", "roundtable"]),
  targetId: z.string(),
  questionId: z.string().meta({
    description: 'The post\'s question; "" for a person, a debate or a roundtable',
  }),
  moderator: z.object({ id: z.string(), name: z.string() }),
  at: z.number(),
  reason: z.string().optional().meta({ description: "A sanction's or a withdrawal's reason" }),
  until: z.number().nullable().optional().meta({
    description: "A sanction's end (Unix ms), null until lifted",
  }),
}).meta({ id: "ModLogEntry" });

/** `POST /api/mod/debates/:id` and `POST /api/mod/roundtables/:id`. */
export const WithdrawalBody = z.strictObject({
  action: z.enum(["withdraw", "restore"], { error: 'action must be "withdraw" or "restore"' })
    .meta({
      description: "withdraw: others read it as missing (404) until restored; restore: shown again",
    }),
  reason: z.string({ error: "reason is required" }).trim()
    .min(1, "reason is required")
    .max(500, "reason must be at most 500 characters")
    .meta({ description: "Shown to the owner while withdrawn, and logged (1–500 characters)" }),
}).meta({ id: "WithdrawalBody" });

export const WithdrawalSchema = z.object({
  reason: z.string(),
  at: z.number().meta({ description: "Unix ms" }),
  by: z.object({ id: z.string(), name: z.string() }),
}).meta({ id: "Withdrawal" });

/** A debate's or roundtable's moderation state. */
export const WithdrawalStateSchema = z.object({
  type: z.enum(["debate", "roundtable"]),
  id: z.string(),
  withdrawn: WithdrawalSchema.nullable().meta({ description: "null: shown" }),
}).meta({ id: "WithdrawalState" });

/** `POST /api/mod/users/:id`. */
export const SanctionBody = z.strictObject({
  action: z.enum(["silence", "suspend", "lift"], {
    error: 'action must be "silence", "suspend" or "lift"',
  }).meta({
    description:
      "silence: may read, not post, vote or flag; suspend: signed out, may not sign in, agent keys refused; lift: ends either",
  }),
  until: z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error:
      "until must be an ISO 8601 date (2026-06-01) or a date-time with its offset (2026-06-01T12:00:00Z)",
  }).nullable().optional().meta({
    description:
      "When it ends (ISO 8601; a date means its start, UTC). Absent or null: until lifted (the standing's `until: null`). Ignored by lift.",
  }),
  reason: z.string({ error: "reason is required" }).trim()
    .min(1, "reason is required")
    .max(500, "reason must be at most 500 characters")
    .meta({ description: "Shown to the person (1–500 characters)" }),
}).meta({ id: "SanctionBody" });

export const SanctionSchema = z.object({
  action: z.enum(["silence", "suspend"]),
  reason: z.string(),
  until: z.number().nullable().meta({ description: "Unix ms; null until lifted" }),
  at: z.number(),
  by: z.object({ id: z.string(), name: z.string() }),
}).meta({ id: "Sanction" });

/** A person's standing: trust, and the sanction in force. */
export const AccountStandingSchema = z.object({
  userId: z.string(),
  trust: Standing,
  sanction: SanctionSchema.nullable(),
}).meta({ id: "AccountStanding" });

/**
 * A write's 403: any refusal (`error`), and for a silenced or suspended person also the
 * sanction's `code`, `reason` and `until`.
 */
export const ForbiddenBody = z.object({
  error: z.string(),
  code: z.enum(["silenced", "suspended"]).optional().meta({
    description: "Set when a moderator silenced or suspended the person",
  }),
  reason: z.string().optional().meta({ description: "The sanction's reason" }),
  until: z.number().nullable().optional().meta({
    description: "The sanction's end, Unix ms; null until lifted",
  }),
}).meta({ id: "Forbidden" });

/** The 403 of a silenced or suspended person. */
export const RestrictedBody = z.object({
  error: z.string().meta({ description: "What, until when, and why, in a sentence" }),
  code: z.enum(["silenced", "suspended"]),
  reason: z.string(),
  until: z.number().nullable().meta({ description: "Unix ms; null until lifted" }),
}).meta({ id: "Restricted" });

export const ModLogResult = z.object({
  entries: z.array(ModLogEntry),
  nextCursor: z.string().nullable(),
}).meta({ id: "ModLog" });

export const CursorQuery = z.object({
  cursor: z.string().max(500, "cursor is too long").optional(),
});
