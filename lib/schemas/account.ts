/**
 * Your data and your account (docs/interface.md#your-account): the export document and
 * the deletion body. They validate requests, generate `/api/openapi.json`, and let tests
 * check real answers against the documentation.
 *
 * @module
 */
import { z } from "zod";
import { TargetType, VoteType } from "./community.ts";
import { ProfileSchema } from "./profile.ts";

const isoDate = z.string().meta({ description: "ISO 8601" });
const isoOrNull = isoDate.nullable();

/** `DELETE /api/profile/me`. */
export const DeleteAccountBody = z.strictObject({
  confirm: z.string({ error: "confirm is required: type your display name" })
    .max(200, "confirm must be at most 200 characters")
    .meta({ description: "Your display name, exactly as shown (surrounding spaces ignored)" }),
  content: z.enum(["keep", "delete"], {
    error: 'content must be "keep" or "delete"',
  }).meta({
    description:
      '"keep": your questions and answers stay, by "deleted user"; "delete": they are deleted as if you deleted each one',
  }),
}).meta({ id: "DeleteAccountBody" });

/** The answer of a deletion. */
export const DeleteAccountResult = z.object({
  ok: z.literal(true),
  content: z.enum(["keep", "delete"]),
}).meta({ id: "DeleteAccountResult" });

/** The 400 of a confirmation that is not the display name. */
export const CONFIRM_MISMATCH =
  "To delete your account, type your display name exactly as it is shown on your profile.";

const ExportedQuestion = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  createdBy: z.enum(["user", "agent"]),
  createdAt: isoDate,
  editedAt: isoOrNull,
  deletedAt: isoOrNull,
  hiddenByModerators: z.boolean(),
});

const ExportedAnswer = z.object({
  id: z.string(),
  questionId: z.string(),
  replyTo: z.string().nullable(),
  content: z.string(),
  createdBy: z.enum(["user", "agent", "system"]),
  via: z.literal("ai-avatar").nullable(),
  createdAt: isoDate,
  editedAt: isoOrNull,
  deletedAt: isoOrNull,
  hiddenByModerators: z.boolean(),
});

/** `GET /api/profile/export`. */
export const AccountExportSchema = z.object({
  format: z.literal("parley-account-export"),
  version: z.literal(1),
  exportedAt: isoDate,
  account: z.object({
    userId: z.string(),
    createdAt: isoDate,
    provider: z.string(),
    email: z.string().nullable(),
  }),
  profile: ProfileSchema,
  identities: z.array(z.object({
    provider: z.string(),
    subject: z.string().meta({ description: "Your account id at the provider" }),
    email: z.string().nullable(),
    name: z.string(),
    createdAt: isoDate,
    updatedAt: isoDate,
  })).meta({ description: "Sign-in methods; never a token" }),
  questions: z.array(ExportedQuestion).meta({ description: "Deleted ones included" }),
  answers: z.array(ExportedAnswer).meta({
    description: "Answers and replies, deleted ones included",
  }),
  revisions: z.array(z.object({
    targetType: TargetType,
    targetId: z.string(),
    revision: z.int(),
    editedAt: isoDate,
    title: z.string().optional(),
    description: z.string().optional(),
    tags: z.array(z.string()).optional(),
    content: z.string().optional(),
  })).meta({ description: "Every version of your edited posts" }),
  votes: z.array(z.object({
    targetType: TargetType,
    targetId: z.string(),
    voteType: VoteType,
    createdAt: isoDate,
  })),
  favorites: z.array(z.object({
    targetType: TargetType,
    targetId: z.string(),
    questionId: z.string(),
    createdAt: isoDate,
  })),
  follows: z.array(z.object({ questionId: z.string(), since: isoDate })),
  flags: z.array(z.object({
    targetType: TargetType,
    targetId: z.string(),
    reason: z.string(),
    note: z.string().nullable(),
    createdAt: isoDate,
  })),
  debates: z.array(z.record(z.string(), z.unknown())).meta({
    description: "Your debates with their messages, as GET /api/debates/:id answers",
  }),
  roundtables: z.array(z.record(z.string(), z.unknown())).meta({
    description: "The roundtables you hosted, as GET /api/roundtables/:id answers",
  }),
  notifications: z.array(z.object({
    id: z.string(),
    type: z.string(),
    questionId: z.string(),
    messageId: z.string().nullable(),
    count: z.int(),
    createdAt: isoDate,
  })).meta({ description: "Without the other person or their text" }),
  agentKeys: z.array(z.object({
    name: z.string(),
    createdAt: isoDate,
    lastUsedAt: isoOrNull,
  })).meta({ description: "Names and dates only" }),
  settings: z.record(z.string(), z.unknown()),
}).meta({ id: "AccountExport" });
