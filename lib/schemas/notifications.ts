/**
 * Notifications and follows (docs/interface.md#notifications).
 *
 * @module
 */
import { z } from "zod";

export const NotificationType = z.enum(["answer", "reply", "accepted", "upvotes"]).meta({
  id: "NotificationType",
});

export const NotificationSchema = z.object({
  id: z.string(),
  type: NotificationType,
  actor: z.object({ id: z.string(), name: z.string(), avatarUrl: z.string().nullable() })
    .nullable().meta({ description: "Who caused it; null for `upvotes` (many people)" }),
  questionId: z.string(),
  messageId: z.string().nullable(),
  title: z.string().meta({ description: "The question's title" }),
  excerpt: z.string(),
  count: z.int().meta({ description: "1, or the day's up-votes of the post for `upvotes`" }),
  createdAt: z.number(),
  read: z.boolean(),
  removed: z.literal(true).optional().meta({
    description:
      'Present when the question or message was deleted or hidden since: title "[removed]", empty excerpt, no actor',
  }),
}).meta({ id: "Notification" });

export const NotificationsResult = z.object({
  notifications: z.array(NotificationSchema),
  unread: z.int(),
  nextCursor: z.string().nullable(),
}).meta({ id: "Notifications" });

export const NotificationsQuery = z.object({
  // A notification id (`n-…`), as `nextCursor` gives it; anything else is refused as the
  // other cursors are, rather than silently starting over at the first page.
  cursor: z.string().max(200, "cursor is too long").regex(/^n-[0-9a-z]+$/, "Invalid cursor")
    .optional().meta({ description: "The previous page's `nextCursor`." }),
});

/** `POST /api/notifications/read`: none = all. */
export const MarkReadBody = z.object({
  ids: z.array(z.string().max(200)).max(100, "at most 100 ids").optional(),
}).meta({ id: "MarkReadBody" });

export const UnreadResult = z.object({ unread: z.int() }).meta({ id: "Unread" });

export const FollowResult = z.object({ following: z.boolean() }).meta({ id: "FollowResult" });

export const QuestionChanged = z.object({
  messageCount: z.int(),
  upvotes: z.int(),
  downvotes: z.int(),
}).meta({ id: "QuestionChanged" });
