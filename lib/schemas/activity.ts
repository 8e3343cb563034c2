/**
 * Query of the activity endpoints.
 *
 * @module
 */
import { z } from "zod";
import { ACTIVITY_PAGE_MAX, ACTIVITY_TYPES } from "../profile/activity.ts";

/** `?type=…&limit=…&cursor=…` */
export const ActivityQuery = z.object({
  type: z.enum(ACTIVITY_TYPES, {
    error: `type must be one of ${ACTIVITY_TYPES.join(", ")}`,
  }),
  limit: z.coerce.number().int().min(1).max(ACTIVITY_PAGE_MAX).optional(),
  cursor: z.string().max(500).optional(),
});
